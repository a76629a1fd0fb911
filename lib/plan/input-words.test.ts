import { describe, expect, it } from "vitest";
import { z } from "zod";
import { describeInputError } from "./input-words";

// A refused input is said in words: the field, what is wrong, what it takes; never zod's own text.

const Input = z.strictObject({
  id: z.string(),
  type: z.enum(["test", "build", "ci", "artifact", "manual"]).optional(),
  force: z.boolean().optional(),
  title: z.string().min(1).max(5).optional(),
  scope: z.array(z.string()).max(2).optional(),
  wave: z.number().int().min(0).optional(),
  limit: z.number().min(0, "limit must be 0 or more").optional(),
  set: z.strictObject({ title: z.string() }).optional(),
});

const words = (input: unknown) => {
  const r = Input.safeParse(input);
  if (r.success) throw new Error("the input was accepted");
  return describeInputError(r.error);
};

describe("describeInputError", () => {
  it("names a missing field as required", () => expect(words({})).toBe("id is required"));
  it("lists an enum's values", () => expect(words({ id: "a", type: "unit" })).toBe("type must be one of test, build, ci, artifact, manual"));
  it("says the type a field takes and the one it was given", () => expect(words({ id: "a", force: "yes" })).toBe("force must be true or false, not string"));
  it("says an empty text is not allowed, and a text's length", () => {
    expect(words({ id: "a", title: "" })).toBe("title must not be empty");
    expect(words({ id: "a", title: "abcdef" })).toBe("title is at most 5 characters");
  });
  it("counts a list's entries", () => expect(words({ id: "a", scope: ["a", "b", "c"] })).toBe("scope holds at most 2 entries"));
  it("bounds a number", () => expect(words({ id: "a", wave: -1 })).toBe("wave must be 0 or more"));
  it("keeps a schema's own message, naming the field once", () => expect(words({ id: "a", limit: -1 })).toBe("limit must be 0 or more"));
  it("names a nested field by its path", () => expect(words({ id: "a", set: {} })).toBe("set.title is required"));
  it("names unknown fields", () => expect(words({ id: "a", colour: "red" })).toBe("input: unknown field 'colour'"));
  it("says every problem, one clause each", () => expect(words({ type: "unit" })).toBe("id is required; type must be one of test, build, ci, artifact, manual"));
});
