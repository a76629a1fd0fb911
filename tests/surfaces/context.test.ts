import { mkdirSync, renameSync, rmSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { findCapability } from "../../lib/capabilities/index";
import { REVALIDATE_MS, contextFor, currentPlan, ioSettled, settledState, walksOf } from "../../lib/surfaces/context";
import { invoke } from "../../lib/surfaces/invoke";
import { ISSUES, cleanupRepos, issueYaml, makePlanRepo } from "../support/repo";

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
