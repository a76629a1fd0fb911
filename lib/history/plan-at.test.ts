import { spawnSync } from "node:child_process";
import { symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CapabilityError } from "../plan/errors";
import { derivePlan, loadPlan, loadRecords, RecordCache } from "../repo";
import { planAt } from "./plan-at";
import { parsedBlobCount, recordsAtCommits } from "./records-at";
import { instantOf, REVISION_FORMS, repoGit } from "./revision";
import {
  checkout,
  commitAt,
  generateHistory,
  git,
  issuePath,
  issueText,
  milestonePath,
  milestoneText,
  newRepo,
  projectText,
  PROJECT,
  removeTempDirs,
  tempDir,
} from "@/tests/support/history";

afterAll(removeTempDirs);

const json = (v: unknown) => JSON.stringify(v);

async function refusal(fn: () => unknown): Promise<{ code: string; message: string }> {
  try {
    await fn();
  } catch (error) {
    if (error instanceof CapabilityError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("the plan at a revision equals the plan of a checkout of it", () => {
  it.for([1, 2, 3, 4])("generated history %i: every commit, by sha, matches its checkout (findings and file names included)", async (seed) => {
    const { repo, commits } = generateHistory(seed, 24);
    let findings = 0;
    for (const c of commits) {
      const expected = loadPlan(checkout(repo, c.sha));
      const { plan, at } = await planAt(repo, c.sha);
      expect(json(plan), `commit ${c.sha} of seed ${seed}`).toBe(json(expected));
      expect(at).toEqual({ rev: c.sha, commit: c.sha, committed_at: c.when });
      findings += expected.findings.filter((f) => f.code === "unreadable_record").length;
    }
    // The generator wrote files that do not parse: the property covered them.
    expect(findings).toBeGreaterThan(0);
  });

  it("a date or time names the last commit at or before it on the first-parent history", async () => {
    const { repo, commits } = generateHistory(7, 20);
    for (const probe of [...commits.map((c) => c.when), ...commits.map((c) => c.when.slice(0, 10)), "2026-09-30", "2027-06-01T00:00:00Z"]) {
      const instant = instantOf(probe)!;
      const expected = [...commits].reverse().find((c) => Date.parse(c.when) / 1000 <= instant);
      const { plan, at } = await planAt(repo, probe);
      expect(at.commit, probe).toBe(expected?.sha ?? null);
      expect(json(plan)).toBe(json(expected ? loadPlan(checkout(repo, expected.sha)) : loadPlan(tempDir("cockpit-empty-"))));
    }
  });

  it("a date before the first commit is the empty plan, with commit and committed_at null", async () => {
    const { repo } = generateHistory(3, 3);
    const { plan, at } = await planAt(repo, "2020-01-01");
    expect(at).toEqual({ rev: "2020-01-01", commit: null, committed_at: null });
    expect(plan.issues).toEqual([]);
    expect(plan.milestones).toEqual([]);
  });

  it("branch, tag and HEAD~N name their commits; the work tree and the index are not read", async () => {
    const repo = newRepo();
    const first = commitAt(repo, "2026-10-01T10:00:00Z", {
      [PROJECT]: projectText(),
      [milestonePath("m1")]: milestoneText("m1"),
      [issuePath("I1")]: issueText({ id: "I1", milestone: "m1" }),
    });
    git(repo, ["tag", "v1"]);
    const second = commitAt(repo, "2026-10-02T10:00:00Z", { [issuePath("I1")]: issueText({ id: "I1", milestone: "m1", started_at: "2026-10-02T09:00:00Z" }) });
    git(repo, ["branch", "side", first]);
    // Uncommitted and staged edits: none of them may show in a revision's plan.
    writeFileSync(join(repo, issuePath("I1")), "id: [broken\n");
    git(repo, ["add", "-A"]);
    writeFileSync(join(repo, issuePath("I2")), issueText({ id: "I2", milestone: "m1" }));
    const status = () => git(repo, ["status", "--porcelain"]);
    const before = status();
    const of = (rev: string) => planAt(repo, rev);
    expect((await of("v1")).at.commit).toBe(first);
    expect((await of("side")).at.commit).toBe(first);
    expect((await of("HEAD~1")).at.commit).toBe(first);
    expect((await of("HEAD")).at.commit).toBe(second);
    expect((await of(second.slice(0, 10))).at.commit).toBe(second);
    expect((await of("HEAD")).plan.issues.map((i) => [i.id, i.status])).toEqual([["I1", "ACTIVE"]]);
    expect((await of("v1")).plan.issues.map((i) => [i.id, i.status])).toEqual([["I1", "READY"]]);
    expect(status()).toBe(before);
  });

  it("an unchanged file is parsed once across revisions (kept by blob id)", async () => {
    const repo = newRepo();
    const files: Record<string, string> = { [PROJECT]: projectText(), [milestonePath("m1")]: milestoneText("m1") };
    for (let i = 1; i <= 30; i++) files[issuePath(`I${i}`)] = issueText({ id: `I${i}`, milestone: "m1" });
    commitAt(repo, "2026-10-01T10:00:00Z", files);
    commitAt(repo, "2026-10-02T10:00:00Z", { [issuePath("I1")]: issueText({ id: "I1", milestone: "m1", started_at: "2026-10-02T09:00:00Z" }) });
    commitAt(repo, "2026-10-03T10:00:00Z", { [issuePath("I2")]: issueText({ id: "I2", milestone: "m1", started_at: "2026-10-03T09:00:00Z" }) });
    await planAt(repo, "HEAD~2");
    expect(parsedBlobCount(repo)).toBe(32);
    await planAt(repo, "HEAD~1");
    await planAt(repo, "HEAD");
    expect(parsedBlobCount(repo)).toBe(34);
  });
});

describe("history and the work tree share their parses", () => {
  it("a commit's file that the work tree holds unchanged is not parsed again: its record is the work tree's own", async () => {
    const repo = newRepo();
    const files: Record<string, string> = { [PROJECT]: projectText(), [milestonePath("m1")]: milestoneText("m1") };
    for (let i = 1; i <= 5; i++) files[issuePath(`I${i}`)] = issueText({ id: `I${i}`, milestone: "m1", title: `Shared parse ${i}` });
    commitAt(repo, "2026-10-01T10:00:00Z", files);
    // The work tree changes I1 after the commit; I2..I5 stay as committed.
    writeFileSync(join(repo, issuePath("I1")), issueText({ id: "I1", milestone: "m1", title: "Shared parse 1, edited" }));
    const now = loadRecords(repo, new RecordCache());
    const [head] = await recordsAtCommits(repo, await repoGit(repo), [git(repo, ["rev-parse", "HEAD"])]);
    const byId = (records: typeof now) => new Map(records.issues.map((r) => [r.id, r]));
    const [a, b] = [byId(now), byId(head)];
    for (const id of ["I2", "I3", "I4", "I5"]) expect(b.get(id), id).toBe(a.get(id));
    expect(b.get("I1")).not.toBe(a.get("I1"));
    expect(b.get("I1")!.title).toBe("Shared parse 1");
    expect(json(derivePlan(head))).toBe(json(loadPlan(checkout(repo, "HEAD"))));
  });
});

describe("the corners of a commit's tree", () => {
  it("symbolic links are read as a checkout reads them: followed, dangling ones skipped", async () => {
    const repo = newRepo();
    commitAt(repo, "2026-10-01T10:00:00Z", {
      [PROJECT]: projectText(),
      [milestonePath("m1")]: milestoneText("m1"),
      [issuePath("I1")]: issueText({ id: "I1", milestone: "m1" }),
      "shared/I3.yaml": issueText({ id: "I3", milestone: "m1" }),
    });
    const issues = join(repo, ".ai/repo/project/issues");
    symlinkSync("I1.yaml", join(issues, "I2.yaml"));
    symlinkSync("../../../../shared/I3.yaml", join(issues, "I3.yaml"));
    symlinkSync("nowhere.yaml", join(issues, "I4.yaml"));
    const sha = commitAt(repo, "2026-10-02T10:00:00Z");
    const expected = loadPlan(checkout(repo, sha));
    expect(expected.issues.map((i) => i.id)).toEqual(["I1", "I3"]);
    expect(expected.findings.some((f) => f.subject === "I2" && f.code === "unreadable_record")).toBe(true);
    expect(json((await planAt(repo, sha)).plan)).toBe(json(expected));
  });

  it("the loader's limits hold at a revision as in a checkout: a record over 1 MiB, an alias bomb, links out of the repository, a folder", async () => {
    const repo = newRepo();
    const levels = ["a: &a [x, x, x, x, x, x, x, x, x, x]"];
    for (let i = 1; i < 8; i++) levels.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10).fill(`*${String.fromCharCode(96 + i)}`).join(", ")}]`);
    commitAt(repo, "2026-10-01T10:00:00Z", {
      [PROJECT]: projectText(),
      [milestonePath("m1")]: milestoneText("m1"),
      [issuePath("I1")]: issueText({ id: "I1", milestone: "m1" }),
      [issuePath("BIG")]: issueText({ id: "BIG", milestone: "m1" }) + `objective: "${"x".repeat(1_100_000)}"\n`,
      [issuePath("BOMB")]: `id: BOMB\nmilestone: m1\ntitle: t\nbomb:\n${levels.map((l) => `  ${l}`).join("\n")}\nscope: *h\n`,
      [`${issuePath("DIR")}/inner.txt`]: "a folder named like a record",
    });
    const issues = join(repo, ".ai/repo/project/issues");
    symlinkSync("/etc/hostname", join(issues, "ABS.yaml"));
    // Enough steps up to reach / from any folder: outside the repository in the checkout too.
    symlinkSync(`${"../".repeat(40)}etc/hostname`, join(issues, "OUT.yaml"));
    const sha = commitAt(repo, "2026-10-02T10:00:00Z");
    const expected = loadPlan(checkout(repo, sha));
    const refused = expected.findings.filter((f) => f.code === "unreadable_record").map((f) => f.subject).sort();
    expect(refused).toEqual(["ABS", "BIG", "BOMB", "DIR", "OUT"]);
    expect(json((await planAt(repo, sha)).plan)).toBe(json(expected));
  });

  it("a date follows HEAD's first parents: a merged branch's later commit is not the day's commit", async () => {
    const repo = newRepo();
    const base = commitAt(repo, "2026-11-01T10:00:00Z", { [PROJECT]: projectText(), [milestonePath("m1")]: milestoneText("m1") });
    git(repo, ["checkout", "-q", "-b", "side"]);
    const side = commitAt(repo, "2026-11-03T10:00:00Z", { [issuePath("S1")]: issueText({ id: "S1", milestone: "m1" }) });
    git(repo, ["checkout", "-q", "main"]);
    const main = commitAt(repo, "2026-11-02T10:00:00Z", { [issuePath("M1")]: issueText({ id: "M1", milestone: "m1" }) });
    git(repo, ["merge", "-q", "--no-ff", "-m", "merge side", "side"], { GIT_AUTHOR_DATE: "2026-11-04T10:00:00Z", GIT_COMMITTER_DATE: "2026-11-04T10:00:00Z" });
    expect((await planAt(repo, "2026-11-03")).at.commit).toBe(main);
    expect((await planAt(repo, "2026-11-03")).at.commit).not.toBe(side);
    expect((await planAt(repo, "2026-11-01T23:00:00Z")).at.commit).toBe(base);
    expect((await planAt(repo, "2026-11-04")).plan.issues.map((i) => i.id)).toEqual(["M1", "S1"]);
  });
});

describe("what is refused", () => {
  it("an unknown revision: invalid input naming it", async () => {
    const { repo } = generateHistory(5, 2);
    for (const rev of ["no-such-branch", "HEAD~40", "deadbeef"]) {
      expect(await refusal(() => planAt(repo, rev))).toEqual({ code: "invalid_input", message: `no revision '${rev}' in this repository` });
    }
    // An option is no revision at all: the refusal lists the forms.
    expect(await refusal(() => planAt(repo, "--output=/tmp/x"))).toEqual({ code: "invalid_input", message: `'--output=/tmp/x' is not a revision the Cockpit reads; give ${REVISION_FORMS}` });
  });

  it("a date that does not exist is refused, naming the format", async () => {
    const { repo } = generateHistory(5, 2);
    expect((await refusal(() => planAt(repo, "2026-02-30"))).message).toMatch(/'2026-02-30' is not a date; a date is YYYY-MM-DD/);
    expect((await refusal(() => planAt(repo, "2026-11-30T25:00:00Z"))).message).toMatch(/is not a time/);
  });

  it("a folder that is not a git repository says so", async () => {
    const dir = tempDir("cockpit-not-git-");
    const r = await refusal(() => planAt(dir, "HEAD"));
    expect(r.code).toBe("invalid_input");
    expect(r.message).toMatch(/is not a git repository/);
  });

  it("a shallow clone missing the revision says it is shallow; what it holds is answered", async () => {
    const { repo, commits } = generateHistory(6, 6);
    const shallow = tempDir("cockpit-shallow-");
    const r = spawnSync("git", ["clone", "-q", "--depth", "2", `file://${repo}`, shallow], { encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    const missing = await refusal(() => planAt(shallow, commits[0].sha));
    expect(missing.code).toBe("invalid_input");
    expect(missing.message).toMatch(/shallow/);
    expect((await refusal(() => planAt(shallow, "2020-01-01"))).message).toMatch(/shallow/);
    expect(json((await planAt(shallow, "HEAD~1")).plan)).toBe(json((await planAt(repo, commits[4].sha)).plan));
  });
});
