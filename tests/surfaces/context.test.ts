import { appendFileSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { findCapability } from "../../lib/capabilities/index";
import { RecordCache, loadRecords } from "../../lib/repo/load";
import { withPlanLock } from "../../lib/repo/lock";
import { transition } from "../../lib/repo/transition";
import { REVALIDATE_MS, contextFor, currentPlan, derivationsOf, fullWalksOf, ioSettled, settledState, walksOf } from "../../lib/server/state";
import { derivePlan } from "../../lib/plan/derive/index";
import { invoke } from "../../lib/surfaces/invoke";
import { ISSUES, LEDGER, cleanupRepos, issueYaml, makePlanRepo } from "../support/repo";

// A long-running surface answers an unchanged plan from memory, on its watchers' word. These tests
// hold it to the promise that makes that safe: a change made before a request is seen by it.

afterEach(() => {
  vi.useRealTimers();
  cleanupRepos();
});

/** What a surface waits for before it reads: the file events already queued are handled. */
const nextTurn = ioSettled;

const statusOf = (repo: string, id: string) => currentPlan(repo).issues.find((i) => i.id === id)?.status;

describe("the served plan follows the files", () => {
  it("an unchanged plan is the same object; an edit on disk shows on the next turn", async () => {
    const repo = makePlanRepo({ issues: [{ id: "I1" }, { id: "I2", depends_on: ["I1"] }] });
    const first = currentPlan(repo.root);
    const walks = walksOf(repo.root);
    await nextTurn();
    expect(currentPlan(repo.root)).toBe(first);
    expect(statusOf(repo.root, "I2")).toBe("BLOCKED");
    expect(walksOf(repo.root)).toBe(walks);

    repo.writeIssue("I2", issueYaml({ id: "I2" }));
    await nextTurn();
    expect(currentPlan(repo.root)).not.toBe(first);
    expect(statusOf(repo.root, "I2")).toBe("READY");
  });

  it("edits of the same size in quick succession each show (a file's stat cannot tell them apart)", async () => {
    const repo = makePlanRepo({ issues: [{ id: "I1" }] });
    // Many rounds, so that some land within one tick of the file system's clock.
    for (let round = 0; round < 100; round++) {
      const title = round % 2 === 0 ? "first edit" : "other edit";
      repo.writeIssue("I1", issueYaml({ id: "I1" }).replace(/^title: .*$/m, `title: ${title}`));
      await nextTurn();
      expect(currentPlan(repo.root).issues[0].title).toBe(title);
    }
  });

  it("a new file, a removed file and a replaced issues folder all show", async () => {
    const repo = makePlanRepo({ issues: [{ id: "I1" }] });
    expect(currentPlan(repo.root).issues.map((i) => i.id)).toEqual(["I1"]);

    repo.writeIssue("I2", issueYaml({ id: "I2" }));
    await nextTurn();
    expect(currentPlan(repo.root).issues.map((i) => i.id)).toEqual(["I1", "I2"]);

    rmSync(repo.issuePath("I1"));
    await nextTurn();
    expect(currentPlan(repo.root).issues.map((i) => i.id)).toEqual(["I2"]);

    // The folder the watcher watched goes away; a new one takes its place.
    renameSync(repo.path(ISSUES), repo.path(`${ISSUES}-old`));
    mkdirSync(repo.path(ISSUES));
    repo.writeIssue("I3", issueYaml({ id: "I3" }));
    await nextTurn();
    expect(currentPlan(repo.root).issues.map((i) => i.id)).toEqual(["I3"]);
    repo.writeIssue("I4", issueYaml({ id: "I4" }));
    await nextTurn();
    expect(currentPlan(repo.root).issues.map((i) => i.id)).toEqual(["I3", "I4"]);
  });

  it("settledState, as the surfaces read, sees an edit made just before it was called", async () => {
    const repo = makePlanRepo({ issues: [{ id: "I1" }, { id: "I2", depends_on: ["I1"] }] });
    expect((await settledState(repo.root)).plan.issues[1].status).toBe("BLOCKED");
    for (let round = 0; round < 50; round++) {
      const blocked = round % 2 === 1;
      repo.writeIssue("I2", issueYaml({ id: "I2", depends_on: blocked ? ["I1"] : [] }));
      expect((await settledState(repo.root)).plan.issues[1].status).toBe(blocked ? "BLOCKED" : "READY");
    }
  });

  it("two repositories served by one process, edited in turn, each follow their own files", async () => {
    const a = makePlanRepo({ issues: [{ id: "I1" }, { id: "I2", depends_on: ["I1"] }] });
    const b = makePlanRepo({ issues: [{ id: "I1" }, { id: "I2" }] });
    expect(statusOf(a.root, "I2")).toBe("BLOCKED");
    expect(statusOf(b.root, "I2")).toBe("READY");
    for (let round = 0; round < 4; round++) {
      const blocked = round % 2 === 0;
      const [repo, other] = round < 2 ? [b, a] : [a, b];
      repo.writeIssue("I2", issueYaml({ id: "I2", depends_on: blocked ? ["I1"] : [] }));
      await nextTurn();
      expect(statusOf(repo.root, "I2")).toBe(blocked ? "BLOCKED" : "READY");
      expect(statusOf(other.root, "I2")).toBe(round < 2 ? "BLOCKED" : "READY");
    }
  });

  it("a command run in this process shows at once, before its file events are handled", async () => {
    const repo = makePlanRepo({ issues: [{ id: "I1" }] });
    expect(statusOf(repo.root, "I1")).toBe("READY");
    const result = await invoke(findCapability("plan.transition")!, contextFor(repo.root), { issue: "I1", transition: "start" });
    expect(result.ok).toBe(true);
    // No turn of the event loop: only the command's own notice can make this true.
    expect(statusOf(repo.root, "I1")).toBe("ACTIVE");
  });

  it("without any event, the files are looked at again after REVALIDATE_MS", async () => {
    const repo = makePlanRepo({ issues: [{ id: "I1" }] });
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    const first = currentPlan(repo.root);
    const walks = walksOf(repo.root);
    expect(currentPlan(repo.root)).toBe(first);
    expect(walksOf(repo.root)).toBe(walks);
    vi.setSystemTime(Date.now() + REVALIDATE_MS);
    // Nothing changed: the walk finds the same files, and the plan stays the same object.
    expect(currentPlan(repo.root)).toBe(first);
    expect(walksOf(repo.root)).toBe(walks + 1);
  });
});

describe("a look reads only the files the watchers named", () => {
  it("an edit is seen by a look at that one file; a new and a removed file too", async () => {
    const repo = makePlanRepo({ issues: [{ id: "I1" }, { id: "I2", depends_on: ["I1"] }] });
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    expect(statusOf(repo.root, "I2")).toBe("BLOCKED");
    await nextTurn(); // the watchers, armed by that first look, are polled from the next turn on
    const full = fullWalksOf(repo.root);
    const walks = walksOf(repo.root);

    repo.writeIssue("I2", issueYaml({ id: "I2" }));
    await nextTurn();
    expect(statusOf(repo.root, "I2")).toBe("READY");
    repo.writeIssue("I3", issueYaml({ id: "I3", depends_on: ["I2"] }));
    await nextTurn();
    expect(statusOf(repo.root, "I3")).toBe("BLOCKED");
    rmSync(repo.issuePath("I1"));
    await nextTurn();
    expect(currentPlan(repo.root).issues.map((i) => i.id)).toEqual(["I2", "I3"]);
    const unreadable = () => currentPlan(repo.root).findings.filter((f) => f.code === "unreadable_record").map((f) => f.subject);
    repo.writeIssue("I3", "id: I3\ntitle: [unclosed\n");
    await nextTurn();
    expect(unreadable()).toEqual(["I3"]);
    repo.writeIssue("I3", issueYaml({ id: "I3" }));
    await nextTurn();
    expect(unreadable()).toEqual([]);
    expect(statusOf(repo.root, "I3")).toBe("READY");
    expect(walksOf(repo.root)).toBe(walks + 5);
    expect(fullWalksOf(repo.root)).toBe(full);
  });

  it("a folder that holds a link is looked at whole: an edit of the link's target shows under the link's name", async () => {
    const repo = makePlanRepo({ issues: [{ id: "I1" }] });
    writeFileSync(repo.path(`${ISSUES}/target.txt`), issueYaml({ id: "I2" }));
    symlinkSync("target.txt", repo.issuePath("I2"));
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    expect(currentPlan(repo.root).issues.find((i) => i.id === "I2")?.title).toBe(issueYaml({ id: "I2" }).match(/^title: (.*)$/m)?.[1]);
    await nextTurn();
    const full = fullWalksOf(repo.root);
    writeFileSync(repo.path(`${ISSUES}/target.txt`), issueYaml({ id: "I2" }).replace(/^title: .*$/m, "title: through the link"));
    await nextTurn();
    expect(currentPlan(repo.root).issues.find((i) => i.id === "I2")?.title).toBe("through the link");
    expect(fullWalksOf(repo.root)).toBe(full + 1);
  });
});

describe("moves in a long-running surface", () => {
  const start = (root: string, issue: string) => invoke(findCapability("plan.transition")!, contextFor(root), { issue, transition: "start" });
  const claim = (root: string) => invoke(findCapability("plan.claim")!, contextFor(root), {});

  it("one move after another looks only at the file the last one wrote", async () => {
    const repo = makePlanRepo({ issues: ["I1", "I2", "I3", "I4", "I5"].map((id) => ({ id })) });
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    const first = await claim(repo.root);
    expect(first.ok).toBe(true);
    const full = fullWalksOf(repo.root);
    const claimed = [(first as { value: { issue: string } }).value.issue];
    for (let k = 0; k < 4; k++) {
      const r = await claim(repo.root);
      expect(r.ok).toBe(true);
      claimed.push((r as { value: { issue: string } }).value.issue);
    }
    expect(new Set(claimed).size).toBe(5);
    expect(fullWalksOf(repo.root)).toBe(full);
    expect(currentPlan(repo.root).issues.every((i) => i.status === "ACTIVE")).toBe(true);
  });

  it("the plan a move derived for its answer is the one served after it, while the files hold what it wrote: one derivation per move", async () => {
    const repo = makePlanRepo({ issues: [{ id: "I1" }, { id: "I2", depends_on: ["I1"] }, { id: "I3" }] });
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    currentPlan(repo.root);
    for (const id of ["I1", "I3"]) {
      const before = derivationsOf(repo.root);
      expect((await start(repo.root, id)).ok).toBe(true);
      const served = currentPlan(repo.root);
      expect(derivationsOf(repo.root)).toBe(before + 1);
      expect(served).toEqual(derivePlan(loadRecords(repo.root)));
      expect(served.issues.find((i) => i.id === id)?.status).toBe("ACTIVE");
    }
  });

  it("a record edited by hand right after a move is served as its file has it, not as the move derived it", async () => {
    const repo = makePlanRepo({ issues: [{ id: "I1" }, { id: "I2" }] });
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    currentPlan(repo.root);
    expect((await start(repo.root, "I1")).ok).toBe(true);
    const text = readFileSync(repo.issuePath("I1"), "utf8");
    repo.writeIssue("I1", text.replace(/^title: .*$/m, "title: edited by hand"));
    await nextTurn();
    const served = currentPlan(repo.root);
    expect(served.issues.find((i) => i.id === "I1")?.title).toBe("edited by hand");
    expect(served).toEqual(derivePlan(loadRecords(repo.root)));
  });

  it("an edit by hand between two moves is seen by the second (its guard refuses)", async () => {
    const repo = makePlanRepo({ issues: [{ id: "I1" }, { id: "I2" }, { id: "I3" }] });
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    expect((await start(repo.root, "I1")).ok).toBe(true);
    repo.writeIssue("I2", issueYaml({ id: "I2", depends_on: ["I3"] }));
    const refused = await start(repo.root, "I2");
    expect(refused).toEqual({ ok: false, error: { code: "refused", message: expect.stringContaining("I2 is BLOCKED, not READY") } });
  });

  it("another writer's moves are seen by the next move, through the records their ledger lines name", async () => {
    const repo = makePlanRepo({ issues: ["I1", "I2", "I3", "I4"].map((id) => ({ id })) });
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    expect((await start(repo.root, "I1")).ok).toBe(true);
    const full = fullWalksOf(repo.root);
    // Another process writes the same way: through the plan lock, with its own cache.
    await transition(repo.root, "I2", "start", { cache: new RecordCache() });
    await transition(repo.root, "I3", "start", { cache: new RecordCache() });
    const r = await claim(repo.root);
    expect(r).toMatchObject({ ok: true, value: { issue: "I4", from: "READY", to: "ACTIVE" } });
    expect(fullWalksOf(repo.root)).toBe(full);
  });

  it("a look at every file that is owed is taken before the move waits for the lock; an edit made during the wait is still seen", async () => {
    const repo = makePlanRepo({ issues: ["I1", "I2", "I3"].map((id) => ({ id })) });
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    expect((await start(repo.root, "I1")).ok).toBe(true);
    await nextTurn();
    const full = fullWalksOf(repo.root);
    vi.setSystemTime(Date.now() + REVALIDATE_MS);
    let release!: () => void;
    const held = withPlanLock(repo.root, "tests/holder", () => new Promise<void>((r) => (release = r)));
    const move = start(repo.root, "I2");
    // The look it owed is taken while another writer holds the lock.
    await vi.waitFor(() => expect(fullWalksOf(repo.root)).toBe(full + 1));
    // A long wait: the time bound counts from the ask, so the lock adds no second look.
    vi.setSystemTime(Date.now() + REVALIDATE_MS);
    repo.writeIssue("I2", issueYaml({ id: "I2", depends_on: ["I3"] }));
    await nextTurn();
    release();
    await held;
    expect(await move).toEqual({ ok: false, error: { code: "refused", message: expect.stringContaining("I2 is BLOCKED, not READY") } });
    expect(fullWalksOf(repo.root)).toBe(full + 1);
  });

  it("a torn line in the tail is skipped with a warning naming it, never glued to the next writer's line, whose move is seen", async () => {
    const repo = makePlanRepo({ issues: ["I1", "I2", "I3"].map((id) => ({ id })) });
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    expect((await start(repo.root, "I1")).ok).toBe(true);
    const full = fullWalksOf(repo.root);
    // A writer that failed midway (a full disk) left a fragment without its newline; then another
    // writer starts I2 through the lock, as a second process does.
    const at = statSync(repo.path(LEDGER)).size;
    const torn = `{"ts":"2026-10-20T09:00:00Z","event":"plan_start","head":"NONE","issue":"I3","bra`;
    appendFileSync(repo.path(LEDGER), torn);
    await transition(repo.root, "I2", "start", { cache: new RecordCache() });
    const warned = vi.spyOn(console, "error").mockImplementation(() => undefined);
    // This server's next move reads the tail: the fragment is skipped and named, I2's line is read whole.
    expect(await start(repo.root, "I2")).toEqual({ ok: false, error: { code: "refused", message: expect.stringContaining("I2 is ACTIVE, not READY") } });
    expect(warned).toHaveBeenCalledWith(`[cockpit] ${LEDGER}, the line at byte ${at}, is not a whole JSON line; it is skipped`);
    expect(fullWalksOf(repo.root)).toBe(full + 1);
    expect((await start(repo.root, "I3")).ok).toBe(true);
    const lines = readFileSync(repo.path(LEDGER), "utf8").slice(at).split("\n");
    expect(lines[0]).toBe(torn);
    expect(lines.slice(1, -1).map((l) => JSON.parse(l) as { event: string; issue: string }).map((l) => `${l.event} ${l.issue}`)).toEqual(["plan_start I2", "plan_start I3"]);
    expect(lines.at(-1)).toBe("");
  });

  it("a ledger cut short, or a line that names no record, means every file is looked at", async () => {
    const repo = makePlanRepo({ issues: ["I1", "I2", "I3"].map((id) => ({ id })) });
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    expect((await start(repo.root, "I1")).ok).toBe(true);
    const full = fullWalksOf(repo.root);
    appendFileSync(repo.path(LEDGER), "not a ledger line\n");
    expect((await start(repo.root, "I2")).ok).toBe(true);
    expect(fullWalksOf(repo.root)).toBe(full + 1);
    writeFileSync(repo.path(LEDGER), "");
    expect((await start(repo.root, "I3")).ok).toBe(true);
    expect(fullWalksOf(repo.root)).toBe(full + 2);
  });
});
