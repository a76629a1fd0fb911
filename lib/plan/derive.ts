import { ISSUE_STATUSES, MILESTONE_STATUSES, SEALED_FROM, type FindingCode, type IssueStatus, type MilestoneStatus } from "./constants";
import type { IssueRecord, MilestoneRecord, PlanRecords } from "./records";
import { findScopeConflicts } from "./scope";
import { MOVES, MOVE_NAMES, sealOf, type Move } from "./seal";
import type { Plan, PlanCounts, PlanEdge, PlanFinding, PlanIssue, PlanMilestone, PlanWave } from "./shapes";
import { compareBytes } from "./text";
import { dependentsOf, layerByDependencies, layerFlat } from "./waves";

const fail = (code: FindingCode, subject: string, message: string): PlanFinding => ({ level: "FAIL", code, subject, message });
const warn = (code: FindingCode, subject: string, message: string): PlanFinding => ({ level: "WARN", code, subject, message });

/**
 * The empty list every issue without dependents or blockers shares (frozen: the derived plan is
 * read, never changed; a write to it throws instead of changing every issue at once).
 */
const NONE = Object.freeze([]) as readonly string[] as string[];

const byId = <T extends { id: string }>(a: T, b: T) => compareBytes(a.id, b.id);

/**
 * Records in id order, with their ids alongside (read once: the later passes use `ids`). The loader
 * already gives them so, and a sorted list is only checked.
 */
function inIdOrder<T extends { id: string }>(list: readonly T[]): { list: T[]; ids: string[] } {
  const ids = new Array<string>(list.length);
  for (let i = 0; i < list.length; i++) {
    ids[i] = list[i].id;
    if (i > 0 && compareBytes(ids[i - 1], ids[i]) > 0) {
      const sorted = [...list].sort(byId);
      return { list: sorted, ids: sorted.map((r) => r.id) };
    }
  }
  return { list: list as T[], ids };
}

// A seal depends only on (event, id, stamp). Records the last derivation read are not checked
// again (see `LastRead`), but a record read anew often has the same stamps (an edit of another
// field, or every record once an issue is added or removed), so a memory keeps each issue's last
// check, keyed by id and validated by the strings it was computed from. Bounded.
interface SealCheck {
  stamp: string;
  seal: string;
  ok: boolean;
}
type SealChecks = Map<string, [SealCheck | undefined, SealCheck | undefined, SealCheck | undefined]>;
const MOVE_SLOT = { start: 0, verify: 1, done: 2 } as const;
const STAMPED = { start: 1, verify: 2, done: 4 } as const;

function sealMatches(checks: SealChecks | undefined, id: string, move: Move, stamp: string, seal: string): boolean {
  if (checks === undefined) return seal === sealOf(MOVES[move].event, id, stamp);
  let slots = checks.get(id);
  if (slots === undefined) {
    if (checks.size > 500_000) checks.clear();
    slots = [undefined, undefined, undefined];
    checks.set(id, slots);
  }
  const slot = MOVE_SLOT[move];
  const last = slots[slot];
  if (last !== undefined && last.stamp === stamp && last.seal === seal) return last.ok;
  const ok = seal === sealOf(MOVES[move].event, id, stamp);
  slots[slot] = { stamp, seal, ok };
  return ok;
}

function indexOf(ids: readonly string[]): Map<string, number> {
  const index = new Map<string, number>();
  for (let i = 0; i < ids.length; i++) index.set(ids[i], i);
  return index;
}

/** Whether a stamp counts (§2.2): empty, sealed by its event, or a listed pre-seal stamp. */
export function isProven(issue: IssueRecord, move: Move): boolean {
  return isProvenBy(undefined, issue, move);
}

function isProvenBy(checks: SealChecks | undefined, issue: IssueRecord, move: Move): boolean {
  const { field, seal } = MOVES[move];
  const stamp = issue[field];
  if (stamp === "") return true;
  const recorded = issue[seal];
  if (recorded !== "" && sealMatches(checks, issue.id, move, stamp, recorded)) return true;
  return compareBytes(stamp, SEALED_FROM) < 0 && listsStamp(issue.unsealed_stamps, field, stamp);
}

/** Whether `unsealed` holds the entry `<field> <stamp>` (compared in place, without building it). */
function listsStamp(unsealed: readonly string[], field: string, stamp: string): boolean {
  const length = field.length + 1 + stamp.length;
  for (let k = 0; k < unsealed.length; k++) {
    const u = unsealed[k];
    if (u.length === length && u.charCodeAt(field.length) === 32 && u.startsWith(field) && u.endsWith(stamp)) return true;
  }
  return false;
}

/** Whether every required token is among the covers (set membership; an empty list is covered). */
function isCovered(required: readonly string[], covers: readonly string[]): boolean {
  if (required.length === 0) return true;
  // Lists are short: a scan beats building a set.
  if (covers.length <= 16) {
    for (let k = 0; k < required.length; k++) if (!covers.includes(required[k])) return false;
    return true;
  }
  const have = new Set(covers);
  for (let k = 0; k < required.length; k++) if (!have.has(required[k])) return false;
  return true;
}

function missingTokens(required: readonly string[], covers: readonly string[]): string[] {
  const have = new Set(covers);
  return required.filter((t) => !have.has(t));
}

function emptyCounts(): PlanCounts {
  // Keys in the reference's serialisation order (a BTreeMap: alphabetical).
  return { total: 0, required: 0, by_status: { ACTIVE: 0, BLOCKED: 0, CANCELLED: 0, DONE: 0, READY: 0, VERIFY: 0 } };
}

/** Counts of issue statuses (§2.8). */
export function countStatuses(statuses: Iterable<string>): PlanCounts {
  const counts = emptyCounts();
  for (const s of statuses) {
    counts.total++;
    counts.by_status[s] = (counts.by_status[s] ?? 0) + 1;
  }
  counts.required = counts.total - (counts.by_status.CANCELLED ?? 0);
  return counts;
}

/** Counts of the statuses of the issues at `members` (§2.8). */
function countMembers(members: readonly number[], status: readonly IssueStatus[]): PlanCounts {
  const counts = emptyCounts();
  for (const i of members) counts.by_status[status[i]]++;
  counts.total = members.length;
  counts.required = counts.total - counts.by_status.CANCELLED;
  return counts;
}

/**
 * The issues' local facts (§2.2, §2.3) and dependency graph (§3.1), read in one pass over the
 * records. Indices are positions in id order. The graph is held in flat lists (one array each,
 * not one per issue): `eff`, from effStart[i] to effStart[i + 1], the issues i depends on in
 * declared order, duplicates kept (the status pass lists each occurrence); `uniq`, the same
 * without duplicates (the edges); `after`, from afterStart[j] to afterStart[j + 1], who depends on
 * j, each once, in id order.
 */
interface IssueGraph {
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

/** The finding phases of the engine, each a list, concatenated in this order (§6). */
interface Phases {
  A: PlanFinding[];
  B: PlanFinding[];
  C: PlanFinding[];
  D: PlanFinding[];
  E: PlanFinding[];
  F: PlanFinding[];
  G: PlanFinding[];
  H: PlanFinding[];
  I: PlanFinding[];
  J: PlanFinding[];
  K: PlanFinding[];
}

/**
 * Derive the whole plan from its records (plan-semantics §2-§5): statuses, the milestone gate,
 * waves, ranks, edges, the active milestone and every finding in emission order, after the load
 * findings. Pure: the same records in any order give the same plan. Given a memory, it reuses what
 * it kept there from the last derivation (the id index, the seal checks, the facts of the records
 * it read last), checked before use: that never changes an answer, only how much is read again.
 * Without one it derives from scratch and keeps nothing.
 *
 * Each phase is a function of its own: small functions are optimised early and separately, and a
 * phase that meets a new shape loses only its own optimised code.
 */
export function derivePlan(records: PlanRecords, memory?: DerivationMemory): Plan {
  const kept = memory === undefined ? undefined : keptIn(memory);
  const { list: issues, ids, sameIds } = issuesInIdOrder(records.issues, kept?.last);
  const { list: milestones, ids: milestoneIds } = inIdOrder(records.milestones);
  const mCount = milestones.length;
  const milestoneIndex = indexOf(milestoneIds);
  const phase: Phases = { A: [], B: [], C: [], D: [], E: [], F: [], G: [], H: [], I: [], J: [], K: [] };

  // The derived issues are made while each record is at hand; the later passes fill in status,
  // wave, blocked_by and dependents.
  const planIssues: PlanIssue[] = new Array(issues.length);
  const graph = readIssues(issues, ids, sameIds, milestoneIds, milestoneIndex, planIssues, phase.A, kept);
  const edges = linkDependents(graph, planIssues);
  const { layer: waveOf, waves } = issueWaves(graph, phase.B);
  const { status, blockedBy } = firstIssueStatus(graph, phase.C);

  const members = membersOf(graph, mCount);
  const { mStatus, counts } = firstMilestoneStatus(milestones, members, status, phase.F);
  const mGraph = milestoneGraph(milestones, milestoneIndex, phase.D);
  const rank = milestoneRanks(milestones, mGraph.deps, phase.E);
  const block = applyGate(milestones, milestoneIndex, mGraph.dependsOn, rank, mStatus, phase.G);
  emptyMilestones(milestones, mStatus, counts, block, phase.H);
  gateIssues(graph, milestones, block, status, blockedBy, phase.I);
  for (let m = 0; m < mCount; m++) {
    if (block[m].length > 0) counts[m] = countMembers(members[m], status);
  }
  scopeFindings(issues, status, waveOf, phase.J);
  vocabularyGuard(ids, status, milestones, mStatus, phase.K);

  for (let i = 0; i < graph.n; i++) {
    const out = planIssues[i];
    out.status = status[i];
    out.wave = waveOf[i] < 0 ? 0 : waveOf[i];
    out.blocked_by = blockedBy[i];
  }
  const planMilestones: PlanMilestone[] = milestones.map((ms, m) => ({
    id: ms.id,
    status: mStatus[m],
    order: ms.order,
    priority: ms.priority,
    title: ms.title,
    slug: ms.slug,
    version: ms.version,
    rank: rank[m],
    depends_on: mGraph.dependsOn[m],
    blocked_by: block[m],
    dependents: mGraph.dependents[m],
    claims: ms.claims,
    counts: counts[m],
    issues: members[m].map((i) => ids[i]),
    outcome: ms.outcome,
  }));

  return {
    project: { ...records.project, active_milestone: pickActiveMilestone(milestones, mStatus, block, rank) },
    statuses: { issue: [...ISSUE_STATUSES], milestone: [...MILESTONE_STATUSES] },
    milestones: planMilestones,
    issues: planIssues,
    waves,
    edges,
    milestone_edges: mGraph.edges,
    findings: [
      ...records.loadFindings,
      ...phase.A,
      ...phase.B,
      ...phase.C,
      ...phase.D,
      ...phase.E,
      ...phase.F,
      ...phase.G,
      ...phase.H,
      ...phase.I,
      ...phase.J,
      ...phase.K,
    ],
  };
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
 * What one issue record gives by itself, read against a set of issue ids and milestone ids:
 * everything of Phase A that concerns this issue alone.
 */
interface IssueFacts {
  /** The moves whose stamp is set and proven, as bits (STAMPED[move]). */
  bits: number;
  cancelled: boolean;
  done: boolean;
  /** The milestone's index (-1: none or unknown). */
  milestone: number;
  /** The issues it depends on, in declared order, duplicates kept. */
  eff: readonly number[];
  /** The same without duplicates. */
  uniq: readonly number[];
  /** Its Phase A findings, in emission order. */
  findings: readonly PlanFinding[];
  /**
   * The derived issue before the later passes: the plan that read the record uses this object,
   * each later plan a copy of it (every field the later passes set is set again).
   */
  issue: PlanIssue;
}

const NO_INDICES = Object.freeze([]) as readonly number[];
const NO_FINDINGS = Object.freeze([]) as readonly PlanFinding[];

/**
 * The issue records of the last derivation (in id order), their id → index map, and what each
 * record gave. A record is a value: a changed file is read into a new record object (the loader,
 * the transitions and the editors all make new ones). So while the issue ids and the milestone ids
 * are the same, the map is the same and the same record object at the same position gives the
 * same facts: a server that derives again after one file changed reads that one record, not ten
 * thousand, and does not build a 10k-entry map again.
 */
interface LastRead {
  records: readonly IssueRecord[];
  ids: string[];
  index: Map<string, number>;
  milestoneIds: readonly string[];
  facts: IssueFacts[];
}

/** What a memory holds: the last derivation's reading and the seal checks. */
interface Kept {
  last: LastRead | undefined;
  sealChecks: SealChecks;
}

let keptIn: (memory: DerivationMemory) => Kept;

/**
 * What the derivations of one plan keep for the next one: the caller owns it (a server keeps one
 * per repository it serves; a one-shot command passes none). Only derivePlan reads or writes it,
 * and checks what it kept before each use, so a memory never changes an answer.
 */
export class DerivationMemory {
  private readonly kept: Kept = { last: undefined, sealChecks: new Map() };

  static {
    keptIn = (memory) => memory.kept;
  }
}

/**
 * The issue records in id order, with their ids (the last derivation's where the record is the
 * same object at the same position; only the pairs that involve a new record are compared) and
 * whether the ids are the last derivation's.
 */
function issuesInIdOrder(
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
function readIssues(
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

/** Phase A's findings about one issue apart from its dependencies, in emission order. */
function localFindings(
  iss: IssueRecord,
  id: string,
  bits: number,
  isDone: boolean,
  milestoneKnown: boolean,
  found: PlanFinding[],
): void {
  if (iss.milestone === "") found.push(fail("no_milestone", id, "names no milestone"));
  else if (!milestoneKnown) {
    found.push(fail("unknown_milestone", id, `names milestone ${iss.milestone}, which does not exist`));
  }
  const isCancelled = iss.cancelled;
  if (!isCancelled) {
    if (iss.acceptance_count === 0) {
      found.push(fail("no_acceptance", id, "has no acceptance criteria; an issue without one is a placeholder"));
    }
    if (iss.validation_count === 0) found.push(fail("no_validation", id, "names no validation command"));
    if (iss.evidence_required.length === 0) {
      found.push(warn("no_evidence_required", id, "requires no evidence; nothing gates its completion"));
    }
  }
  if (iss.started_at !== "" || iss.verified_at !== "" || iss.completed_at !== "") {
    for (const move of MOVE_NAMES) {
      const { field, seal, event, verb } = MOVES[move];
      const stamp = iss[field];
      if (stamp !== "" && !(bits & STAMPED[move])) {
        found.push(
          fail(
            "stamp_without_event",
            id,
            `${field} ${stamp} has no ${event} event: ${seal} is absent or does not seal it, and only \`majordomus plan ${verb}\` writes the stamp`,
          ),
        );
      }
    }
  }
  if (bits & STAMPED.done && !isDone && !isCancelled) {
    const missing = missingTokens(iss.evidence_required, iss.covers).join(",");
    found.push(warn("evidence_missing", id, `completed_at is set but evidence is missing for ${missing}; status stays VERIFY`));
  }
}

/** Each issue's dependents and the edges, sorted by (from, to) as they come out of `after`. */
function linkDependents(graph: IssueGraph, planIssues: PlanIssue[]): PlanEdge[] {
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

/** Waves (§3.2), Phase B. */
function issueWaves(graph: IssueGraph, findings: PlanFinding[]): { layer: Int32Array; waves: PlanWave[] } {
  const { n, ids, uniqStart, afterStart, after } = graph;
  const pending = new Int32Array(n);
  for (let i = 0; i < n; i++) pending[i] = uniqStart[i + 1] - uniqStart[i];
  const { layer, layers } = layerFlat(pending, afterStart, after);
  const waves: PlanWave[] = layers.map((members, k) => ({ wave: k, issues: members.map((i) => ids[i]) }));
  const unplaced: string[] = [];
  for (let i = 0; i < n; i++) if (layer[i] < 0) unplaced.push(ids[i]);
  if (unplaced.length > 0) {
    findings.push(
      fail("cycle", "graph", `a dependency cycle prevents these issues from ever becoming ready: ${unplaced.join(" ")}`),
    );
  }
  return { layer, waves };
}

/** Issue status, first pass (§2.4), Phase C. */
function firstIssueStatus(graph: IssueGraph, findings: PlanFinding[]): { status: IssueStatus[]; blockedBy: string[][] } {
  const { n, ids, eff, effStart, done, cancelled, stamped } = graph;
  const status = new Array<IssueStatus>(n);
  const blockedBy: string[][] = new Array(n);
  for (let i = 0; i < n; i++) {
    // Counted first, so each list is made at its size.
    let count = 0;
    for (let k = effStart[i]; k < effStart[i + 1]; k++) if (!done[eff[k]]) count++;
    let waiting = NONE;
    if (count > 0) {
      waiting = new Array<string>(count);
      for (let k = effStart[i], w = 0; k < effStart[i + 1]; k++) if (!done[eff[k]]) waiting[w++] = ids[eff[k]];
    }
    blockedBy[i] = waiting;
    let s: IssueStatus;
    if (cancelled[i]) s = "CANCELLED";
    else if (done[i]) s = "DONE";
    else if (stamped[i] & (STAMPED.done | STAMPED.verify)) s = "VERIFY";
    else if (stamped[i] & STAMPED.start) s = "ACTIVE";
    else if (waiting.length > 0) s = "BLOCKED";
    else s = "READY";
    status[i] = s;
    if (waiting.length > 0 && (s === "DONE" || s === "ACTIVE" || s === "VERIFY")) {
      findings.push(fail("premature_execution", ids[i], `is ${s} while ${waiting.join(",")} is not DONE`));
    }
  }
  return { status, blockedBy };
}

/** Each milestone's issues, in id order. */
function membersOf(graph: IssueGraph, mCount: number): number[][] {
  const members: number[][] = new Array(mCount);
  for (let m = 0; m < mCount; m++) members[m] = [];
  const { n, milestoneOf } = graph;
  for (let i = 0; i < n; i++) if (milestoneOf[i] >= 0) members[milestoneOf[i]].push(i);
  return members;
}

/** Milestone counts and first-pass status (§2.5), Phase F. */
function firstMilestoneStatus(
  milestones: readonly MilestoneRecord[],
  members: readonly number[][],
  status: readonly IssueStatus[],
  findings: PlanFinding[],
): { mStatus: MilestoneStatus[]; counts: PlanCounts[] } {
  const mCount = milestones.length;
  const mStatus = new Array<MilestoneStatus>(mCount);
  const counts = new Array<PlanCounts>(mCount);
  for (let m = 0; m < mCount; m++) {
    const ms = milestones[m];
    const c = countMembers(members[m], status);
    counts[m] = c;
    const mcov = isCovered(ms.evidence_required, ms.covers);
    const tot = c.total;
    const req = c.required;
    const nd = c.by_status.DONE;
    let s: MilestoneStatus;
    if (ms.cancelled) s = "CANCELLED";
    else if (ms.superseded_by !== "") s = "SUPERSEDED";
    else if (tot === 0 && ms.evidence_required.length > 0 && mcov) s = "DONE";
    else if (tot === 0) s = "PLANNED";
    else if (req > 0 && nd === req && mcov) s = "DONE";
    else if (req > 0 && nd === req) s = "VERIFY";
    else if (c.by_status.ACTIVE > 0 || c.by_status.VERIFY > 0 || nd > 0) s = "ACTIVE";
    else if (c.by_status.READY === 0) s = "BLOCKED";
    else s = "PLANNED";
    mStatus[m] = s;
    if (req > 0 && nd === req && !mcov) {
      const missing = missingTokens(ms.evidence_required, ms.covers).join(",");
      findings.push(
        warn(
          "milestone_evidence_missing",
          ms.id,
          `every issue is DONE but milestone evidence is missing for ${missing}; status stays VERIFY`,
        ),
      );
    }
  }
  return { mStatus, counts };
}

/** The milestone graph (§2.6), Phase D: valid dependencies, dependents and sorted edges. */
function milestoneGraph(
  milestones: readonly MilestoneRecord[],
  milestoneIndex: ReadonlyMap<string, number>,
  findings: PlanFinding[],
): { deps: number[][]; dependsOn: string[][]; dependents: string[][]; edges: PlanEdge[] } {
  const mCount = milestones.length;
  const deps: number[][] = new Array(mCount);
  const dependsOn: string[][] = new Array(mCount);
  const dependents: string[][] = Array.from({ length: mCount }, () => []);
  const edges: PlanEdge[] = [];
  for (let m = 0; m < mCount; m++) {
    const ms = milestones[m];
    const distinct: number[] = [];
    const valid: string[] = [];
    const seen = new Set<string>();
    for (const d of ms.depends_on) {
      if (d === ms.id) {
        findings.push(fail("milestone_self_dependency", ms.id, "requires itself"));
        continue;
      }
      const j = milestoneIndex.get(d);
      if (j === undefined) {
        findings.push(fail("milestone_unknown_dependency", ms.id, `requires ${d}, which is not a milestone here`));
        continue;
      }
      valid.push(d);
      if (seen.has(d)) {
        findings.push(warn("milestone_duplicate_dependency", ms.id, `requires ${d} more than once`));
        continue;
      }
      seen.add(d);
      distinct.push(j);
      edges.push({ from: d, to: ms.id });
      dependents[j].push(ms.id);
    }
    deps[m] = distinct;
    dependsOn[m] = valid;
  }
  edges.sort((a, b) => compareBytes(a.from, b.from) || compareBytes(a.to, b.to));
  return { deps, dependsOn, dependents, edges };
}

/** Milestone ranks (§3.3), Phase E: a milestone in or behind a cycle has rank 0. */
function milestoneRanks(milestones: readonly MilestoneRecord[], deps: number[][], findings: PlanFinding[]): number[] {
  const { layer } = layerByDependencies(deps);
  const cyclic: string[] = [];
  const rank = new Array<number>(milestones.length);
  for (let m = 0; m < milestones.length; m++) {
    rank[m] = layer[m] < 0 ? 0 : layer[m];
    if (layer[m] < 0) cyclic.push(milestones[m].id);
  }
  if (cyclic.length > 0) {
    findings.push(fail("milestone_cycle", cyclic.join(" "), "milestone dependencies form a cycle; no roadmap order exists"));
  }
  return rank;
}

/** The gate, in rank order (§2.6), Phase G: each milestone's unfinished dependencies. */
function applyGate(
  milestones: readonly MilestoneRecord[],
  milestoneIndex: ReadonlyMap<string, number>,
  dependsOn: readonly string[][],
  rank: readonly number[],
  mStatus: MilestoneStatus[],
  findings: PlanFinding[],
): string[][] {
  const gateOrder = milestones.map((_, m) => m).sort((a, b) => rank[a] - rank[b] || a - b);
  const block: string[][] = new Array(milestones.length);
  for (const m of gateOrder) {
    const waiting = dependsOn[m].filter((d) => mStatus[milestoneIndex.get(d)!] !== "DONE");
    block[m] = waiting;
    const s = mStatus[m];
    if (waiting.length > 0 && s !== "CANCELLED" && s !== "SUPERSEDED") {
      if (s === "DONE" || s === "VERIFY" || s === "ACTIVE") {
        findings.push(fail("milestone_premature", milestones[m].id, `is ${s} while ${waiting.join(",")} is not DONE`));
      }
      mStatus[m] = "BLOCKED";
    }
  }
  return block;
}

/** Empty milestones that nothing blocks, Phase H. */
function emptyMilestones(
  milestones: readonly MilestoneRecord[],
  mStatus: readonly MilestoneStatus[],
  counts: readonly PlanCounts[],
  block: readonly string[][],
  findings: PlanFinding[],
): void {
  for (let m = 0; m < milestones.length; m++) {
    const s = mStatus[m];
    if (counts[m].total === 0 && s !== "DONE" && s !== "CANCELLED" && s !== "SUPERSEDED" && block[m].length === 0) {
      findings.push(
        warn("empty_milestone", milestones[m].id, "is reachable and has no issues; it is an outcome nobody is executing"),
      );
    }
  }
}

/** The gate reaches the issues (§2.7), Phase I. */
function gateIssues(
  graph: IssueGraph,
  milestones: readonly MilestoneRecord[],
  block: readonly string[][],
  status: IssueStatus[],
  blockedBy: string[][],
  findings: PlanFinding[],
): void {
  const { n, ids, milestoneOf } = graph;
  const label: (string | undefined)[] = new Array(milestones.length);
  for (let i = 0; i < n; i++) {
    const m = milestoneOf[i];
    if (m < 0 || block[m].length === 0) continue;
    const s = status[i];
    if (s === "CANCELLED" || s === "DONE") continue;
    if (s === "ACTIVE" || s === "VERIFY") {
      findings.push(
        fail("premature_execution", ids[i], `is ${s} while its milestone ${milestones[m].id} waits on ${block[m].join(",")}`),
      );
    }
    status[i] = "BLOCKED";
    const before = blockedBy[i];
    const list = new Array<string>(before.length + 1);
    for (let k = 0; k < before.length; k++) list[k] = before[k];
    list[before.length] = label[m] ??= `milestone:${milestones[m].id}`;
    blockedBy[i] = list;
  }
}

/** Scope conflicts among the READY and ACTIVE issues of each wave (§5), Phase J. */
function scopeFindings(
  issues: readonly IssueRecord[],
  status: readonly IssueStatus[],
  waveOf: Int32Array,
  findings: PlanFinding[],
): void {
  const candidatesByWave = new Map<number, number[]>();
  for (let i = 0; i < issues.length; i++) {
    if (status[i] !== "READY" && status[i] !== "ACTIVE") continue;
    if (issues[i].scope.length === 0) continue;
    const w = waveOf[i];
    const list = candidatesByWave.get(w);
    if (list) list.push(i);
    else candidatesByWave.set(w, [i]);
  }
  const scopeOf = (i: number) => issues[i].scope;
  const conflicts = [...candidatesByWave.values()].flatMap((group) => findScopeConflicts(group, scopeOf));
  conflicts.sort((x, y) => x.a - y.a || x.b - y.b);
  for (const c of conflicts) {
    findings.push(
      warn("scope_conflict", issues[c.a].id, `shares ${c.path} with ${issues[c.b].id}; they may not run concurrently`),
    );
  }
}

/** The reconciliation guard, Phase K: every derived status is in its vocabulary. */
function vocabularyGuard(
  ids: readonly string[],
  status: readonly IssueStatus[],
  milestones: readonly MilestoneRecord[],
  mStatus: readonly MilestoneStatus[],
  findings: PlanFinding[],
): void {
  const issueVocabulary = new Set<string>(ISSUE_STATUSES);
  for (let i = 0; i < ids.length; i++) {
    if (!issueVocabulary.has(status[i])) {
      findings.push(fail("undeclared_status", ids[i], `is ${status[i]}, which the issue status vocabulary does not declare`));
    }
  }
  for (let m = 0; m < milestones.length; m++) {
    if (!(MILESTONE_STATUSES as readonly string[]).includes(mStatus[m])) {
      findings.push(
        fail("undeclared_status", milestones[m].id, `is ${mStatus[m]}, which the milestone status vocabulary does not declare`),
      );
    }
  }
}

/** §2.9: an unblocked ACTIVE milestone first, else any unblocked unfinished one; lowest rank·10⁶+order. */
function pickActiveMilestone(
  milestones: readonly MilestoneRecord[],
  status: readonly MilestoneStatus[],
  block: readonly string[][],
  rank: readonly number[],
): string {
  for (const onlyActive of [true, false]) {
    let best = -1;
    let bestKey = 0n;
    for (let m = 0; m < milestones.length; m++) {
      const s = status[m];
      if (s === "DONE" || s === "CANCELLED" || block[m].length > 0) continue;
      if (onlyActive && s !== "ACTIVE") continue;
      const key = BigInt(rank[m]) * 1_000_000n + (milestones[m].order_exact ?? BigInt(milestones[m].order));
      if (best < 0 || key < bestKey) {
        best = m;
        bestKey = key;
      }
    }
    if (best >= 0) return milestones[best].id;
  }
  return "";
}
