import { afterAll, describe, expect, it } from "vitest";
import { planStandupCapability } from "@/lib/capabilities/plan-standup";
import { renderStandup } from "@/lib/surfaces/cli/standup-text";
import { loadPlan } from "@/lib/repo";
import { ownersOf, peopleOf, readPeopleFacts } from "@/lib/people/facts";
import { runGit } from "./support/git";
import { runCliInProcess } from "./support/cli-in-process";
import { sealedStampLines } from "./support/record-files";
import { LEDGER, cleanupRepos, issueYaml, makePlanRepo, type PlanRepo } from "./support/repo";

// The people rules on a real repository: owners in the records, .mailmap applied by git, the
// ledger's `by`, and commits linked to issues (docs/people.md).

afterAll(cleanupRepos);

const STARTED = "2026-11-20T09:00:00Z";
const started = (id: string) => sealedStampLines("start", id, STARTED).join("\n") + "\n";

function commitAs(repo: PlanRepo, who: string, email: string, message: string, file?: string, at = "2026-11-25T10:00:00Z"): void {
  if (file) repo.write(file, `${message}\n`);
  repo.git("add", "-A");
  const env = { GIT_AUTHOR_NAME: who, GIT_AUTHOR_EMAIL: email, GIT_COMMITTER_NAME: who, GIT_COMMITTER_EMAIL: email, GIT_AUTHOR_DATE: at, GIT_COMMITTER_DATE: at };
  runGit(repo.root, ["commit", "-q", "--allow-empty", "-m", message], { env });
}

function teamRepo(): PlanRepo {
  const repo = makePlanRepo({
    issues: [
      { id: "BK-1", extra: `owner: priya\n${started("BK-1")}` },
      { id: "BK-3", extra: "owner: lea\n" },
      { id: "BK-5", depends_on: ["BK-1"], extra: "owner: tom\n" },
    ],
    // Only .mailmap can map "P. R. <p.raman@home.example>": neither the local part nor the first word is a handle.
    files: { ".mailmap": "Priya Raman <priya@harbor.test> <p.raman@home.example>\n" },
  });
  commitAs(repo, "Cockpit Tests", "tests@cockpit.invalid", "the plan");
  // BK-2 has no owner: Léa started it in a commit from her home address (no mailmap entry).
  repo.writeIssue("BK-2", issueYaml({ id: "BK-2" }) + started("BK-2"));
  commitAs(repo, "Léa Martin", "l.martin@home.example", "start BK-2");
  // BK-4 has no owner: the signed-in user sam started it here (the ledger's by), not yet committed.
  repo.writeIssue("BK-4", issueYaml({ id: "BK-4" }) + started("BK-4"));
  repo.write(LEDGER, `${JSON.stringify({ ts: STARTED, event: "plan_start", head: "", branch: "main", by: "sam", issue: "BK-4" })}\n`);
  commitAs(repo, "P. R.", "p.raman@home.example", "BK-1: the slot engine", "src/slots.ts");
  commitAs(repo, "Ana Sousa", "ana@harbor.test", "BK-3: the payouts report", "src/payouts.ts");
  return repo;
}

describe("people from a repository", () => {
  const repo = teamRepo();
  const ctx = { repo: repo.root, plan: () => loadPlan(repo.root) };

  it("maps authors by .mailmap (as git applies it), keeps unmapped ones, and finds who started an unowned issue", async () => {
    const facts = await readPeopleFacts(repo.root, ctx.plan());
    expect(facts.authors).toContainEqual({ name: "Priya Raman", email: "priya@harbor.test" });
    expect(facts.authors.some((a) => a.email === "p.raman@home.example")).toBe(false);
    expect(facts.ownership.get("BK-1")).toEqual({ id: "BK-1", owner: "priya" });
    // The commit that sealed started_at: Léa Martin, mapped by her first name.
    expect(facts.ownership.get("BK-2")).toEqual({ id: "BK-2", owner: "", startedBy: "lea" });
    // The ledger's by comes before any commit.
    expect(facts.ownership.get("BK-4")).toEqual({ id: "BK-4", owner: "", startedBy: "sam" });
  });

  it("answers plan.standup person by person, in handle order, with blockers' owners and linked commits", async () => {
    const s = await planStandupCapability.handler(ctx, { since: "2020-01-01" });
    expect(s.people.map((p) => p.person)).toEqual(["Ana Sousa", "lea", "priya", "sam", "tom"]);
    const by = (h: string) => s.people.find((p) => p.person === h)!;
    expect(by("priya").active.map((i) => i.id)).toEqual(["BK-1"]);
    expect(by("priya").commits).toBe(1);
    expect(by("lea").active.map((i) => i.id)).toEqual(["BK-2"]);
    expect(by("sam").active.map((i) => i.id)).toEqual(["BK-4"]);
    expect(by("tom").blocked).toEqual([{ id: "BK-5", title: "Issue BK-5", status: "BLOCKED", blocked_by: [{ entry: "BK-1", owner: "priya" }] }]);
    expect(by("Ana Sousa").commits).toBe(1);
    expect(by("lea").commits).toBe(0);
    expect(s.unowned.active).toEqual([]);
  });

  it("gives a landed issue its merge commit, each entry its linked commits in the window, and the code findings beside the plan's", async () => {
    const s = await planStandupCapability.handler(ctx, { since: "2020-01-01" });
    const slots = runGit(repo.root, ["log", "-1", "--format=%H", "--grep=BK-1: the slot engine"]);
    const priya = s.people.find((p) => p.person === "priya")!;
    // The commit is on main itself: it is its own merge.
    expect(priya.landed).toEqual([{ id: "BK-1", title: "Issue BK-1", status: "ACTIVE", merged: { commit: slots, at: "2026-11-25T10:00:00Z" }, code: { commits: 1, authors: ["Priya Raman"] } }]);
    expect(priya.active).toMatchObject([{ id: "BK-1", code: { commits: 1, authors: ["Priya Raman"] } }]);
    // No linked commit, no code member.
    expect(s.people.find((p) => p.person === "tom")!.blocked[0]).not.toHaveProperty("code");
    expect(s.findings.code.map((f) => `${f.subject} ${f.code}`)).toContain("BK-1 merged_not_verified");
  });

  it("cockpit plan standup prints the code findings, the merge commits and the code activity", async () => {
    const text = renderStandup(await planStandupCapability.handler(ctx, { since: "2020-01-01" }));
    expect(text).toMatch(/^ {2}code WARN merged_not_verified BK-1: /m);
    expect(text).toMatch(/^ {2}landed {3}BK-1 {2}Issue BK-1 {2}merged by [0-9a-f]{12} at 2026-11-25T10:00:00Z {2}\(1 commit by Priya Raman\)$/m);
    expect(text).toMatch(/^roadmap now: /m);
  });
});

describe("a past window", () => {
  it("counts stuck from the linked commits authored by its end, not from a later one", async () => {
    const repo = makePlanRepo({ issues: [{ id: "BK-1", extra: `owner: priya\n${started("BK-1")}` }] });
    commitAs(repo, "Priya Raman", "priya@harbor.test", "the plan", undefined, "2026-11-20T10:00:00Z");
    commitAs(repo, "Priya Raman", "priya@harbor.test", "BK-1: the slot engine", "src/slots.ts", "2026-11-25T10:00:00Z");
    commitAs(repo, "Priya Raman", "priya@harbor.test", "Tidy", "src/other.ts", "2026-11-26T10:00:00Z");
    const until = runGit(repo.root, ["rev-parse", "HEAD"]);
    commitAs(repo, "Priya Raman", "priya@harbor.test", "BK-1: more slots", "src/slots.ts", "2026-12-03T10:00:00Z");
    const ctx = { repo: repo.root, plan: () => loadPlan(repo.root) };
    const s = await planStandupCapability.handler(ctx, { since: "2026-11-21", until, stuck: 3 });
    // At its end (11-26) the last commit is a day old: not stuck, though started six days before.
    expect(s.people.find((p) => p.person === "priya")!.active).toEqual([{ id: "BK-1", title: "Issue BK-1", status: "ACTIVE", stuck_days: null, code: { commits: 1, authors: ["Priya Raman"] } }]);
  });
});

describe("everyone /people lists", () => {
  it("is the owners, the ledger's users with no issue of their own, and every author, each once as mapped", async () => {
    const repo = makePlanRepo({ issues: [{ id: "BK-1", extra: `owner: priya\n${started("BK-1")}` }] });
    // kai signed in and moved priya's issue; the Cockpit's own tool name is nobody.
    const line = (by: string) => JSON.stringify({ ts: STARTED, event: "plan_start", head: "", branch: "main", by, issue: "BK-1" });
    repo.write(LEDGER, `${line("kai")}\n${line("cockpit/0.9.0")}\n`);
    commitAs(repo, "Priya Raman", "priya@harbor.test", "the plan");
    commitAs(repo, "Ana Sousa", "ana@harbor.test", "BK-1: the payouts report", "src/payouts.ts");
    const plan = loadPlan(repo.root);
    const people = peopleOf(plan.issues, await readPeopleFacts(repo.root, plan));
    expect([...people.keys()]).toEqual(["Ana Sousa", "kai", "priya"]);
    expect(people.get("kai")).toEqual([]);
    expect(people.get("priya")!.map((i) => i.id)).toEqual(["BK-1"]);
  });
});

describe("a commit of the Cockpit's moves", () => {
  it("does not make its committer a person: whoever made the moves is one; a change by hand in it does", async () => {
    const repo = makePlanRepo({ issues: [{ id: "BK-1" }, { id: "BK-2" }] });
    commitAs(repo, "Priya Raman", "priya@harbor.test", "the plan");
    // The clone's git identity commits what kai did through the Cockpit.
    repo.git("config", "user.name", "Clone Keeper");
    repo.git("config", "user.email", "keeper@harbor.test");
    expect((await runCliInProcess(["plan", "start", "BK-1", "--as", "kai", "--repo", repo.root])).code).toBe(0);
    const moves = await runCliInProcess(["plan", "commit", "--repo", repo.root]);
    expect(moves.code, moves.stderr).toBe(0);
    expect(runGit(repo.root, ["log", "-1", "--format=%an%n%B"])).toContain("Cockpit-Records: moves");
    let plan = loadPlan(repo.root);
    expect([...peopleOf(plan.issues, await readPeopleFacts(repo.root, plan)).keys()]).toEqual(["kai", "Priya Raman"]);

    // A record changed by hand, committed through the Cockpit: that change is the committer's.
    repo.writeIssue("BK-2", issueYaml({ id: "BK-2", extra: "owner: lea\n" }));
    const byHand = await runCliInProcess(["plan", "commit", "--repo", repo.root]);
    expect(byHand.code, byHand.stderr).toBe(0);
    expect(runGit(repo.root, ["log", "-1", "--format=%B"])).not.toContain("Cockpit-Records");
    plan = loadPlan(repo.root);
    expect([...peopleOf(plan.issues, await readPeopleFacts(repo.root, plan)).keys()]).toEqual(["Clone Keeper", "kai", "lea", "Priya Raman"]);
  });
});

describe("owners in a serving process", () => {
  it("an owner edited after it was read is the new one (an edit of the same size too), the file read again by its changed stat", async () => {
    const repo = makePlanRepo({ issues: [{ id: "BK-1", extra: "owner: priya\n" }, { id: "BK-2" }] });
    // Past the racy window, so the first read is kept by the file's stat.
    await new Promise((r) => setTimeout(r, 2100));
    expect(ownersOf(repo.root, loadPlan(repo.root)).get("BK-1")).toBe("priya");
    repo.writeIssue("BK-1", issueYaml({ id: "BK-1" }) + "owner: marek\n");
    repo.writeIssue("BK-2", issueYaml({ id: "BK-2" }) + "owner: lea\n");
    const owners = ownersOf(repo.root, loadPlan(repo.root));
    expect([owners.get("BK-1"), owners.get("BK-2")]).toEqual(["marek", "lea"]);
  });
});
