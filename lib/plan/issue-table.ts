import { priorityRank } from "./next-issue";
import type { Plan } from "./shapes";

// The issues as a table (docs/browser.md, /issues): one row per issue with what a lead sorts,
// groups and filters by, and the view itself as the address's query (a link shares it).

export interface IssueRow {
  id: string;
  title: string;
  status: string;
  owner: string;
  milestone: string;
  priority: string;
  wave: number;
  /** What it waits on (blocked_by). */
  waits: string[];
  branches: number;
  merged: boolean;
  /** Seconds in its status since its last stamp; null when no stamp says (READY, BLOCKED). */
  age_s: number | null;
}

export const COLUMNS = ["id", "title", "status", "owner", "milestone", "priority", "wave", "waits", "code", "age"] as const;
export type Column = (typeof COLUMNS)[number];
export const GROUPS = ["status", "owner", "milestone", "wave"] as const;
export type Group = (typeof GROUPS)[number];

export interface TableView {
  q: string;
  status?: string;
  /** "" is nobody's issues. */
  owner?: string;
  milestone?: string;
  wave?: number;
  priority?: string;
  sort: Column;
  dir: "asc" | "desc";
  group?: Group;
}

const STATUS_ORDER = ["ACTIVE", "VERIFY", "READY", "BLOCKED", "DONE", "CANCELLED"];
/** The owner filter's word for the issues nobody owns. */
export const NOBODY = "(nobody)";

/** The rows of a plan: `owners` by issue id, `code` the linked branches and merges by issue id. */
export function issueRows(plan: Plan, owners: ReadonlyMap<string, string>, code: ReadonlyMap<string, { branches: number; merged: boolean }>, now = Date.now()): IssueRow[] {
  return plan.issues.map((i) => {
    const stamp = i.status === "ACTIVE" ? i.started_at : i.status === "VERIFY" ? i.verified_at : i.status === "DONE" ? i.completed_at : "";
    const at = stamp === "" ? NaN : Date.parse(stamp);
    return {
      id: i.id,
      title: i.title,
      status: i.status,
      owner: owners.get(i.id) ?? "",
      milestone: i.milestone,
      priority: i.priority,
      wave: i.wave,
      waits: i.blocked_by,
      branches: code.get(i.id)?.branches ?? 0,
      merged: code.get(i.id)?.merged ?? false,
      age_s: Number.isNaN(at) ? null : Math.max(0, Math.round((now - at) / 1000)),
    };
  });
}

const one = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);
const member = <T extends string>(list: readonly T[], v: string | undefined): T | undefined => (list as readonly string[]).includes(v ?? "") ? (v as T) : undefined;

/** The view an address asks for; what it does not name (or names wrongly) is the default. */
export function parseView(params: Record<string, string | string[] | undefined>): TableView {
  const wave = one(params.wave);
  return {
    q: (one(params.q) ?? "").slice(0, 200),
    ...(one(params.status) ? { status: one(params.status)!.toUpperCase() } : {}),
    // "(nobody)" asks for the issues with no owner; nothing (or empty) for anyone's.
    ...(one(params.owner) ? { owner: one(params.owner) === NOBODY ? "" : one(params.owner)! } : {}),
    ...(one(params.milestone) ? { milestone: one(params.milestone)! } : {}),
    ...(wave !== undefined && /^[0-9]{1,6}$/.test(wave) ? { wave: Number(wave) } : {}),
    ...(one(params.priority) ? { priority: one(params.priority)! } : {}),
    sort: member(COLUMNS, one(params.sort)) ?? "id",
    dir: one(params.dir) === "desc" ? "desc" : "asc",
    ...(member(GROUPS, one(params.group)) ? { group: member(GROUPS, one(params.group))! } : {}),
  };
}

/** The address's query of a view, with `change` applied: what is default is left out, so links stay short. */
export function viewQuery(view: TableView, change: Partial<TableView> = {}): string {
  const v = { ...view, ...change };
  const p = new URLSearchParams();
  if (v.q) p.set("q", v.q);
  for (const k of ["status", "milestone", "priority"] as const) if (v[k] !== undefined) p.set(k, v[k]!);
  if (v.owner !== undefined) p.set("owner", v.owner === "" ? NOBODY : v.owner);
  if (v.wave !== undefined) p.set("wave", String(v.wave));
  if (v.sort !== "id") p.set("sort", v.sort);
  if (v.dir !== "asc") p.set("dir", v.dir);
  if (v.group) p.set("group", v.group);
  return p.toString();
}

/** The rows the view keeps: every filter, and every word of `q` in the id, title, owner or milestone. */
export function filterRows(rows: readonly IssueRow[], view: TableView): IssueRow[] {
  const words = view.q.toLowerCase().split(/\s+/).filter(Boolean);
  return rows.filter(
    (r) =>
      (view.status === undefined || r.status === view.status) &&
      (view.owner === undefined || r.owner === view.owner) &&
      (view.milestone === undefined || r.milestone === view.milestone) &&
      (view.wave === undefined || r.wave === view.wave) &&
      (view.priority === undefined || r.priority === view.priority) &&
      words.every((w) => `${r.id} ${r.title} ${r.owner} ${r.milestone}`.toLowerCase().includes(w)),
  );
}

const text = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function compare(a: IssueRow, b: IssueRow, column: Column): number {
  switch (column) {
    case "status":
      return STATUS_ORDER.indexOf(a.status) - STATUS_ORDER.indexOf(b.status);
    case "priority":
      return priorityRank(a.priority) - priorityRank(b.priority);
    case "wave":
      return a.wave - b.wave;
    case "waits":
      return a.waits.length - b.waits.length;
    case "code":
      return a.branches - b.branches || Number(a.merged) - Number(b.merged);
    case "age":
      return (a.age_s ?? -1) - (b.age_s ?? -1);
    case "owner":
      // Nobody's last, whichever the direction is read in.
      return a.owner === "" || b.owner === "" ? Number(a.owner === "") - Number(b.owner === "") : text(a.owner, b.owner);
    default:
      return text(a[column], b[column]);
  }
}

/** The rows in the view's order; ties by id. */
export function sortRows(rows: readonly IssueRow[], view: Pick<TableView, "sort" | "dir">): IssueRow[] {
  const sign = view.dir === "desc" ? -1 : 1;
  return [...rows].sort((a, b) => sign * compare(a, b, view.sort) || text(a.id, b.id));
}

/** The rows in groups by the view's field, in that field's order; one group of every row without one. */
export function groupRows(rows: readonly IssueRow[], group: Group | undefined): { key: string; rows: IssueRow[] }[] {
  if (!group) return [{ key: "", rows: [...rows] }];
  const out = new Map<string, IssueRow[]>();
  for (const r of rows) {
    const key = group === "wave" ? String(r.wave) : r[group] || NOBODY;
    out.set(key, [...(out.get(key) ?? []), r]);
  }
  const order = (k: string) => (group === "status" ? STATUS_ORDER.indexOf(k) : group === "wave" ? Number(k) : 0);
  return [...out].map(([key, rs]) => ({ key, rows: rs })).sort((a, b) => order(a.key) - order(b.key) || text(a.key, b.key));
}
