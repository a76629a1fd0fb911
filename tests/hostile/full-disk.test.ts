import { spawnSync } from "node:child_process";
import Database from "better-sqlite3";
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureCliBuilt, spawnCli, type CliRun, refusalOf } from "../support/processes";
import { LEDGER, cleanupRepos, makePlanRepo, tempDir, type PlanRepo } from "../support/repo";

// A disk that fills up mid-write, as the real `cockpit` command meets it: the command runs under
// a file size limit (RLIMIT_FSIZE, `ulimit -f`), so a write past it fails with EFBIG after
// writing what fits, as a full disk does. A failed ledger append leaves the ledger as it was; a
// ledger torn earlier gets its newline before the next line, which every reader then sees whole;
// the lock's and the record's temporary files go with their failure; a record is never torn.

afterAll(cleanupRepos);
beforeAll(() => ensureCliBuilt());

/** The byte limit `ulimit -f blocks` sets in sh (its block is 512 bytes in dash, 1024 in bash). */
function fileLimit(blocks: number): number {
  const r = spawnSync("sh", ["-c", `ulimit -f ${blocks}; cat /proc/self/limits`], { encoding: "utf8" });
  const m = /^Max file size\s+(\d+)/m.exec(r.stdout);
  if (!m) throw new Error(`no file size limit in /proc/self/limits: ${r.stdout}${r.stderr}`);
  return Number(m[1]);
}

/** `cockpit plan <args>` under `ulimit -f blocks`; its output goes to pipes, which the limit spares. */
function limitedCli(blocks: number, args: string[]): Promise<CliRun> {
  return spawnCli(args, { wrap: ["sh", "-c", `ulimit -f ${blocks}; exec "$0" "$@"`] });
}

/** A committed plan whose `.ai/local` git ignores. */
function plan(extra = ""): PlanRepo {
  return makePlanRepo({ issues: [{ id: "I0001", extra }, { id: "I0002" }], files: { ".gitignore": ".ai/local\n" }, commit: true });
}

/** What a write left in the state folder, the sessions' store aside (a start opens a session before its record is written). */
const stateFiles = (repo: PlanRepo) =>
  readdirSync(repo.path(".ai/local/state"))
    .filter((f) => !/^cockpit\.db(-wal|-shm|-journal)?$/.test(f))
    .sort();
const issueFolder = (repo: PlanRepo) => readdirSync(repo.path(".ai/repo/project/issues")).sort();

describe("a ledger append that fails", () => {
  it("cuts the ledger back to its bytes before the append, and says the record was written", async () => {
    // Room for the sessions' store (a start opens a session before its record is written), not for the ledger's next line.
    const blocks = 512;
    const limit = fileLimit(blocks);
    const repo = plan();
    // One whole line, then a line that leaves room for 20 bytes of the next one.
    const first = `{"ts":"2026-10-20T09:00:00Z","event":"plan_start","head":"NONE","branch":"main","by":"tests","issue":"I0002"}\n`;
    const pad = `{"pad":"${"x".repeat(limit - 20 - first.length - 11)}"}\n`;
    repo.write(LEDGER, first + pad);
    const before = repo.bytes(LEDGER)!;
    expect(before.length).toBe(limit - 20);

    const r = await limitedCli(blocks, ["start", "I0001", "--repo", repo.root]);
    expect(r.code, r.stderr).toBe(15);
    expect(refusalOf(r)).toMatch(/the record was written but its ledger line was not \(EFBIG/);
    expect(repo.bytes(LEDGER)!.equals(before)).toBe(true);
    expect(repo.read("I0001")).toMatch(/^started_at: /m);

    // The next move, with room, is one whole line after the ones before.
    const next = await spawnCli(["verify", "I0001", "--repo", repo.root]);
    expect(next.code, next.stderr).toBe(0);
    expect(repo.ledger()!.startsWith(first + pad)).toBe(true);
    expect(repo.ledgerLines().map((l) => l.event ?? "pad")).toEqual(["plan_start", "pad", "plan_verify"]);
  });
});

describe("a ledger torn by an earlier failure", () => {
  it("gets its newline first: the next move is a whole line, in the history and the commit message, and the torn line is named", async () => {
    const repo = plan();
    const torn = `{"ts":"2026-10-20T09:00:00Z","event":"plan_start","head":"NONE","bra`;
    repo.write(LEDGER, torn);
    const r = await spawnCli(["start", "I0001", "--repo", repo.root]);
    expect(r.code, r.stderr).toBe(0);
    const lines = repo.ledger()!.split("\n");
    expect(lines[0]).toBe(torn);
    expect(JSON.parse(lines[1])).toMatchObject({ event: "plan_start", issue: "I0001" });
    expect(lines.slice(2)).toEqual([""]);

    const history = await spawnCli(["history", "I0001", "--json", "--repo", repo.root]);
    expect(history.code, history.stderr).toBe(0);
    const entries = (JSON.parse(history.stdout) as { entries: { uncommitted: boolean; event: string | null }[] }).entries;
    expect(entries.filter((e) => e.uncommitted).map((e) => e.event)).toEqual(["plan_start"]);
    expect(refusalOf(history)).toContain(`${LEDGER}, line 1, is not a whole JSON line; it is skipped`);

    const commit = await spawnCli(["commit", "--dry-run", "--json", "--repo", repo.root]);
    expect(commit.code, commit.stderr).toBe(0);
    // The move is signed by who acted (the clone's git identity), never the program's name.
    expect((JSON.parse(commit.stdout) as { message: string }).message).toMatch(/^- I0001: start \[(?!cockpit\/)[^\]]+\]$/m);
    expect(refusalOf(commit)).toContain(`${LEDGER}, line 1, is not a whole JSON line; it is skipped`);
  });
});

describe("temporary files go with their failure", () => {
  it("the lock's temporary file, when not even the lock fits", async () => {
    const repo = plan();
    const before = repo.read("I0001");
    const r = await limitedCli(0, ["start", "I0001", "--repo", repo.root]);
    expect(stateFiles(repo)).toEqual([]);
    expect(r.code, r.stderr).toBe(15);
    expect(refusalOf(r)).toContain("the plan lock cannot be taken (EFBIG); is the disk full?");
    expect(repo.read("I0001")).toBe(before);
  });

  it("the record's temporary file, and the record keeps its bytes (never torn)", async () => {
    // Room for the sessions' store, not for the record once stamped.
    const blocks = 512;
    const limit = fileLimit(blocks);
    // The record fits now and no longer once the stamp, its seal and updated_at are added.
    const base = plan().read("I0001").length;
    const repo = plan(`# ${"n".repeat(limit - base - 20)}\n`);
    const before = repo.read("I0001");
    expect(before.length).toBeLessThan(limit);
    const files = issueFolder(repo);
    const r = await limitedCli(blocks, ["start", "I0001", "--repo", repo.root]);
    expect(r.code, r.stderr).toBe(15);
    expect(refusalOf(r)).toContain("a record could not be written (EFBIG: file too large, write); is the disk full?");
    expect(repo.read("I0001")).toBe(before);
    expect(issueFolder(repo)).toEqual(files);
    expect(stateFiles(repo)).toEqual([]);
    // The session the start opened went with it: nobody holds I0001.
    const store = new Database(repo.path(".ai/local/state/cockpit.db"), { readonly: true });
    expect(store.prepare("SELECT count(*) AS n FROM sessions").get()).toEqual({ n: 0 });
    store.close();
    expect(repo.ledger()).toBeUndefined();
  });
});

describe("an import whose records do not fit", () => {
  it("writes no record, not even a torn one, and leaves no temporary file (each file written whole or not at all)", async () => {
    const blocks = 2;
    const limit = fileLimit(blocks);
    const repo = plan();
    // One issue whose record is past the limit: a single write() takes what fits and says so.
    const source = join(tempDir("cockpit-import-source-"), "issues.jsonl");
    const issue = { id: "bd-big", title: "A big one", description: "d".repeat(limit * 3), status: "open", priority: 1, issue_type: "task", created_at: "2026-10-01T10:00:00Z" };
    writeFileSync(source, JSON.stringify(issue) + "\n");
    const files = issueFolder(repo);
    const r = await limitedCli(blocks, ["import", "beads", source, "--repo", repo.root]);
    expect(r.code, r.stderr).toBe(15);
    expect(refusalOf(r)).toContain("EFBIG");
    expect(issueFolder(repo)).toEqual(files);
    expect(stateFiles(repo)).toEqual([]);
  });
});
