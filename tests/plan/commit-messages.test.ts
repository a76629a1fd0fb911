// plan.commit builds its message from data, never by it, as the product runs: the `cockpit`
// command over a real repository. Values reach git on standard input, escaped, and a prose
// value's own lines sit indented under its entry, where git reads no trailer.

import { spawnSync } from "node:child_process";
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commitRecords } from "@/lib/repo/commit";
import { CLI, ensureCliBuilt, spawnCli, refusalOf } from "../support/processes";
import { AT, LEDGER, cleanupRepos, makePlanRepo, type PlanRepo } from "../support/repo";

beforeAll(ensureCliBuilt);
afterAll(cleanupRepos);

const cockpit = (...args: string[]) => spawnCli(args);

/** A committed plan of two issues, with git's identity. */
function committedRepo(): PlanRepo {
  return makePlanRepo({ issues: [{ id: "I0001" }, { id: "I0002" }], files: { ".gitignore": ".ai/local/\n" }, commit: true });
}

/** A ledger line as an earlier Cockpit wrote it (JSON escapes any character), for the current HEAD. */
function appendEditLine(repo: PlanRepo, record: string, changes: string, by = "alice"): void {
  const line = { ts: AT, event: "plan_record_edited", head: repo.git("rev-parse", "HEAD"), branch: "main", by, record, kind: "issue", changes };
  mkdirSync(dirname(repo.path(LEDGER)), { recursive: true });
  appendFileSync(repo.path(LEDGER), JSON.stringify(line) + "\n");
}

/** The trailers git itself reads in the last commit's message. */
function trailersOfHead(repo: PlanRepo): string {
  const message = repo.git("log", "-1", "--format=%B");
  const r = spawnSync("git", ["interpret-trailers", "--parse"], { cwd: repo.root, input: message, encoding: "utf8" });
  expect(r.status).toBe(0);
  return r.stdout;
}

describe("the commit message is built from data", () => {
  it("a NUL an earlier writer left in a title and its ledger line: the commit succeeds, the NUL shown as \\x00", async () => {
    const repo = committedRepo();
    writeFileSync(repo.issuePath("I0001"), repo.read("I0001").replace("title: Issue I0001", 'title: "Before\\0After"'));
    appendEditLine(repo, "I0001", "set title=Before\u0000After");
    const r = await cockpit("commit", "--repo", repo.root, "--json");
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ committed: true, count: 1 });
    const message = repo.git("log", "-1", "--format=%B");
    expect(message).toContain("- I0001: edit: set title=Before\\x00After [alice]");
    expect(message).not.toContain("\u0000");
  });

  it("a newline in a prose value adds no trailer and no line of its own: git interpret-trailers finds the Cockpit's alone", async () => {
    const repo = committedRepo();
    const forged = "Fix the widget\n\nSigned-off-by: Mallory <mallory@evil.invalid>";
    const edit = await cockpit("edit", "I0001", "--set", `objective=${forged}`, "--repo", repo.root, "--json");
    expect(edit.code).toBe(0);
    // The prose keeps its newlines in the record.
    const record = await cockpit("record", "I0001", "--repo", repo.root, "--json");
    expect(JSON.stringify(JSON.parse(record.stdout))).toContain(JSON.stringify(forged).slice(1, -1));
    // A value an earlier writer left with a newline in a one-line field, and in who wrote it.
    appendEditLine(repo, "I0002", "set owner=bob\nSigned-off-by: Eve <eve@evil.invalid>", "carol\nReviewed-by: Eve <eve@evil.invalid>");
    writeFileSync(repo.issuePath("I0002"), repo.read("I0002") + "owner: bob\n");

    const r = await cockpit("commit", "--repo", repo.root, "--json");
    expect(r.code).toBe(0);
    // The only trailer is the Cockpit's own (its changes are all moves and edits made through it).
    expect(trailersOfHead(repo)).toBe("Cockpit-Records: moves\n");
    const lines = repo.git("log", "-1", "--format=%B").split("\n");
    // Every line of the body is an entry or an indented continuation of one, but that trailer.
    expect(lines.slice(2).filter((l) => l !== "" && !l.startsWith("- ") && !l.startsWith("    "))).toEqual(["Cockpit-Records: moves"]);
    expect(lines.filter((l) => l.includes("Mallory"))).toEqual([expect.stringMatching(/^ {4}Signed-off-by: Mallory <mallory@evil\.invalid> \[[^\]]+\]$/)]);
    const entry = lines.indexOf("- I0002: edit: set owner=bob");
    expect(lines[entry + 1]).toBe("    Signed-off-by: Eve <eve@evil.invalid> [carol\\x0aReviewed-by: Eve <eve@evil.invalid>]");
  });

  it("the message reaches git on standard input: one longer than an argument may be (128 KiB) is committed whole", async () => {
    const repo = committedRepo();
    for (let n = 0; n < 16; n++) appendEditLine(repo, "I0001", `set objective=${String(n).padStart(2, "0")}${"x".repeat(9_000)}`);
    writeFileSync(repo.issuePath("I0001"), repo.read("I0001").replace("Objective of I0001", "x"));
    const dry = await commitRecords(repo.root, { dry_run: true });
    expect(dry.message.length).toBeGreaterThan(128 * 1024);
    const r = await cockpit("commit", "--repo", repo.root, "--json");
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(repo.git("log", "-1", "--format=%B") + "\n").toBe(dry.message);
  });

  it("a commit message given with a newline or a control character is refused (exit 2) naming message", async () => {
    const repo = committedRepo();
    writeFileSync(repo.issuePath("I0001"), repo.read("I0001") + "owner: bob\n");
    const head = repo.git("rev-parse", "HEAD");
    for (const message of ["plan\n\nSigned-off-by: Mallory <m@evil.invalid>", "plan \u001b[31mred"]) {
      const r = await cockpit("commit", "--message", message, "--repo", repo.root);
      expect(r.code).toBe(2);
      expect(refusalOf(r)).toMatch(/\bmessage\b/);
    }
    expect(repo.git("rev-parse", "HEAD")).toBe(head);
  });
});

describe("a leftover index.lock", () => {
  it("is refused (exit 15) naming .git/index.lock and how to check that no git process runs before removing it", async () => {
    const repo = committedRepo();
    writeFileSync(repo.issuePath("I0001"), repo.read("I0001") + "owner: bob\n");
    writeFileSync(repo.path(".git/index.lock"), ""); // what a killed commit leaves
    const head = repo.git("rev-parse", "HEAD");
    const r = spawnSync(process.execPath, [CLI, "plan", "commit", "--repo", repo.root], { encoding: "utf8" });
    expect(r.status).toBe(15);
    expect(refusalOf(r)).toContain("check that no git process is running in this repository (ps), then remove .git/index.lock");
    expect(refusalOf(r)).not.toMatch(/fatal:|Another git process seems/);
    expect(repo.git("rev-parse", "HEAD")).toBe(head);
    expect(readFileSync(repo.path(".git/index.lock"), "utf8")).toBe("");
  });
});
