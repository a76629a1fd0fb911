// The standup's view by change, as the page shows it: the window's changes in their sections, what
// landed, what is stuck, each row's code activity and the active milestones. Built from the
// capabilities' answers (plan.changes, plan.model, plan.code); the page chooses how to render it.

import type { IssueCode, PlanCode } from "../code/shapes";
import type { PlanChanges } from "../plan/history-shapes";
import type { Plan, PlanIssue } from "../plan/shapes";
import { type CodeActivity, type LandedIssue, type SectionKey, type StuckIssue, activityIn, groupChanges, landedIn, stuckIssues } from "./standup";
import type { IssueChange } from "./standup";

/** The sections in the order the page shows them. */
export const SECTION_ORDER: SectionKey[] = ["done", "verify", "started", "ready", "blocked", "cancelled", "added", "removed", "other"];

export interface ChangeViewInput {
  changes: PlanChanges;
  /** The plan at the window's end (plan.model, `at` its until). */
  model: Plan;
  /** plan.code's answer for the whole plan, now. */
  code: PlanCode;
  /** The window's end (ISO): now, or its until commit's time. */
  asOf: string;
  stuckDays: number;
  /** plan.code's answer for one issue (asked for the few issues that need their commits). */
  issueCode: (id: string) => Promise<IssueCode>;
}

export interface ChangeView {
  byId: ReadonlyMap<string, PlanIssue>;
  sections: Record<SectionKey, IssueChange[]>;
  /** The sections with nothing in them (the "Nothing started, …" line), "other" left out. */
  quiet: SectionKey[];
  landed: LandedIssue[];
  stuck: StuckIssue[];
  /** Each issue's last commit at or before the window's end, by id. */
  lastCode: ReadonlyMap<string, string | null>;
  /** The code activity in the window of each row's issue, by id. */
  activity: ReadonlyMap<string, CodeActivity>;
  /** The milestones ACTIVE at the window's end (a burn-up each). */
  active: Plan["milestones"];
}

export async function changeView({ changes, model, code, asOf, stuckDays, issueCode }: ChangeViewInput): Promise<ChangeView> {
  const byId = new Map(model.issues.map((i) => [i.id, i]));
  const sections = groupChanges(changes.issues);
  const quiet = SECTION_ORDER.filter((k) => k !== "other" && sections[k].length === 0);
  // The code in the window: from the since commit's time to the until commit's (or now).
  const windowStart = changes.since.committed_at;
  const landed = landedIn(code.issues, windowStart, asOf);
  const lastCode = new Map(code.issues.map((i) => [i.id, i.last_activity_at !== null && i.last_activity_at <= asOf ? i.last_activity_at : null]));
  // A past window: an open issue with commits after its end counts from its last commit before it
  // (a few issues, each read from the links already derived).
  const later = code.issues.filter((i) => i.last_activity_at !== null && i.last_activity_at > asOf && ["ACTIVE", "VERIFY"].includes(byId.get(i.id)?.status ?? ""));
  for (const c of await Promise.all(later.map((i) => issueCode(i.id)))) {
    lastCode.set(c.id, c.commits.map((x) => x.authored_at).filter((at) => Date.parse(at) <= Date.parse(asOf)).sort().at(-1) ?? null);
  }
  const stuck = stuckIssues(model.issues, asOf, stuckDays, lastCode);
  const linked = new Set(code.issues.map((i) => i.id));
  const rowIds = [...new Set([...changes.issues.map((c) => c.id), ...stuck.map((s) => s.id)])].filter((id) => linked.has(id));
  const perIssue = await Promise.all(rowIds.map((id) => issueCode(id)));
  const activity = new Map(perIssue.map((c) => [c.id, activityIn(c.commits, windowStart, asOf)]));
  const active = model.milestones.filter((m) => m.status === "ACTIVE");
  return { byId, sections, quiet, landed, stuck, lastCode, activity, active };
}
