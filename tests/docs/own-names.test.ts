import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { capabilities } from "@/lib/capabilities/index";

// Every message the product can emit (a refusal, a finding, a usage line, a tool's description)
// names our own commands: `cockpit plan …`, the HTTP route or the MCP tool, never the reference's
// `majordomus plan …` and never an internal capability id such as `plan.issues`. The messages are
// collected from the source: every string and template literal outside the tests.
const root = join(__dirname, "..", "..");

function productSources(): string[] {
  const out = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", "lib", "app", "components", "bin", "proxy.ts"], { cwd: root, encoding: "utf8" });
  return out.split("\0").filter((f) => /\.(ts|tsx)$/.test(f) && !/\.test\.tsx?$/.test(f));
}

interface Literal {
  file: string;
  line: number;
  text: string;
}

/** Every literal text of a file: strings, and templates with `${…}` for each substitution. */
function literals(file: string): Literal[] {
  const source = ts.createSourceFile(file, readFileSync(join(root, file), "utf8"), ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const out: Literal[] = [];
  const add = (node: ts.Node, text: string) => out.push({ file, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, text });
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) add(node, node.text);
    else if (ts.isTemplateExpression(node)) add(node, node.head.text + node.templateSpans.map((s) => "${…}" + s.literal.text).join(""));
    else if (ts.isJsxText(node)) add(node, node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

const all = productSources().flatMap(literals);
/** The texts that read as words (a space in them): messages, descriptions, templates of both. */
const messages = all.filter((l) => /\s/.test(l.text.trim()));
const ids = capabilities.map((c) => c.id.replace(".", "\\."));
const CAPABILITY_ID = new RegExp(`(?<![\\w/.-])(?:${ids.join("|")})(?![\\w-])`);

const where = (l: Literal) => `${l.file}:${l.line}: ${l.text.slice(0, 160)}`;

describe("our own names in every message", () => {
  it("collects the messages from the source (the refusals and findings among them)", () => {
    expect(messages.length).toBeGreaterThan(1000);
    const texts = messages.map((m) => m.text);
    expect(texts.some((t) => t.includes("still needs evidence for"))).toBe(true);
    expect(texts.some((t) => t.includes("writes the stamp"))).toBe(true);
  });

  it("no message names `majordomus plan`", () => {
    expect(messages.filter((l) => /majordomus plan\b/.test(l.text)).map(where)).toEqual([]);
  });

  it("no message names a capability by its internal id", () => {
    expect(messages.filter((l) => CAPABILITY_ID.test(l.text)).map(where)).toEqual([]);
  });
});
