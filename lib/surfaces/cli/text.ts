import type {
  Plan,
  PlanCriticalPath,
  PlanIssue,
  PlanIssueList,
  PlanMilestone,
  PlanNextIssue,
  PlanRecord,
  PlanRoadmap,
  PlanStatusReport,
  PlanValidation,
  PlanWaveReport,
} from "../../plan/shapes";

import { terminalWidth, wrapText } from "./terminal-width";
import { missingEvidence } from "../../plan/evidence-coverage";
import { UNSEALED_HINT } from "../../plan/unsealed";

// Readable, aligned renderings of the capability outputs, for people at a terminal.

/**
 * Lay rows out in columns within `width` (the terminal's): the last column is left unpadded, and
 * when the columns are wider than the line, the widest give way and their cells wrap inside them.
 */
export function table(rows: readonly (readonly string[])[], header?: readonly string[], width = terminalWidth()): string {
  const all = header ? [header, ...rows] : rows;
  if (all.length === 0) return "";
  const n = Math.max(...all.map((r) => r.length));
  const natural: number[] = Array.from({ length: n }, (_, i) => Math.max(0, ...all.map((r) => [...(r[i] ?? "")].length)));
  const words: number[] = Array.from({ length: n }, (_, i) => Math.max(0, ...all.flatMap((r) => (r[i] ?? "").split(" ").map((w) => [...w].length))));
  const prose: boolean[] = Array.from({ length: n }, (_, i) => rows.some((r) => (r[i] ?? "").trim().includes(" ")));
  const widths = fitColumns(natural, width - 2 * (n - 1), words, prose);
  return all
    .flatMap((row) => {
      const cells = row.map((cell, i) => wrapText(cell, widths[i]));
      const height = Math.max(...cells.map((c) => c.length));
      return Array.from({ length: height }, (_, k) =>
        cells
          .map((c, i) => (i < row.length - 1 ? (c[k] ?? "").padEnd(widths[i]) : (c[k] ?? "")))
          .join("  ")
          .trimEnd(),
      );
    })
    .join("\n");
}

/**
 * Column widths that fit `room`. Each column first keeps its longest word (a timestamp, an id, a
 * commit), so a cell breaks at its spaces and the prose columns give way; when the words are too
 * wide, the columns of single words (no cell with a space) keep theirs and the prose ones shrink
 * below theirs; only when even that is wider than the line do narrow columns keep their width and
 * the wide share the rest.
 */
function fitColumns(natural: readonly number[], room: number, words: readonly number[] = [], prose: readonly boolean[] = []): number[] {
  const total = natural.reduce((a, b) => a + b, 0);
  if (total <= room) return [...natural];
  const sum = (ws: readonly number[]) => ws.reduce((a, b) => a + b, 0);
  const floors = natural.map((w, i) => Math.min(w, Math.max(4, words[i] ?? 4)));
  if (sum(floors) <= room) return share(floors, natural, room - sum(floors));
  const tokensKept = natural.map((w, i) => (prose[i] ?? true ? Math.min(w, 4) : w));
  if (sum(tokensKept) <= room) return share(tokensKept, natural, room - sum(tokensKept));
  return share(natural.map(() => 0), natural, Math.max(room, natural.length * 4), 4);
}

/** `extra` shared over the columns above `base`, the least wanting first: each takes at most an equal share of what is left. */
function share(base: readonly number[], natural: readonly number[], extra: number, least = 0): number[] {
  const widths = [...base];
  const order = natural.map((w, i) => [w - base[i], i] as const).sort((a, b) => a[0] - b[0]);
  let left = extra;
  order.forEach(([want, i], k) => {
    const add = Math.max(least, Math.min(want, Math.floor(left / (order.length - k))));
    widths[i] = base[i] + add;
    left -= add;
  });
  return widths;
}

const done = (m: { counts: { by_status: Record<string, number>; required: number } }) =>
  `${m.counts.by_status.DONE ?? 0}/${m.counts.required}`;

const list = (items: readonly string[]) => (items.length ? items.join(" ") : "-");

/** The issues whose stamps do not count (unsealed), marked where a listing shows them. */
export type Unsealed = ReadonlySet<string>;

/** A listing's status cell: an issue with unsealed stamps says so beside its status. */
const statusCell = (i: PlanIssue, unsealed?: Unsealed) => (unsealed?.has(i.id) ? `${i.status} (unsealed)` : i.status);

/** The line under a listing that marked an issue unsealed: what the mark means and the way out. */
function unsealedNote(issues: readonly PlanIssue[], unsealed?: Unsealed): string[] {
  const marked = issues.filter((i) => unsealed?.has(i.id)).map((i) => i.id);
  return marked.length ? ["", `unsealed: ${marked.join(" ")}: ${UNSEALED_HINT}`] : [];
}

function issueRows(issues: readonly PlanIssue[], unsealed?: Unsealed): string {
  return [
    table(
      issues.map((i) => [i.id, statusCell(i, unsealed), String(i.wave), i.milestone || "-", i.title]),
      ["ISSUE", "STATUS", "WAVE", "MILESTONE", "TITLE"],
    ),
    ...unsealedNote(issues, unsealed),
  ].join("\n");
}

/** What a record requires as evidence and what its entries cover (the records know it, the plan does not). */
export interface EvidenceOf {
  evidence_required: readonly string[];
  covers: readonly string[];
}

/**
 * A record's evidence by what it covers: required tokens covered of required, and the missing
 * ones by name; two entries for one token never read as two tokens covered. Without the records
 * (a read at a revision), the counts say what they count.
 */
function evidenceLine(have: number, need: number, evidence?: EvidenceOf): string {
  if (!evidence) return `${have} entr${have === 1 ? "y" : "ies"} for ${need} required token(s)`;
  const required = evidence.evidence_required.length;
  if (required === 0) return `none required${evidence.covers.length ? ` (${evidence.covers.length} entr${evidence.covers.length === 1 ? "y" : "ies"})` : ""}`;
  const missing = missingEvidence(evidence);
  const entries = evidence.covers.length;
  return `${required - missing.length} of ${required} required token(s) covered${missing.length ? `; missing: ${missing.join(", ")}` : ""} (${entries} entr${entries === 1 ? "y" : "ies"})`;
}

/**
 * `order`: the milestones in roadmap order. `why`: the line saying why the active milestone and
 * the roadmap's now differ. `nextWarning`: the next ready issue's unsealed stamps, in words.
 */
export function renderStatus(r: PlanStatusReport, order?: readonly string[], why?: string, nextWarning?: string): string {
  const rank = new Map(order?.map((id, i) => [id, i]));
  const milestones = order ? [...r.milestones].sort((a, b) => (rank.get(a.id) ?? Infinity) - (rank.get(b.id) ?? Infinity)) : r.milestones;
  const lines = [
    `${r.project.name || "(unnamed project)"}${r.project.repository ? ` — ${r.project.repository}` : ""}`,
    "",
    table(
      milestones.map((m) => [m.id, m.status, done(m), m.title]),
      ["MILESTONE", "STATUS", "DONE", "TITLE"],
    ),
    "",
    `issues: ${r.counts.total} (${Object.entries(r.counts.by_status)
      .filter(([, n]) => n > 0)
      .map(([s, n]) => `${n} ${s}`)
      .join(", ") || "none"})`,
    `active milestone: ${r.project.active_milestone || "none"}`,
    ...(why ? [`why: ${why}`] : []),
    r.next_ready
      ? `next ready issue: ${r.next_ready.id} — ${r.next_ready.title}${nextWarning ? " (unsealed stamps)" : ""}`
      : "next ready issue: none — run: cockpit plan issues --status BLOCKED",
    ...(nextWarning ? [`WARN unsealed_stamps: ${nextWarning}`] : []),
  ];
  return lines.join("\n");
}

/** "… and 12 more (--limit 40 shows more)" under a listing cut at `limit`, or nothing. */
function more(total: number, limit: number | undefined, what: string): string[] {
  return limit !== undefined && total > limit ? [`… and ${total - limit} more ${what} (a larger --limit shows them)`] : [];
}

export function renderIssues(r: PlanIssueList, limit?: number, unsealed?: Unsealed): string {
  if (r.total === 0) return "no issue matches";
  const shown = limit === undefined ? r.issues : r.issues.slice(0, limit);
  return [issueRows(shown, unsealed), ...more(r.total, limit, "issue(s)"), "", `${r.total} issue(s)`].join("\n");
}

export function renderWaves(r: PlanWaveReport, limit?: number): string {
  const parts = r.waves.map((w) =>
    [`Wave ${w.wave}`, table((limit === undefined ? w.issues : w.issues.slice(0, limit)).map((i) => ["  " + i.id, i.status, i.title])), ...more(w.issues.length, limit, `in wave ${w.wave}`)].join("\n"),
  );
  if (parts.length === 0) parts.push("no issue is in a wave");
  if (r.serialised_by_scope.length > 0) {
    const shown = limit === undefined ? r.serialised_by_scope : r.serialised_by_scope.slice(0, limit);
    parts.push(
      [`serialised by scope overlap (${r.serialised_by_scope.length}):`, ...shown.map((f) => `  ${f.subject} ${f.message}`), ...more(r.serialised_by_scope.length, limit, "overlap(s)")].join("\n"),
    );
  }
  return parts.join("\n\n");
}

export function renderNext(r: PlanNextIssue): string {
  if (!r.issue) return `no ready issue: ${r.reason}`;
  const i = r.issue;
  return [
    `${i.id} — ${i.title}`,
    `milestone: ${i.milestone}   wave: ${i.wave}   priority: ${i.priority || "-"}   profile: ${i.profile || "-"}`,
    `objective: ${i.objective || "-"}`,
    `scope:     ${list(i.scope)}`,
    `next: cockpit plan start ${i.id}`,
  ].join("\n");
}

/** `why`: the line saying why the active milestone and the roadmap's now differ, when they do. */
export function renderRoadmap(r: PlanRoadmap, why?: string): string {
  const mark = (m: PlanMilestone) => (m.id === r.now ? "now" : m.id === r.next ? "next" : "");
  const byId = new Map(r.milestones.map((m) => [m.id, m]));
  const line = (label: string, id?: string) => {
    const m = id ? byId.get(id) : undefined;
    if (!m) return `${label} none`;
    return `${label} ${m.id} — ${m.title}${m.blocked_by.length ? ` (blocked by ${m.blocked_by.join(" ")})` : ""}`;
  };
  return [
    table(
      r.milestones.map((m) => [mark(m), String(m.rank), m.version || "-", m.status, m.id, done(m), m.title]),
      ["", "RANK", "VERSION", "STATUS", "MILESTONE", "DONE", "TITLE"],
    ),
    "",
    line("now: ", r.now),
    line("next:", r.next),
    ...(why ? [`why:  ${why}`] : []),
  ].join("\n");
}

export function renderCriticalPath(r: PlanCriticalPath): string {
  const where = r.milestone === null ? "the plan" : `milestone ${r.milestone}`;
  if (r.path.length === 0) return `critical path of ${where}: nothing unfinished`;
  return [
    table(
      r.path.map((s, i) => [String(i + 1), s.id, s.status, String(s.weight), s.title]),
      ["STEP", "ISSUE", "STATUS", "DAYS", "TITLE"],
    ),
    "",
    `critical path of ${where}: ${r.path.length} issue(s), ${r.total} day(s); each waits on the one above it`,
  ].join("\n");
}

export function renderValidation(r: PlanValidation): string {
  const rows = r.findings.map((f) => [f.level, f.code, f.subject, f.message]);
  return [
    rows.length ? table(rows) : "no findings",
    "",
    `plan validate: ${r.milestones} milestone(s), ${r.issues} issue(s), ${r.failures} failure(s), ${r.warnings} warning(s)`,
  ].join("\n");
}

/** What the records and the findings add to a record's rendering (none at a revision). */
export interface RecordExtras {
  evidence?: EvidenceOf;
  /** The issues whose stamps do not count. */
  unsealed?: Unsealed;
  /** The shown issue's unsealed stamps, in words (the `cockpit plan adopt` hint). */
  warning?: string;
}

function issueDetail(i: PlanIssue, extras: RecordExtras): string {
  return table([
    ["issue", `${i.id} — ${i.title}`],
    ["status", extras.warning ? `${i.status} (unsealed)` : i.status],
    ...(extras.warning ? [["stamps", extras.warning]] : []),
    ["milestone", i.milestone || "-"],
    ["wave", String(i.wave)],
    ["priority", i.priority || "-"],
    ["profile", i.profile || "-"],
    ["depends on", list(i.depends_on)],
    ["blocked by", list(i.blocked_by)],
    ["dependents", list(i.dependents)],
    ["scope", list(i.scope)],
    ["evidence", evidenceLine(i.evidence_have, i.evidence_need, extras.evidence)],
    ["started", i.started_at || "-"],
    ["verified", i.verified_at || "-"],
    ["completed", i.completed_at || "-"],
  ]);
}

export function renderRecord(r: PlanRecord, extras: RecordExtras = {}): string {
  if ("milestone" in r) {
    const m = r.milestone;
    return [
      table([
        ["milestone", `${m.id} — ${m.title}`],
        ["status", m.status],
        ["version", m.version || "-"],
        ["rank", String(m.rank)],
        ["order", String(m.order)],
        ["depends on", list(m.depends_on)],
        ["blocked by", list(m.blocked_by)],
        ["dependents", list(m.dependents)],
        ["done", done(m)],
        ...(extras.evidence ? [["evidence", evidenceLine(0, 0, extras.evidence)]] : []),
      ]),
      "",
      r.issues.length ? issueRows(r.issues, extras.unsealed) : "no issues",
    ].join("\n");
  }
  return [issueDetail(r.issue, extras), "", r.depends_on.length ? issueRows(r.depends_on, extras.unsealed) : "depends on no issue"].join("\n");
}

export function renderModel(p: Plan): string {
  const failures = p.findings.filter((f) => f.level === "FAIL").length;
  return [
    `${p.project.name || "(unnamed project)"}: ${p.milestones.length} milestone(s), ${p.issues.length} issue(s), ${p.waves.length} wave(s)`,
    `active milestone: ${p.project.active_milestone || "none"}`,
    `findings: ${failures} failure(s), ${p.findings.length - failures} warning(s)`,
    "",
    table(
      p.milestones.map((m) => [m.id, m.status, String(m.rank), done(m), m.title]),
      ["MILESTONE", "STATUS", "RANK", "DONE", "TITLE"],
    ),
    "",
    issueRows(p.issues),
  ].join("\n");
}
