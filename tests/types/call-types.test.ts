// The answer of `call(capability)` has the capability's output type: the lines of call-types.ts
// marked @ts-expect-error, compiled without their marks, must each fail, and nothing else may.
// typed-paths.ts holds the same for the other typed paths: the verbs, the browser's actions and
// the results inferred from their schemas.
import { join } from "node:path";
import { expect, test } from "vitest";
import { compileUnmarked } from "./marked";

test("a wrong output or input type of a capability call does not compile", () => {
  const { marked, errors } = compileUnmarked(join(__dirname, "call-types.ts"));
  expect(marked.length).toBe(4);
  // Each error sits on the line after its mark.
  expect([...new Set(errors)].sort((a, b) => a - b)).toEqual(marked.map((line) => line + 1));
}, 120_000);

test("a wrong output type on a verb, an action or an inferred result does not compile", () => {
  const { marked, errors } = compileUnmarked(join(__dirname, "typed-paths.ts"));
  expect(marked.length).toBeGreaterThanOrEqual(6);
  expect([...new Set(errors)].sort((a, b) => a - b)).toEqual(marked.map((line) => line + 1));
}, 120_000);
