// Each issue's own facts, read from its record (reused where the record is unchanged), and the
// graph of dependencies between issues (Phase A).
import type { IssueRecord } from "../records";
import type { PlanEdge, PlanFinding, PlanIssue } from "../shapes";
import { compareBytes } from "../text";
import { dependentsOf } from "../waves";
import { NONE, NO_FINDINGS, NO_INDICES, fail, inIdOrder, indexOf, isCovered, warn } from "./common";
import { localFindings } from "./findings";
import type { IssueFacts } from "./facts";
import { type Kept, type LastRead, STAMPED, type SealChecks, isProvenBy } from "./memory";

/**
 * The issues' local facts (§2.2, §2.3) and dependency graph (§3.1), read in one pass over the
 * records. Indices are positions in id order. The graph is held in flat lists (one array each,
 * not one per issue): `eff`, from effStart[i] to effStart[i + 1], the issues i depends on in
 * declared order, duplicates kept (the status pass lists each occurrence); `uniq`, the same
 * without duplicates (the edges); `after`, from afterStart[j] to afterStart[j + 1], who depends on
 * j, each once, in id order.
 */
export interface IssueGraph {
  n: number;
  ids: string[];
  /** The moves whose stamp is set and proven, as bits (STAMPED[move]). */
  stamped: Uint8Array;
  done: Uint8Array;
  cancelled: Uint8Array;
  /** Each issue's milestone as an index (-1: none or unknown). */
  milestoneOf: Int32Array;
  effStart: Int32Array;
  eff: Int32Array;
  uniqStart: Int32Array;
  afterStart: Int32Array;
  after: Int32Array;
}

/** The derived issue of a record, before status, wave, blocked_by and dependents (field order of §7). */
function newPlanIssue(iss: IssueRecord, id: string): PlanIssue {
  return {
    id,
    milestone: iss.milestone,
    status: "READY",
    wave: 0,
    priority: iss.priority,
    profile: iss.profile,
    parallel_safe: iss.parallel_safe,
    title: iss.title,
    slug: iss.slug,
    depends_on: iss.depends_on,
    blocked_by: NONE,
    dependents: NONE,
    scope: iss.scope,
    serves: iss.serves,
    objective: iss.objective,
    evidence_have: iss.covers.length,
    evidence_need: iss.evidence_required.length,
    started_at: iss.started_at,
    verified_at: iss.verified_at,
    completed_at: iss.completed_at,
  };
}

/** A copy of a derived issue, field by field (one shape for every derived issue). */
function copyPlanIssue(p: PlanIssue): PlanIssue {
  return {
    id: p.id,
    milestone: p.milestone,
    status: p.status,
    wave: p.wave,
    priority: p.priority,
    profile: p.profile,
    parallel_safe: p.parallel_safe,
    title: p.title,
    slug: p.slug,
    depends_on: p.depends_on,
    blocked_by: p.blocked_by,
    dependents: p.dependents,
    scope: p.scope,
    serves: p.serves,
    objective: p.objective,
    evidence_have: p.evidence_have,
    evidence_need: p.evidence_need,
    started_at: p.started_at,
    verified_at: p.verified_at,
    completed_at: p.completed_at,
  };
}

/** The moves whose stamp is set and proven, as bits (STAMPED[move]). */
function provenStamps(iss: IssueRecord, checks: SealChecks | undefined): number {
  let bits = 0;
  if (iss.started_at !== "" && isProvenBy(checks, iss, "start")) bits |= STAMPED.start;
  if (iss.verified_at !== "" && isProvenBy(checks, iss, "verify")) bits |= STAMPED.verify;
  if (iss.completed_at !== "" && isProvenBy(checks, iss, "done")) bits |= STAMPED.done;
  return bits;
}


/**
 * The issue records in id order, with their ids (the last derivation's where the record is the
 * same object at the same position; only the pairs that involve a new record are compared) and
 * whether the ids are the last derivation's.
 */
export function issuesInIdOrder(
  list: readonly IssueRecord[],
  last: LastRead | undefined,
): { list: IssueRecord[]; ids: string[]; sameIds: boolean } {
  if (last === undefined || last.records.length !== list.length) return { ...inIdOrder(list), sameIds: false };
  const ids = new Array<string>(list.length);
  let sameIds = true;
  let previousNew = false;
  for (let i = 0; i < list.length; i++) {
    const isNew = list[i] !== last.records[i];
    ids[i] = isNew ? list[i].id : last.ids[i];
    if (isNew && ids[i] !== last.ids[i]) sameIds = false;
    if (i > 0 && (isNew || previousNew) && compareBytes(ids[i - 1], ids[i]) > 0) return { ...inIdOrder(list), sameIds: false };
    previousNew = isNew;
  }
  return { list: list as IssueRecord[], ids, sameIds };
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Local facts, graph and Phase A: each record's facts (reused where it is unchanged), joined. */
export function readIssues(
  issues: readonly IssueRecord[],
  ids: string[],
  sameIds: boolean,
  milestoneIds: readonly string[],
  milestoneIndex: ReadonlyMap<string, number>,
  planIssues: PlanIssue[],
  findings: PlanFinding[],
  kept: Kept | undefined,
): IssueGraph {
  const n = issues.length;
  const last = sameIds ? kept?.last : undefined;
  const checks = kept?.sealChecks;
  // Where readIssue collects one issue's findings (emptied into its facts each time).
  const found: PlanFinding[] = [];
  const issueIndex = last?.index ?? indexOf(ids);
  const reusable = last !== undefined && sameStrings(last.milestoneIds, milestoneIds);
  const facts = new Array<IssueFacts>(n);
  const stamped = new Uint8Array(n);
  const done = new Uint8Array(n);
  const cancelled = new Uint8Array(n);
  const milestoneOf = new Int32Array(n);
  let effCount = 0;
  let uniqCount = 0;
  for (let i = 0; i < n; i++) {
    let f: IssueFacts;
    if (reusable && issues[i] === last.records[i]) {
      f = last.facts[i];
      planIssues[i] = copyPlanIssue(f.issue);
    } else {
      f = readIssue(issues[i], ids[i], i, issueIndex, milestoneIndex, checks, found);
      planIssues[i] = f.issue;
    }
    facts[i] = f;
    stamped[i] = f.bits;
    cancelled[i] = f.cancelled ? 1 : 0;
    done[i] = f.done ? 1 : 0;
    milestoneOf[i] = f.milestone;
    effCount += f.eff.length;
    uniqCount += f.uniq.length;
    const ff = f.findings;
    for (let k = 0; k < ff.length; k++) findings.push(ff[k]);
  }
  // The flat lists, made at their size once the counts are known (typed: no growing, nothing
  // for the collector to copy).
  const effStart = new Int32Array(n + 1);
  const uniqStart = new Int32Array(n + 1);
  const eff = new Int32Array(effCount);
  const uniq = new Int32Array(uniqCount);
  for (let i = 0, e = 0, u = 0; i < n; i++) {
    const f = facts[i];
    effStart[i] = e;
    uniqStart[i] = u;
    const fe = f.eff;
    for (let k = 0; k < fe.length; k++) eff[e++] = fe[k];
    const fu = f.uniq;
    for (let k = 0; k < fu.length; k++) uniq[u++] = fu[k];
  }
  effStart[n] = effCount;
  uniqStart[n] = uniqCount;
  // A copy of the list: a caller may replace an element of its own list and derive again.
  if (kept !== undefined) kept.last = { records: issues.slice(), ids, index: issueIndex, milestoneIds, facts };
  // Who depends on j, each once, in index order (which is id order).
  const { afterStart, after } = dependentsOf(uniqStart, uniq);
  return { n, ids, stamped, done, cancelled, milestoneOf, effStart, eff, uniqStart, afterStart, after };
}

/** The facts of the issue at index i, read from its record. */
function readIssue(
  iss: IssueRecord,
  id: string,
  i: number,
  issueIndex: ReadonlyMap<string, number>,
  milestoneIndex: ReadonlyMap<string, number>,
  checks: SealChecks | undefined,
  found: PlanFinding[],
): IssueFacts {
  const bits = provenStamps(iss, checks);
  const isCancelled = iss.cancelled;
  // Coverage is read only for a proven completion: it decides DONE (or evidence_missing).
  const isDone = !isCancelled && (bits & STAMPED.done) !== 0 && isCovered(iss.evidence_required, iss.covers);
  const m = milestoneIndex.get(iss.milestone) ?? -1;
  let eff = NO_INDICES as number[];
  let uniq = NO_INDICES as number[];
  const deps = iss.depends_on;
  // Duplicates are looked up in the short list itself; a long one gets a set.
  let seen: Set<number> | undefined;
  for (let k = 0; k < deps.length; k++) {
    const d = deps[k];
    // Ids are unique, so naming itself is resolving to its own index (no string comparison).
    const j = issueIndex.get(d);
    if (j === i) {
      found.push(fail("self_dependency", id, "depends on itself"));
      continue;
    }
    if (j === undefined) {
      found.push(fail("unknown_dependency", id, `depends on ${d}, which is not an issue`));
      continue;
    }
    // `uniq` is `eff` itself until the first duplicate, then a list of its own.
    const duplicate = deps.length <= 16 ? uniq.includes(j) : (seen ??= new Set(uniq)).has(j);
    if (eff === NO_INDICES) uniq = eff = [];
    else if (duplicate && uniq === eff) uniq = eff.slice();
    eff.push(j);
    if (duplicate) {
      found.push(warn("duplicate_dependency", id, `names ${d} more than once`));
      continue;
    }
    if (uniq !== eff) uniq.push(j);
    seen?.add(j);
  }
  localFindings(iss, id, bits, isDone, m >= 0, found);
  return {
    bits,
    cancelled: isCancelled,
    done: isDone,
    milestone: m,
    eff,
    uniq,
    findings: found.length === 0 ? NO_FINDINGS : found.splice(0),
    issue: newPlanIssue(iss, id),
  };
}

/** Each issue's dependents and the edges, sorted by (from, to) as they come out of `after`. */
export function linkDependents(graph: IssueGraph, planIssues: PlanIssue[]): PlanEdge[] {
  const { n, ids, afterStart, after } = graph;
  const edges: PlanEdge[] = new Array(after.length);
  for (let j = 0, e = 0; j < n; j++) {
    const start = afterStart[j];
    const count = afterStart[j + 1] - start;
    if (count === 0) {
      // A copied issue carries the list of the plan it was copied from.
      planIssues[j].dependents = NONE;
      continue;
    }
    const from = ids[j];
    const list: string[] = new Array(count);
    for (let k = 0; k < count; k++) {
      const to = ids[after[start + k]];
      list[k] = to;
      edges[e++] = { from, to };
    }
    planIssues[j].dependents = list;
  }
  return edges;
}
