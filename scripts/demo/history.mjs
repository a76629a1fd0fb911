import { CODE_BRANCHES } from "./code.mjs";
import { ISSUES } from "./issues.mjs";
import { LEAD, MILESTONES, PEOPLE, PROJECT, REMOVED_ISSUES } from "./plan.mjs";
import { README } from "./readme.mjs";
import { issueRecord, lastStamp, milestoneRecord, shiftDate } from "./records.mjs";
import { emit } from "./yaml.mjs";

// The history: how the plan above came to be, one commit per moment something happened.
//
// The records above are the last state. Each record's earlier states follow from its own dates:
// it appears at its `created_at` (08:00 UTC), each stamp and evidence entry at its time, and a
// cancellation, a supersession or a late `why`/`risk` at its `updated_at` (12:00 UTC for a date).
// `demoHistory(shift)` moves every date by `shift` days, so `npm run demo` can end the history
// yesterday whatever today is; with shift 0 its last commit holds exactly the files above.

const atTime = (value, hour) => (value.length === 10 ? `${value}T${hour}:00:00Z` : value);
const STAMP_VERBS = { started_at: "Start", verified_at: "Verify", completed_at: "Finish" };

/** Every dated event of the plan, in the original timeline: { at, record, kind, text, author }. */
function planEvents() {
  const events = [];
  const push = (at, record, kind, text, author) => events.push({ at, record, kind, text, author, short: shortOf(kind, record, text) });
  push(atTime("2026-09-28", "08"), "project", "create", "Start the plan of Harbor Bookings", LEAD);
  for (const m of MILESTONES) {
    push(atTime(m.created_at, "08"), m.id, "create", `Add milestone ${m.id}: ${m.title}`, LEAD);
    for (const e of m.evidence ?? []) push(e.recorded_at, m.id, "evidence", `Evidence for ${m.id}: ${e.covers}`, LEAD);
    if (m.updated_at) {
      const what = m.cancelled ? `Cancel milestone ${m.id}` : m.superseded_by ? `Milestone ${m.id} superseded by ${m.superseded_by}` : `Update milestone ${m.id}`;
      push(atTime(m.updated_at, "12"), m.id, "update", what, LEAD);
    }
  }
  for (const issue of ISSUES) {
    push(atTime(issue.created_at, "08"), issue.id, "create", `Add ${issue.id}: ${issue.title}`, LEAD);
    for (const [field, at] of Object.entries(issue.stamps ?? {})) push(at, issue.id, "stamp", `${STAMP_VERBS[field]} ${issue.id}`, issue.owner);
    for (const e of issue.evidence ?? []) push(e.recorded_at, issue.id, "evidence", `Evidence for ${issue.id}: ${e.covers}`, issue.owner);
    if (issue.updated_at) push(atTime(issue.updated_at, "12"), issue.id, "update", issue.cancelled ? `Cancel ${issue.id}` : `Update ${issue.id}`, LEAD);
  }
  for (const { removed_at, removed_because, issue } of REMOVED_ISSUES) {
    push(atTime(issue.created_at, "08"), issue.id, "create", `Add ${issue.id}: ${issue.title}`, LEAD);
    push(removed_at, issue.id, "remove", `Remove ${issue.id}: ${removed_because}`, LEAD);
  }
  return events.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}

/** An event in a few words, for a commit subject that names several. */
function shortOf(kind, record, text) {
  if (kind === "create") return record === "project" ? text : `add ${record}`;
  if (kind === "evidence") return `evidence for ${record}`;
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/** A commit's message: its one event, or a subject naming them all and a line for each. */
function messageOf(events) {
  if (events.length === 1) return `${events[0].text}\n`;
  const allAdds = events.every((e) => e.kind === "create");
  const shorts = allAdds ? events.map((e) => e.record) : events.map((e) => e.short);
  const lead = allAdds ? "Add " : "";
  let subject = lead + shorts.join(", ");
  if (events.some((e) => e.record === "project")) subject = events.find((e) => e.record === "project").text;
  else if (subject.length > 72) subject = `${lead}${shorts.slice(0, 4).join(", ")} and ${shorts.length - 4} more`;
  subject = subject.charAt(0).toUpperCase() + subject.slice(1);
  return `${subject}\n\n${events.filter((e) => e.text !== subject).map((e) => `- ${e.text}`).join("\n")}\n`;
}

/** An issue as it stood at `t` (original timeline), or undefined before it was written. */
function issueAt(issue, t) {
  const created = atTime(issue.created_at, "08");
  if (created > t) return undefined;
  const updated = issue.updated_at === undefined ? undefined : atTime(issue.updated_at, "12");
  const stamps = Object.fromEntries(Object.entries(issue.stamps ?? {}).filter(([, at]) => at <= t));
  const evidence = issue.evidence?.filter((e) => e.recorded_at <= t);
  const times = [created, updated, ...Object.values(issue.stamps ?? {}), ...(issue.evidence ?? []).map((e) => e.recorded_at)];
  const isWhole = times.every((at) => at === undefined || at <= t);
  if (isWhole) return issue;
  const late = updated !== undefined && updated > t;
  return {
    ...issue,
    cancelled: late ? undefined : issue.cancelled,
    why: late ? undefined : issue.why,
    risk: late ? undefined : issue.risk,
    stamps,
    evidence: evidence?.length ? evidence : undefined,
    updated_at: lastStamp({ stamps }) ?? issue.created_at,
  };
}

function milestoneAt(m, t) {
  if (atTime(m.created_at, "08") > t) return undefined;
  const updated = m.updated_at === undefined ? undefined : atTime(m.updated_at, "12");
  const times = [updated, ...(m.evidence ?? []).map((e) => e.recorded_at)];
  if (times.every((at) => at === undefined || at <= t)) return m;
  const late = updated !== undefined && updated > t;
  const evidence = m.evidence?.filter((e) => e.recorded_at <= t);
  return {
    ...m,
    cancelled: late ? undefined : m.cancelled,
    superseded_by: late ? undefined : m.superseded_by,
    // The risks of a dropped milestone say why it was dropped.
    risks: late && (m.cancelled || m.superseded_by) ? undefined : m.risks,
    evidence: evidence?.length ? evidence : undefined,
    updated_at: late ? undefined : m.updated_at,
  };
}

/** The files of the plan as they stood at `t` (original timeline), dates moved by `shift`. */
function filesAt(t, shift) {
  const files = new Map();
  files.set("README.md", README);
  files.set(".ai/repo/project/project.yaml", emit(PROJECT));
  for (const m of MILESTONES) {
    const state = milestoneAt(m, t);
    if (state) files.set(`.ai/repo/project/milestones/${m.id}.yaml`, milestoneRecord(state, shift));
  }
  for (const issue of ISSUES) {
    const state = issueAt(issue, t);
    if (state) files.set(`.ai/repo/project/issues/${issue.id}.yaml`, issueRecord(state, shift));
  }
  for (const { removed_at, issue } of REMOVED_ISSUES) {
    const state = removed_at > t ? issueAt(issue, t) : undefined;
    if (state) files.set(`.ai/repo/project/issues/${issue.id}.yaml`, issueRecord(state, shift));
  }
  return files;
}

/**
 * The demo's history, oldest first (parents before children): one commit on main per moment with
 * a plan event, and the code's commits, branches and merges. Each is `{ at, author: { name,
 * email }, message, files, ref, parents }` where `files` is the whole tree then (relative path →
 * text) and `parents` are indices of earlier commits, the first parent first. All dates are moved
 * by `shift` days.
 */
export function demoHistory(shift = 0) {
  const byTime = new Map();
  for (const e of planEvents()) {
    const list = byTime.get(e.at) ?? [];
    list.push(e);
    byTime.set(e.at, list);
  }
  const person = (who) => ({ name: PEOPLE[who], email: `${who}@harbor.test` });
  // Every moment, in time order: plan commits, branch commits, merges and squashes.
  // The repository starts with its README, before the plan: a root commit naming no issue.
  const moments = [{ at: "2026-09-28T07:30:00Z", kind: "readme" }, ...[...byTime].map(([at, events]) => ({ at, kind: "plan", events }))];
  for (const b of CODE_BRANCHES) {
    for (const c of b.commits) moments.push({ at: c.at, kind: b.direct ? "direct" : "branch", branch: b, commit: c });
    if (b.merge) moments.push({ at: b.merge, kind: "merge", branch: b });
    if (b.squash) moments.push({ at: b.squash.at, kind: "squash", branch: b });
  }
  moments.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  for (let i = 1; i < moments.length; i++) {
    if (moments[i].at === moments[i - 1].at) throw new Error(`two demo commits at ${moments[i].at}: give the code's one another minute`);
  }
  const commits = [];
  const mainCode = new Map();
  let mainTip = -1;
  let mainPlanAt = "";
  const open = new Map(); // branch name → { tip, planAt, code }
  const tree = (planAt, codeFiles) => {
    const files = filesAt(planAt, shift);
    for (const [path, text] of [...codeFiles].sort(([a], [b]) => (a < b ? -1 : 1))) files.set(path, text);
    return files;
  };
  const refOf = (b) => (b.remote ? `refs/remotes/${b.remote}/${b.name}` : b.deleted || b.squash ? `refs/demo-deleted/${b.name}` : `refs/heads/${b.name}`);
  for (const m of moments) {
    const at = shiftDate(m.at, shift);
    if (m.kind === "readme") {
      commits.push({ at, author: person(LEAD), message: "Harbor Bookings: the repository\n", files: new Map([["README.md", README]]), ref: "refs/heads/main", parents: [] });
      mainTip = 0;
    } else if (m.kind === "plan") {
      mainPlanAt = m.at;
      const who = m.events[0].author;
      commits.push({ at, author: person(who), message: messageOf(m.events), files: tree(m.at, mainCode), ref: "refs/heads/main", parents: mainTip < 0 ? [] : [mainTip] });
      mainTip = commits.length - 1;
    } else if (m.kind === "direct") {
      for (const [path, text] of Object.entries(m.commit.files)) mainCode.set(path, text);
      commits.push({ at, author: person(m.branch.author), message: `${m.commit.message}\n`, files: tree(mainPlanAt, mainCode), ref: "refs/heads/main", parents: [mainTip] });
      mainTip = commits.length - 1;
    } else if (m.kind === "branch") {
      const b = m.branch;
      const state = open.get(b.name) ?? { tip: mainTip, planAt: mainPlanAt, code: new Map(mainCode) };
      for (const [path, text] of Object.entries(m.commit.files)) state.code.set(path, text);
      commits.push({ at, author: person(b.author), message: `${m.commit.message}\n`, files: tree(state.planAt, state.code), ref: refOf(b), parents: [state.tip] });
      state.tip = commits.length - 1;
      open.set(b.name, state);
    } else {
      const b = m.branch;
      const state = open.get(b.name);
      for (const c of b.commits) for (const [path, text] of Object.entries(c.files)) mainCode.set(path, text);
      const message = m.kind === "merge" ? `Merge branch '${b.name}'\n` : `${b.squash.message}\n`;
      const parents = m.kind === "merge" ? [mainTip, state.tip] : [mainTip];
      commits.push({ at, author: person(LEAD), message, files: tree(mainPlanAt, mainCode), ref: "refs/heads/main", parents });
      mainTip = commits.length - 1;
    }
  }
  return commits;
}
