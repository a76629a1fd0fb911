import type { PlanChanges } from "../plan/history-shapes";
import type { Plan } from "../plan/shapes";
import { activityIn, sectionOf, stuckIssues } from "../standup/standup";
import { type Handles, type IssueOwnership, byHandle, byId, personOfIssue } from "./people";
import { compareBytes } from "../plan/text";
import type { PlanFinding } from "../plan/shapes";
import type { PlanStandup, StandupCode, StandupIssue, StandupLists, StandupPerson } from "./shapes";

// plan.standup's answer arranged from what was read: the window's changes, the plan at `until`,
// who owns what, and the code linked to each issue. Pure: no status is derived here.

/** An issue's linked code as the standup needs it. */
export interface IssueCodeFacts {
  commits: readonly { sha: string; author: string; authored_at: string }[];
  merged: { commit: string; at: string } | null;
}

export interface StandupFacts {
  changes: PlanChanges;
  /** The plan at `until` (the files now when `until` is left out). */
  plan: Plan;
  ownership: ReadonlyMap<string, IssueOwnership>;
  handles: Handles;
  /** Each commit author (as git names them, .mailmap applied) mapped to a handle. */
  authors: ReadonlyMap<string, string>;
  code: ReadonlyMap<string, IssueCodeFacts>;
  codeFindings: readonly PlanFinding[];
  /** The window: after `from` (ISO; null: from the start), at or before `to` (ISO). */
  from: string | null;
  to: string;
  stuckDays: number;
}

const emptyLists = (): StandupLists => ({ done: [], verify: [], active: [], blocked: [], started: [], landed: [] });

const inWindow = (at: string, from: string | null, to: string) => (from === null || Date.parse(at) > Date.parse(from)) && Date.parse(at) <= Date.parse(to);

/** The people's standup: one entry per person (by handle), each list by id, and the issues nobody has. */
export function standupOf(f: StandupFacts): PlanStandup {
  const byIssue = new Map(f.plan.issues.map((i) => [i.id, i]));
  const personOf = (id: string) => {
    const o = f.ownership.get(id);
    return o ? personOfIssue(o, f.handles) : null;
  };
  const people = new Map<string, StandupLists & { commits: Set<string>; commitIssues: Set<string> }>();
  const unowned = emptyLists();
  const listsOf = (person: string | null): StandupLists => {
    if (person === null) return unowned;
    let p = people.get(person);
    if (!p) people.set(person, (p = { ...emptyLists(), commits: new Set(), commitIssues: new Set() }));
    return p;
  };
  // Each issue's linked commits in the window, on every list it is on; none, no `code`.
  const activity = new Map<string, StandupCode>();
  for (const [id, c] of f.code) {
    const a = activityIn(c.commits, f.from, f.to);
    if (a.commits > 0) activity.set(id, a);
  }
  const withCode = <T extends { id: string }>(e: T): T & { code?: StandupCode } => (activity.has(e.id) ? { ...e, code: activity.get(e.id)! } : e);
  const entry = (id: string, title: string): StandupIssue => withCode({ id, title: byIssue.get(id)?.title ?? title, status: byIssue.get(id)?.status ?? "REMOVED" });

  // Every owner is at the standup, even with nothing to say.
  for (const o of f.ownership.values()) if (o.owner.trim() !== "") listsOf(personOfIssue(o, f.handles));

  for (const c of f.changes.issues) {
    const section = sectionOf(c);
    if (section === "done") listsOf(personOf(c.id)).done.push(entry(c.id, c.title));
    else if (section === "started") listsOf(personOf(c.id)).started.push(entry(c.id, c.title));
  }
  // The last linked commit authored by `to`: a past window does not see the commits after it, and
  // does not lose the ones before it either.
  const lastCode = new Map([...f.code].map(([id, c]) => [id, c.commits.reduce<string | null>((last, x) => (Date.parse(x.authored_at) <= Date.parse(f.to) && (last === null || x.authored_at > last) ? x.authored_at : last), null)]));
  const stuck = new Map(stuckIssues(f.plan.issues, f.to, f.stuckDays, lastCode).map((s) => [s.id, s.days]));
  for (const i of f.plan.issues) {
    const lists = () => listsOf(personOf(i.id));
    if (i.status === "ACTIVE") lists().active.push(withCode({ id: i.id, title: i.title, status: i.status, stuck_days: stuck.get(i.id) ?? null }));
    else if (i.status === "VERIFY") lists().verify.push(withCode({ id: i.id, title: i.title, status: i.status, stuck_days: stuck.get(i.id) ?? null }));
    else if (i.status === "BLOCKED") {
      const blocked_by = i.blocked_by.map((b) => ({ entry: b, owner: b.startsWith("milestone:") ? null : personOf(b) }));
      lists().blocked.push(withCode({ id: i.id, title: i.title, status: i.status, blocked_by }));
    }
  }
  for (const [id, c] of f.code) {
    const i = byIssue.get(id);
    if (c.merged && inWindow(c.merged.at, f.from, f.to) && i) {
      listsOf(personOf(id)).landed.push(withCode({ id, title: i.title, status: i.status, merged: { commit: c.merged.commit, at: c.merged.at } }));
    }
    for (const commit of c.commits) {
      if (!inWindow(commit.authored_at, f.from, f.to)) continue;
      const handle = f.authors.get(commit.author) ?? commit.author;
      const mine = listsOf(handle) as StandupLists & { commits: Set<string>; commitIssues: Set<string> };
      mine.commits.add(commit.sha);
      mine.commitIssues.add(id);
    }
  }
  const sorted = (l: StandupLists): StandupLists => ({
    done: l.done.sort(byId),
    verify: l.verify.sort(byId),
    active: l.active.sort(byId),
    blocked: l.blocked.sort(byId),
    started: l.started.sort(byId),
    landed: l.landed.sort(byId),
  });
  const list: StandupPerson[] = [...people.keys()].sort(byHandle).map((person) => {
    const p = people.get(person)!;
    const { commits, commitIssues, ...own } = p;
    return { person, ...sorted(own), commits: commits.size, commit_issues: [...commitIssues].sort(compareBytes) };
  });
  return {
    since: f.changes.since,
    until: f.changes.until,
    people: list,
    unowned: sorted(unowned),
    findings: { new: f.changes.findings.new, resolved: f.changes.findings.resolved, code: [...f.codeFindings] },
    next: f.changes.next,
    roadmap: f.changes.roadmap,
  };
}
