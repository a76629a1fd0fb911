import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { AT, AT2, LEDGER, cleanupRepos, makePlanRepo, tempDir } from "@/tests/support/repo";
import { COCKPIT_VERSION } from "../version";
import { eventProblem, PLAN_EVENTS } from "../plan/events";
import { gitBranch, gitHead, gitWhere } from "./git";
import { appendLedger, checkEvent, envelope, formatLedgerLine, readLedger } from "./ledger";
import { recordEvidence, transition } from "./transition";

// plan-semantics §6.4: one JSON object per line, keys ts, event, head, branch, by, then the payload;
// head and branch from real git; validated before anything is written.

afterAll(cleanupRepos);

const PACKAGE_VERSION = (JSON.parse(readFileSync(join(__dirname, "..", "..", "package.json"), "utf8")) as { version: string }).version;
const BY = `cockpit/${PACKAGE_VERSION}`;
const ENVELOPE = ["ts", "event", "head", "branch", "by"];

describe("formatLedgerLine", () => {
  it("keys in the order ts, event, head, branch, by, then the payload's, all JSON strings", () => {
    const text = formatLedgerLine({ ts: AT, event: "plan_start", head: "NONE", branch: "main", by: BY, payload: { issue: "I0001" } });
    expect(text).toBe(`{"ts":"${AT}","event":"plan_start","head":"NONE","branch":"main","by":"${BY}","issue":"I0001"}`);
  });

  it("escapes quote, backslash, newline, CR, tab, and other controls as \\u00XX; the rest verbatim", () => {
    const text = formatLedgerLine({
      ts: AT,
      event: "plan_evidence",
      head: "NONE",
      branch: "feature/\"x\"",
      by: BY,
      payload: { issue: "I0001", covers: "a\\b\nc\rd\te\u0001f\u001fé🙂", type: "test" },
    });
    expect(text).toBe(
      `{"ts":"${AT}","event":"plan_evidence","head":"NONE","branch":"feature/\\"x\\"","by":"${BY}","issue":"I0001","covers":"a\\\\b\\nc\\rd\\te\\u0001f\\u001fé🙂","type":"test"}`,
    );
    expect(JSON.parse(text)).toMatchObject({ branch: 'feature/"x"', covers: "a\\b\nc\rd\te\u0001f\u001fé🙂" });
  });
});

describe("eventProblem / checkEvent: the event vocabulary", () => {
  it("declares the plan events with their required payload keys", () => {
    expect(PLAN_EVENTS).toMatchObject({
      plan_start: ["issue"],
      plan_verify: ["issue"],
      plan_done: ["issue"],
      plan_evidence: ["issue", "covers", "type"],
    });
  });

  it("accepts a line that fits", () => {
    expect(eventProblem("plan_start", { issue: "I0001" })).toBeUndefined();
    expect(eventProblem("plan_evidence", { issue: "I0001", covers: "a", type: "test" })).toBeUndefined();
  });

  it("refuses an unknown event, naming the known ones", () => {
    expect(eventProblem("plan_teleport", { issue: "I0001" })).toBe(
      `unregistered event 'plan_teleport'; declare it in lib/plan/events.ts or use one of: ${Object.keys(PLAN_EVENTS).join(", ")}`,
    );
    expect(eventProblem("", {})).toMatch(/^unregistered event ''/);
  });

  // BUG (see the report): PLAN_EVENTS is a plain object, so inherited names are looked up on its
  // prototype; eventProblem then throws a TypeError instead of naming the unregistered event.
  it.each(["constructor", "toString", "__proto__", "hasOwnProperty"])("an inherited property name %j is an unregistered event", (event) => {
    let problem: string | undefined;
    expect(() => (problem = eventProblem(event, { issue: "I0001" }))).not.toThrow();
    expect(problem).toMatch(new RegExp(`^unregistered event '${event}'`));
  });

  it("refuses a missing required field, the first missing one named", () => {
    expect(eventProblem("plan_start", {})).toBe("event 'plan_start' is missing the required field 'issue'");
    expect(eventProblem("plan_evidence", { issue: "I0001", type: "test" })).toBe("event 'plan_evidence' is missing the required field 'covers'");
    expect(eventProblem("plan_evidence", { issue: "I0001", covers: "a" })).toBe("event 'plan_evidence' is missing the required field 'type'");
  });

  it("refuses a payload that repeats an envelope key", () => {
    for (const k of ["ts", "event", "head", "branch", "by", "session"]) {
      expect(eventProblem("plan_start", { issue: "I0001", [k]: "x" })).toBe(`event 'plan_start' repeats the envelope key '${k}' in its payload`);
    }
  });

  it("checkEvent throws the problem", () => {
    expect(() => checkEvent("plan_done", {})).toThrow("event 'plan_done' is missing the required field 'issue'");
    expect(() => checkEvent("plan_done", { issue: "I0001" })).not.toThrow();
  });
});

describe("appendLedger", () => {
  it("creates .ai/local/state with the file on first write and appends one line per call", () => {
    const repo = makePlanRepo();
    const line = { ts: AT, event: "plan_start", head: "NONE", branch: "main", by: BY, payload: { issue: "I0001" } };
    appendLedger(repo.root, line);
    appendLedger(repo.root, { ...line, ts: AT2, event: "plan_verify" });
    expect(repo.ledger()).toBe(formatLedgerLine(line) + "\n" + formatLedgerLine({ ...line, ts: AT2, event: "plan_verify" }) + "\n");
  });

  it("validates before writing: an invalid line creates nothing", () => {
    const repo = makePlanRepo();
    expect(() => appendLedger(repo.root, { ts: AT, event: "nope", head: "NONE", branch: "main", by: BY, payload: {} })).toThrow(/^unregistered event 'nope'/);
    expect(() => appendLedger(repo.root, { ts: AT, event: "plan_evidence", head: "NONE", branch: "main", by: BY, payload: { issue: "I1" } })).toThrow(
      "event 'plan_evidence' is missing the required field 'covers'",
    );
    expect(existsSync(repo.path(LEDGER))).toBe(false);
    expect(existsSync(repo.path(".ai/local"))).toBe(false);
  });
});

describe("whole ledger lines", () => {
  const line = { ts: AT, event: "plan_start", head: "NONE", branch: "main", by: BY, payload: { issue: "I0001" } };

  it("a torn last line gets its newline before the next line, which stays whole", () => {
    const repo = makePlanRepo();
    repo.write(LEDGER, `${formatLedgerLine(line)}\n{"ts":"${AT}","event":"plan_sta`);
    appendLedger(repo.root, { ...line, ts: AT2 });
    const lines = repo.ledger()!.split("\n");
    expect(lines).toEqual([formatLedgerLine(line), `{"ts":"${AT}","event":"plan_sta`, formatLedgerLine({ ...line, ts: AT2 }), ""]);
  });

  it("readLedger skips a line that is not a JSON object, naming its line, and keeps the rest", () => {
    const repo = makePlanRepo();
    repo.write(LEDGER, `${formatLedgerLine(line)}\n{"torn":\n[1]\n\n${formatLedgerLine({ ...line, ts: AT2 })}`);
    const warn = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const read = readLedger(repo.root);
    expect(read.entries.map((e) => e.ts)).toEqual([AT, AT2]);
    expect(read.skipped).toBe(2);
    expect(warn.mock.calls.map((c) => c[0])).toEqual([
      `[cockpit] ${LEDGER}, line 2, is not a whole JSON line; it is skipped`,
      `[cockpit] ${LEDGER}, line 3, is not a whole JSON line; it is skipped`,
    ]);
    // Once per line and process (a server reads it on every history), then from a byte offset (the
    // served tail), where a line is named by where it starts.
    expect(readLedger(repo.root).skipped).toBe(2);
    expect(warn).toHaveBeenCalledTimes(2);
    const other = makePlanRepo();
    other.write(LEDGER, `${formatLedgerLine(line)}\n{"torn":\n`);
    const start = formatLedgerLine(line).length + 1;
    expect(readLedger(other.root, start).skipped).toBe(1);
    expect(warn).toHaveBeenLastCalledWith(`[cockpit] ${LEDGER}, the line at byte ${start}, is not a whole JSON line; it is skipped`);
    warn.mockRestore();
  });

  it("a ledger that is a link is not appended to, nor read", () => {
    const repo = makePlanRepo();
    const outside = join(tempDir("cockpit-outside-"), "profile");
    writeFileSync(outside, `${formatLedgerLine(line)}\n`);
    mkdirSync(repo.path(".ai/local/state"), { recursive: true });
    symlinkSync(outside, repo.path(LEDGER));
    expect(() => appendLedger(repo.root, line)).toThrow(/symbolic link/);
    const warn = vi.spyOn(console, "error").mockImplementation(() => undefined);
    expect(readLedger(repo.root).entries).toEqual([]);
    expect(warn.mock.calls).toEqual([[expect.stringMatching(/^\[cockpit\] \.ai\/local\/state\/ledger\.jsonl is a symbolic link .*; it is not read$/)]]);
    warn.mockRestore();
    expect(readFileSync(outside, "utf8")).toBe(`${formatLedgerLine(line)}\n`);
  });
});

describe("envelope: head and branch from real git", () => {
  it("NONE before any commit; the branch is the unborn branch's name", async () => {
    const repo = makePlanRepo();
    expect(await envelope(repo.root, AT, BY)).toEqual({ ts: AT, head: "NONE", branch: "main", by: BY });
  });

  it("head = git rev-parse HEAD after a commit; branch follows checkout; DETACHED after checkout --detach", async () => {
    const repo = makePlanRepo({ issues: [{ id: "I0001" }], commit: true });
    const head = repo.git("rev-parse", "HEAD");
    expect(head).toMatch(/^[0-9a-f]{40}$/);
    expect(await gitHead(repo.root)).toBe(head);
    expect(await gitBranch(repo.root)).toBe("main");
    repo.git("checkout", "-q", "-b", "feature/x");
    expect(await envelope(repo.root, AT, BY)).toEqual({ ts: AT, head, branch: "feature/x", by: BY });
    repo.git("checkout", "-q", "--detach");
    expect(await envelope(repo.root, AT, BY)).toEqual({ ts: AT, head, branch: "DETACHED", by: BY });
  });

  it("outside any repository: NONE and DETACHED", async () => {
    const dir = tempDir("cockpit-nogit-");
    expect(await gitHead(dir)).toBe("NONE");
    expect(await gitBranch(dir)).toBe("DETACHED");
    expect(await gitWhere(dir)).toEqual({ head: "NONE", branch: "DETACHED" });
  });

  it("the remembered head and branch follow every commit, checkout, detach, pack and reset, asked one after another", async () => {
    const repo = makePlanRepo({ issues: [{ id: "I0001" }] });
    const asGit = async () => ({ head: await gitHead(repo.root), branch: await gitBranch(repo.root) });
    const steps: (() => void)[] = [
      () => undefined,
      () => repo.git("add", "-A"),
      () => repo.git("-c", "user.name=t", "-c", "user.email=t@cockpit.invalid", "commit", "-qm", "one"),
      () => repo.git("-c", "user.name=t", "-c", "user.email=t@cockpit.invalid", "commit", "-q", "--allow-empty", "-m", "two"),
      () => repo.git("checkout", "-q", "-b", "feature/x"),
      () => repo.git("-c", "user.name=t", "-c", "user.email=t@cockpit.invalid", "commit", "-q", "--allow-empty", "-m", "three"),
      () => repo.git("pack-refs", "--all"),
      () => repo.git("checkout", "-q", "main"),
      () => repo.git("reset", "-q", "--hard", "feature/x"),
      () => repo.git("checkout", "-q", "--detach", "HEAD~1"),
      () => repo.git("checkout", "-q", "feature/x"),
    ];
    const seen = new Set<string>();
    for (const step of steps) {
      step();
      const expected = await asGit();
      seen.add(JSON.stringify(expected));
      expect(await gitWhere(repo.root)).toEqual(expected);
      expect(await gitWhere(repo.root)).toEqual(expected);
    }
    expect(seen.size).toBeGreaterThanOrEqual(5);
  });
});

describe("the lines the transitions write", () => {
  it("start before any commit: NONE, main, cockpit/<package.json version>, issue", async () => {
    const repo = makePlanRepo({ issues: [{ id: "I0001" }] });
    await transition(repo.root, "I0001", "start", { now: () => AT });
    expect(COCKPIT_VERSION).toBe(PACKAGE_VERSION);
    expect(repo.ledger()).toBe(`{"ts":"${AT}","event":"plan_start","head":"NONE","branch":"main","by":"${BY}","issue":"I0001"}\n`);
  });

  it("after a commit: the real HEAD; every move one line, keys in order; evidence carries issue, covers, type", async () => {
    const repo = makePlanRepo({ issues: [{ id: "I0001" }], commit: true });
    const head = repo.git("rev-parse", "HEAD");
    await transition(repo.root, "I0001", "start", { now: () => AT });
    await transition(repo.root, "I0001", "verify", { now: () => AT });
    await recordEvidence(repo.root, { record: "I0001", covers: "proof", type: "ci", command: "gh run view" }, { now: () => AT2 });
    await transition(repo.root, "I0001", "done", { now: () => AT2 });
    const lines = repo.ledgerLines();
    expect(lines.map((l) => Object.keys(l))).toEqual([
      [...ENVELOPE, "issue"],
      [...ENVELOPE, "issue"],
      [...ENVELOPE, "issue", "covers", "type"],
      [...ENVELOPE, "issue"],
    ]);
    expect(lines).toEqual([
      { ts: AT, event: "plan_start", head, branch: "main", by: BY, issue: "I0001" },
      { ts: AT, event: "plan_verify", head, branch: "main", by: BY, issue: "I0001" },
      { ts: AT2, event: "plan_evidence", head, branch: "main", by: BY, issue: "I0001", covers: "proof", type: "ci" },
      { ts: AT2, event: "plan_done", head, branch: "main", by: BY, issue: "I0001" },
    ]);
  });

  it("a detached HEAD writes DETACHED; a new commit is picked up by the next line", async () => {
    const repo = makePlanRepo({ issues: [{ id: "I0001" }, { id: "I0002" }], commit: true });
    repo.git("checkout", "-q", "--detach");
    await transition(repo.root, "I0001", "start", { now: () => AT });
    repo.git("commit", "-q", "--allow-empty", "-m", "second");
    const second = repo.git("rev-parse", "HEAD");
    await transition(repo.root, "I0002", "start", { now: () => AT });
    const [a, b] = repo.ledgerLines();
    expect(a.branch).toBe("DETACHED");
    expect(b).toMatchObject({ head: second, branch: "DETACHED", issue: "I0002" });
  });

  it("a caller-supplied `by` is written as given", async () => {
    const repo = makePlanRepo({ issues: [{ id: "I0001" }] });
    await transition(repo.root, "I0001", "start", { now: () => AT, by: "agent/7" });
    expect(repo.ledgerLines()[0].by).toBe("agent/7");
  });
});
