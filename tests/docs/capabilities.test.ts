import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { capabilities } from "@/lib/capabilities/index";
import { capabilitiesMarkdown } from "@/lib/surfaces/capabilities-doc";

const ROOT = join(__dirname, "..", "..");
const page = readFileSync(join(ROOT, "docs", "capabilities.md"), "utf8");

describe("docs/capabilities.md", () => {
  it("is the registry's list as it is now (npm run docs:capabilities writes it)", () => {
    expect(page).toBe(capabilitiesMarkdown());
  });

  it("names every capability, plan.release included", () => {
    for (const c of capabilities) expect(page, c.id).toContain(`| \`${c.id}\` |`);
    expect(page).toContain("`plan.release`");
  });

  it("is linked from the README's list of docs, and docs/http-and-mcp.md's table lists every capability", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    expect(readme).toContain("(docs/capabilities.md)");
    const table = readFileSync(join(ROOT, "docs", "http-and-mcp.md"), "utf8");
    for (const c of capabilities) expect(table, c.id).toContain(`| \`${c.id}\` |`);
  });

  it("docs/security.md's list of the commands a caller must make names every plan command", () => {
    const security = readFileSync(join(ROOT, "docs", "security.md"), "utf8");
    const list = /A \*command\* is a\s+capability that writes \(([^;]*)\);/.exec(security)?.[1] ?? "";
    const named = [...list.matchAll(/`(plan\.[a-z-]+)`/g)].map((m) => m[1]).sort();
    expect(named).toEqual(capabilities.filter((c) => c.kind === "command" && c.id.startsWith("plan.")).map((c) => c.id).sort());
    expect(list).toContain("`plans.*`");
  });
});
