import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { handleCapabilityRequest } from "@/lib/surfaces/http";
import { runPlanCommand } from "@/lib/surfaces/cli/plan";
import { pageText } from "@/lib/surfaces/page-text";
import { loadPlan } from "@/lib/repo";
import { cleanup, copyRepo, hashRepo } from "./helpers";

// Bidirectional controls and line separators in one-line fields: refused on write (create, edit,
// import) with a message naming the character, and shown as a visible mark when a record written
// by hand holds one (a page shows ⟨U+202E⟩, a terminal \u202e), so no title reorders what is read.

afterAll(cleanup);

const NAMED: [string, string][] = [
  ["\u061c", "U+061C (Arabic letter mark)"],
  ["\u200e", "U+200E (left-to-right mark)"],
  ["\u200f", "U+200F (right-to-left mark)"],
  ["\u202a", "U+202A (left-to-right embedding)"],
  ["\u202b", "U+202B (right-to-left embedding)"],
  ["\u202c", "U+202C (pop directional formatting)"],
  ["\u202d", "U+202D (left-to-right override)"],
  ["\u202e", "U+202E (right-to-left override)"],
  ["\u2066", "U+2066 (left-to-right isolate)"],
  ["\u2067", "U+2067 (right-to-left isolate)"],
  ["\u2068", "U+2068 (first strong isolate)"],
  ["\u2069", "U+2069 (pop directional isolate)"],
  ["\u2028", "U+2028 (line separator)"],
  ["\u2029", "U+2029 (paragraph separator)"],
];

const post = (repo: string, path: string, body: unknown) =>
  handleCapabilityRequest(new Request(`http://127.0.0.1${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }), path, { repo });

async function refusal(r: Response): Promise<string> {
  expect(r.status).toBe(400);
  return ((await r.json()) as { error: { message: string } }).error.message;
}

describe("a bidirectional control or a separator in a one-line field is refused on write", () => {
  it("plan.create and plan.edit answer 400 naming the character, and write nothing", async () => {
    const repo = copyRepo("cockpit-bidi-");
    const before = hashRepo(repo);
    for (const [c, named] of NAMED) {
      expect(await refusal(await post(repo, "/api/v1/plan/create", { kind: "issue", title: `invoice${c}fdp.exe`, milestone: "booking" }))).toContain(`title contains ${named}`);
      expect(await refusal(await post(repo, "/api/v1/plan/edit", { id: "BK-016", set: { title: `pay ${c}01$` } }))).toContain(`title contains ${named}`);
      expect(await refusal(await post(repo, "/api/v1/plan/edit", { id: "BK-016", set: { owner: `tom${c}` } }))).toContain(`owner contains ${named}`);
    }
    expect(hashRepo(repo)).toBe(before);
  });

  it("cockpit plan edit exits 2 naming it", async () => {
    const repo = copyRepo("cockpit-bidi-");
    let err = "";
    const code = await runPlanCommand(["edit", "BK-016", "--set", "title=abc\u202edef", "--repo", repo], { out: () => undefined, err: (t) => (err += t) });
    expect(err).toContain("title contains U+202E (right-to-left override)");
    expect(code).toBe(2);
  });

  it("an import skips the record, naming the field and the character, and imports the rest", async () => {
    const repo = copyRepo("cockpit-bidi-");
    const lines = [
      { id: "BD-1", title: "a plain title", status: "open" },
      { id: "BD-2", title: "exe.\u202etxt", status: "open" },
      { id: "BD-3", title: "fine", assignee: "mal\u2028lory", status: "open" },
    ];
    const r = await post(repo, "/api/v1/plan/import", { format: "beads", source: "issues.jsonl", files: { "issues.jsonl": lines.map((l) => JSON.stringify(l)).join("\n") } });
    expect(r.status).toBe(200);
    const answer = (await r.json()) as { created: { issues: string[] }; skipped: { id: string; why: string }[] };
    expect(answer.created.issues).toEqual(["BD-1"]);
    expect(answer.skipped).toContainEqual({ id: "BD-2", why: expect.stringContaining("title contains U+202E (right-to-left override)") });
    expect(answer.skipped).toContainEqual({ id: "BD-3", why: expect.stringContaining("owner contains U+2028 (line separator)") });
    expect(loadPlan(repo).issues.map((i) => i.id)).not.toContain("BD-2");
  });
});

describe("a record written by hand with one is shown visibly", () => {
  it("a page shows ⟨U+202E⟩ in its place, and the terminal \\u202e", async () => {
    const repo = copyRepo("cockpit-bidi-");
    const file = join(repo, ".ai", "repo", "project", "issues", "BK-016.yaml");
    writeFileSync(file, readFileSync(file, "utf8").replace(/^title: .*$/m, 'title: "Refund \\u202Egnp.exe\\u2028 now"'));
    const issue = loadPlan(repo).issues.find((i) => i.id === "BK-016")!;
    expect(issue.title).toBe("Refund \u202egnp.exe\u2028 now");
    expect(pageText({ title: issue.title }).title).toBe("Refund ⟨U+202E⟩gnp.exe⟨U+2028⟩ now");
    let out = "";
    expect(await runPlanCommand(["record", "BK-016", "--repo", repo], { out: (t) => (out += t), err: () => undefined })).toBe(0);
    expect(out).toContain("Refund \\u202egnp.exe\\u2028 now");
    expect(out).not.toMatch(/[\u202e\u2028]/);
  });
});
