import { mkdirSync, renameSync, rmSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { findCapability } from "../../lib/capabilities/index";
import { contextFor, currentPlan, derivationsOf } from "../../lib/surfaces/context";
import { invoke } from "../../lib/surfaces/invoke";
import { ISSUES, cleanupRepos, issueYaml, makePlanRepo } from "../helpers/plan-repo";

// A long-running surface keeps parsed files and the derived plan between requests. These tests
// hold it to the promise that makes that safe: every answer reflects the files as they are.

afterEach(() => cleanupRepos());

const statusOf = (repo: string, id: string) => currentPlan(repo).issues.find((i) => i.id === id)?.status;

describe("the served plan follows the files", () => {
  it("an unchanged plan is the same object, not derived again; an edit on disk shows at once", () => {
    const repo = makePlanRepo({ issues: [{ id: "I1" }, { id: "I2", depends_on: ["I1"] }] });
    const first = currentPlan(repo.root);
    const derivations = derivationsOf(repo.root);
    expect(currentPlan(repo.root)).toBe(first);
    expect(derivationsOf(repo.root)).toBe(derivations);
    expect(statusOf(repo.root, "I2")).toBe("BLOCKED");

    repo.writeIssue("I2", issueYaml({ id: "I2" }));
    expect(currentPlan(repo.root)).not.toBe(first);
    expect(statusOf(repo.root, "I2")).toBe("READY");
    expect(derivationsOf(repo.root)).toBe(derivations + 1);
  });

  it("edits of the same size in quick succession each show (a file's stat may not tell them apart)", () => {
    const repo = makePlanRepo({ issues: [{ id: "I1" }] });
    for (let round = 0; round < 100; round++) {
      const title = round % 2 === 0 ? "first edit" : "other edit";
      repo.writeIssue("I1", issueYaml({ id: "I1" }).replace(/^title: .*$/m, `title: ${title}`));
      expect(currentPlan(repo.root).issues[0].title).toBe(title);
    }
  });

  it("a new file, a removed file and a replaced issues folder all show", () => {
    const repo = makePlanRepo({ issues: [{ id: "I1" }] });
    expect(currentPlan(repo.root).issues.map((i) => i.id)).toEqual(["I1"]);

    repo.writeIssue("I2", issueYaml({ id: "I2" }));
    expect(currentPlan(repo.root).issues.map((i) => i.id)).toEqual(["I1", "I2"]);

    rmSync(repo.issuePath("I1"));
    expect(currentPlan(repo.root).issues.map((i) => i.id)).toEqual(["I2"]);

    renameSync(repo.path(ISSUES), repo.path(`${ISSUES}-old`));
    mkdirSync(repo.path(ISSUES));
    repo.writeIssue("I3", issueYaml({ id: "I3" }));
    expect(currentPlan(repo.root).issues.map((i) => i.id)).toEqual(["I3"]);
  });

  it("a command run through the surfaces shows in the next answer", async () => {
    const repo = makePlanRepo({ issues: [{ id: "I1" }] });
    expect(statusOf(repo.root, "I1")).toBe("READY");
    const result = await invoke(findCapability("plan.transition")!, contextFor(repo.root), { issue: "I1", transition: "start" });
    expect(result.ok).toBe(true);
    expect(statusOf(repo.root, "I1")).toBe("ACTIVE");
  });
});
