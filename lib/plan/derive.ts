import { ISSUE_STATUSES, MILESTONE_STATUSES, SEALED_FROM, type IssueStatus, type MilestoneStatus } from "./constants";
import type { IssueRecord, MilestoneRecord, PlanRecords } from "./records";
import { findScopeConflicts } from "./scope";
import { MOVES, MOVE_NAMES, sealOf, type Move } from "./seal";
import type { Plan, PlanCounts, PlanEdge, PlanFinding, PlanIssue, PlanMilestone, PlanWave } from "./shapes";
import { compareBytes } from "./text";
import { layerByDependencies, layerFlat } from "./waves";

const fail = (code: string, subject: string, message: string): PlanFinding => ({ level: "FAIL", code, subject, message });
const warn = (code: string, subject: string, message: string): PlanFinding => ({ level: "WARN", code, subject, message });

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

// The id → index map of the last derivation, reused while the ids are the same (a server derives
// again after each change, nearly always over the same issues): building a 10k-entry map costs
// more than the rest of a pass over the records.
let lastIndex: { ids: string[]; index: Map<string, number> } | undefined;

function indexOfIds(ids: string[]): Map<string, number> {
  const last = lastIndex;
  if (last && last.ids.length === ids.length) {
    let same = true;
    for (let i = 0; i < ids.length && same; i++) same = last.ids[i] === ids[i];
    if (same) return last.index;
  }
  const index = new Map<string, number>();
  for (let i = 0; i < ids.length; i++) index.set(ids[i], i);
  lastIndex = { ids, index };
  return index;
}

// A seal depends only on (event, id, stamp). A server derives again after every change, mostly
// over the same record strings, so each issue's last check is kept, keyed by id and validated by
// the strings it was computed from (a changed stamp or seal is checked again). Bounded.
interface SealCheck {
  stamp: string;
  seal: string;
  ok: boolean;
}
const sealChecks = new Map<string, [SealCheck | undefined, SealCheck | undefined, SealCheck | undefined]>();
const MOVE_SLOT = { start: 0, verify: 1, done: 2 } as const;
const STAMPED = { start: 1, verify: 2, done: 4 } as const;

function sealMatches(id: string, move: Move, stamp: string, seal: string): boolean {
  let slots = sealChecks.get(id);
  if (slots === undefined) {
    if (sealChecks.size > 500_000) sealChecks.clear();
    slots = [undefined, undefined, undefined];
    sealChecks.set(id, slots);
  }
  const slot = MOVE_SLOT[move];
  const last = slots[slot];
  if (last !== undefined && last.stamp === stamp && last.seal === seal) return last.ok;
  const ok = seal === sealOf(MOVES[move].event, id, stamp);
  slots[slot] = { stamp, seal, ok };
  return ok;
}

/** Whether a stamp counts (§2.2): empty, sealed by its event, or a listed pre-seal stamp. */
export function isProven(issue: IssueRecord, move: Move): boolean {
  const { field, seal } = MOVES[move];
  const stamp = issue[field];
  if (stamp === "") return true;
  const recorded = issue[seal];
  if (recorded !== "" && sealMatches(issue.id, move, stamp, recorded)) return true;
  return compareBytes(stamp, SEALED_FROM) < 0 && issue.unsealed_stamps.includes(`${field} ${stamp}`);
}

/** Whether every required token is among the covers (set membership; an empty list is covered). */
function isCovered(required: readonly string[], covers: readonly string[]): boolean {
  if (required.length === 0) return true;
  // Lists are short: a scan beats building a set.
  if (covers.length <= 16) return required.every((t) => covers.includes(t));
  const have = new Set(covers);
  return required.every((t) => have.has(t));
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
 * Derive the whole plan from its records (plan-semantics §2-§5): statuses, the milestone gate,
 * waves, ranks, edges, the active milestone and every finding in emission order, after the load
 * findings. Pure: the same records in any order give the same plan.
 */
export function derivePlan(records: PlanRecords): Plan {
  const { list: issues, ids } = inIdOrder(records.issues);
  const { list: milestones } = inIdOrder(records.milestones);
  const n = issues.length;
  const mCount = milestones.length;

  const issueIndex = indexOfIds(ids);
  const milestoneIndex = new Map<string, number>();
  for (let m = 0; m < mCount; m++) milestoneIndex.set(milestones[m].id, m);

  // ---- issue local facts (§2.2, §2.3) and graph (§3.1), Phase A, in one pass over the records
  // `stamped[i]`: the moves whose stamp is set and proven, as bits (STAMPED[move]).
  const stamped = new Uint8Array(n);
  const done = new Uint8Array(n);
  const covered = new Uint8Array(n);
  const cancelled = new Uint8Array(n);
  // Each issue's milestone as an index (-1: none or unknown), resolved once for every pass.
  const milestoneOf = new Int32Array(n);
  // The graph as flat lists (one array each, not one per issue): `eff`, from effStart[i] to
  // effStart[i + 1], the issues i depends on in declared order, duplicates kept (the status pass
  // lists each occurrence); `uniq`, the same without duplicates (the edges).
  const effStart = new Int32Array(n + 1);
  const uniqStart = new Int32Array(n + 1);
  const eff: number[] = [];
  const uniq: number[] = [];
  const dependentCount = new Int32Array(n);
  const seenBy = new Int32Array(n).fill(-1);
  const phaseA: PlanFinding[] = [];
  // The derived issues are made while each record is at hand; the later passes fill in status,
  // wave, blocked_by and dependents (placeholders keep the field order of §7).
  const planIssues: PlanIssue[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const iss = issues[i];
    const id = ids[i];
    planIssues[i] = {
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
    let bits = 0;
    if (iss.started_at !== "" && isProven(iss, "start")) bits |= STAMPED.start;
    if (iss.verified_at !== "" && isProven(iss, "verify")) bits |= STAMPED.verify;
    if (iss.completed_at !== "" && isProven(iss, "done")) bits |= STAMPED.done;
    stamped[i] = bits;
    const isCancelled = iss.cancelled;
    cancelled[i] = isCancelled ? 1 : 0;
    covered[i] = isCovered(iss.evidence_required, iss.covers) ? 1 : 0;
    done[i] = !isCancelled && bits & STAMPED.done && covered[i] ? 1 : 0;
    milestoneOf[i] = milestoneIndex.get(iss.milestone) ?? -1;

    effStart[i] = eff.length;
    uniqStart[i] = uniq.length;
    for (const d of iss.depends_on) {
      if (d === id) {
        phaseA.push(fail("self_dependency", id, "depends on itself"));
        continue;
      }
      const j = issueIndex.get(d);
      if (j === undefined) {
        phaseA.push(fail("unknown_dependency", id, `depends on ${d}, which is not an issue`));
        continue;
      }
      eff.push(j);
      if (seenBy[j] === i) {
        phaseA.push(warn("duplicate_dependency", id, `names ${d} more than once`));
        continue;
      }
      seenBy[j] = i;
      uniq.push(j);
      dependentCount[j]++;
    }

    if (iss.milestone === "") phaseA.push(fail("no_milestone", id, "names no milestone"));
    else if (milestoneOf[i] < 0) {
      phaseA.push(fail("unknown_milestone", id, `names milestone ${iss.milestone}, which does not exist`));
    }
    if (!isCancelled) {
      if (iss.acceptance_count === 0) {
        phaseA.push(fail("no_acceptance", id, "has no acceptance criteria; an issue without one is a placeholder"));
      }
      if (iss.validation_count === 0) phaseA.push(fail("no_validation", id, "names no validation command"));
      if (iss.evidence_required.length === 0) {
        phaseA.push(warn("no_evidence_required", id, "requires no evidence; nothing gates its completion"));
      }
    }
    if (iss.started_at !== "" || iss.verified_at !== "" || iss.completed_at !== "") {
      for (const move of MOVE_NAMES) {
        const { field, seal, event, verb } = MOVES[move];
        const stamp = iss[field];
        if (stamp !== "" && !(bits & STAMPED[move])) {
          phaseA.push(
            fail(
              "stamp_without_event",
              id,
              `${field} ${stamp} has no ${event} event: ${seal} is absent or does not seal it, and only \`majordomus plan ${verb}\` writes the stamp`,
            ),
          );
        }
      }
    }
    if (bits & STAMPED.done && !covered[i] && !isCancelled) {
      const missing = missingTokens(iss.evidence_required, iss.covers).join(",");
      phaseA.push(warn("evidence_missing", id, `completed_at is set but evidence is missing for ${missing}; status stays VERIFY`));
    }
  }
  effStart[n] = eff.length;
  uniqStart[n] = uniq.length;

  // Who depends on j, each once, in index order (which is id order): `after`, from afterStart[j]
  // to afterStart[j + 1]. The edges come out sorted by (from, to) without a sort.
  const afterStart = new Int32Array(n + 1);
  for (let j = 0; j < n; j++) afterStart[j + 1] = afterStart[j] + dependentCount[j];
  const after = new Int32Array(uniq.length);
  const fill = afterStart.slice(0, n);
  for (let i = 0; i < n; i++) for (let k = uniqStart[i]; k < uniqStart[i + 1]; k++) after[fill[uniq[k]]++] = i;
  const edges: PlanEdge[] = new Array(uniq.length);
  for (let j = 0, e = 0; j < n; j++) {
    const start = afterStart[j];
    const count = afterStart[j + 1] - start;
    if (count === 0) continue;
    const from = ids[j];
    const list: string[] = new Array(count);
    for (let k = 0; k < count; k++) {
      const to = ids[after[start + k]];
      list[k] = to;
      edges[e++] = { from, to };
    }
    planIssues[j].dependents = list;
  }

  // ---- waves (§3.2), Phase B
  const pending = new Int32Array(n);
  for (let i = 0; i < n; i++) pending[i] = uniqStart[i + 1] - uniqStart[i];
  const { layer: waveOf, layers } = layerFlat(pending, afterStart, after);
  const waves: PlanWave[] = layers.map((members, k) => ({ wave: k, issues: members.map((i) => ids[i]) }));
  const phaseB: PlanFinding[] = [];
  const unplaced: string[] = [];
  for (let i = 0; i < n; i++) if (waveOf[i] < 0) unplaced.push(ids[i]);
  if (unplaced.length > 0) {
    phaseB.push(
      fail("cycle", "graph", `a dependency cycle prevents these issues from ever becoming ready: ${unplaced.join(" ")}`),
    );
  }

  // ---- issue status, first pass (§2.4), Phase C
  const status = new Array<IssueStatus>(n);
  const blockedBy: string[][] = new Array(n);
  const phaseC: PlanFinding[] = [];
  for (let i = 0; i < n; i++) {
    let waiting = NONE;
    for (let k = effStart[i]; k < effStart[i + 1]; k++) {
      if (done[eff[k]]) continue;
      if (waiting === NONE) waiting = [];
      waiting.push(ids[eff[k]]);
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
      phaseC.push(fail("premature_execution", ids[i], `is ${s} while ${waiting.join(",")} is not DONE`));
    }
  }

  // ---- milestone membership and first-pass status (§2.5), Phase F
  const members: number[][] = new Array(mCount);
  for (let m = 0; m < mCount; m++) members[m] = [];
  for (let i = 0; i < n; i++) if (milestoneOf[i] >= 0) members[milestoneOf[i]].push(i);
  const mStatus = new Array<MilestoneStatus>(mCount);
  const counts = new Array<PlanCounts>(mCount);
  const phaseF: PlanFinding[] = [];
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
      phaseF.push(
        warn(
          "milestone_evidence_missing",
          ms.id,
          `every issue is DONE but milestone evidence is missing for ${missing}; status stays VERIFY`,
        ),
      );
    }
  }

  // ---- milestone graph (§2.6), Phase D; ranks (§3.3), Phase E
  const phaseD: PlanFinding[] = [];
  const mDeps: number[][] = new Array(mCount);
  const mDependsOn: string[][] = new Array(mCount);
  const mDependents: string[][] = Array.from({ length: mCount }, () => []);
  const milestoneEdges: PlanEdge[] = [];
  for (let m = 0; m < mCount; m++) {
    const ms = milestones[m];
    const deps: number[] = [];
    const valid: string[] = [];
    const seen = new Set<string>();
    for (const d of ms.depends_on) {
      if (d === ms.id) {
        phaseD.push(fail("milestone_self_dependency", ms.id, "requires itself"));
        continue;
      }
      const j = milestoneIndex.get(d);
      if (j === undefined) {
        phaseD.push(fail("milestone_unknown_dependency", ms.id, `requires ${d}, which is not a milestone here`));
        continue;
      }
      valid.push(d);
      if (seen.has(d)) {
        phaseD.push(warn("milestone_duplicate_dependency", ms.id, `requires ${d} more than once`));
        continue;
      }
      seen.add(d);
      deps.push(j);
      milestoneEdges.push({ from: d, to: ms.id });
      mDependents[j].push(ms.id);
    }
    mDeps[m] = deps;
    mDependsOn[m] = valid;
  }
  milestoneEdges.sort((a, b) => compareBytes(a.from, b.from) || compareBytes(a.to, b.to));
  const { layer: rankOf } = layerByDependencies(mDeps);
  const phaseE: PlanFinding[] = [];
  const cyclic: string[] = [];
  const rank = new Array<number>(mCount);
  for (let m = 0; m < mCount; m++) {
    rank[m] = rankOf[m] < 0 ? 0 : rankOf[m];
    if (rankOf[m] < 0) cyclic.push(milestones[m].id);
  }
  if (cyclic.length > 0) {
    phaseE.push(fail("milestone_cycle", cyclic.join(" "), "milestone dependencies form a cycle; no roadmap order exists"));
  }

  // ---- the gate, in rank order (§2.6), Phase G; empty milestones, Phase H
  const gateOrder = milestones.map((_, m) => m).sort((a, b) => rank[a] - rank[b] || a - b);
  const block: string[][] = new Array(mCount);
  const phaseG: PlanFinding[] = [];
  for (const m of gateOrder) {
    const waiting = mDependsOn[m].filter((d) => mStatus[milestoneIndex.get(d)!] !== "DONE");
    block[m] = waiting;
    const s = mStatus[m];
    if (waiting.length > 0 && s !== "CANCELLED" && s !== "SUPERSEDED") {
      if (s === "DONE" || s === "VERIFY" || s === "ACTIVE") {
        phaseG.push(fail("milestone_premature", milestones[m].id, `is ${s} while ${waiting.join(",")} is not DONE`));
      }
      mStatus[m] = "BLOCKED";
    }
  }
  const phaseH: PlanFinding[] = [];
  for (let m = 0; m < mCount; m++) {
    const s = mStatus[m];
    if (counts[m].total === 0 && s !== "DONE" && s !== "CANCELLED" && s !== "SUPERSEDED" && block[m].length === 0) {
      phaseH.push(
        warn("empty_milestone", milestones[m].id, "is reachable and has no issues; it is an outcome nobody is executing"),
      );
    }
  }

  // ---- the gate reaches the issues (§2.7), Phase I
  const phaseI: PlanFinding[] = [];
  for (let i = 0; i < n; i++) {
    const m = milestoneOf[i];
    if (m < 0 || block[m].length === 0) continue;
    const s = status[i];
    if (s === "CANCELLED" || s === "DONE") continue;
    if (s === "ACTIVE" || s === "VERIFY") {
      phaseI.push(
        fail(
          "premature_execution",
          ids[i],
          `is ${s} while its milestone ${milestones[m].id} waits on ${block[m].join(",")}`,
        ),
      );
    }
    status[i] = "BLOCKED";
    blockedBy[i] = [...blockedBy[i], `milestone:${milestones[m].id}`];
  }
  for (let m = 0; m < mCount; m++) {
    if (block[m].length > 0) counts[m] = countMembers(members[m], status);
  }

  // ---- scope conflicts (§5), Phase J
  const phaseJ: PlanFinding[] = [];
  const candidatesByWave = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
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
    phaseJ.push(
      warn("scope_conflict", issues[c.a].id, `shares ${c.path} with ${issues[c.b].id}; they may not run concurrently`),
    );
  }

  // ---- reconciliation guard, Phase K
  const phaseK: PlanFinding[] = [];
  const issueVocabulary = new Set<string>(ISSUE_STATUSES);
  for (let i = 0; i < n; i++) {
    if (!issueVocabulary.has(status[i])) {
      phaseK.push(fail("undeclared_status", ids[i], `is ${status[i]}, which the issue status vocabulary does not declare`));
    }
  }
  for (let m = 0; m < mCount; m++) {
    if (!(MILESTONE_STATUSES as readonly string[]).includes(mStatus[m])) {
      phaseK.push(
        fail("undeclared_status", milestones[m].id, `is ${mStatus[m]}, which the milestone status vocabulary does not declare`),
      );
    }
  }

  // ---- active milestone (§2.9)
  const activeMilestone = pickActiveMilestone(milestones, mStatus, block, rank);

  for (let i = 0; i < n; i++) {
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
    depends_on: mDependsOn[m],
    blocked_by: block[m],
    dependents: mDependents[m],
    claims: ms.claims,
    counts: counts[m],
    issues: members[m].map((i) => issues[i].id),
    outcome: ms.outcome,
  }));

  return {
    project: { ...records.project, active_milestone: activeMilestone },
    statuses: { issue: [...ISSUE_STATUSES], milestone: [...MILESTONE_STATUSES] },
    milestones: planMilestones,
    issues: planIssues,
    waves,
    edges,
    milestone_edges: milestoneEdges,
    findings: [
      ...records.loadFindings,
      ...phaseA,
      ...phaseB,
      ...phaseC,
      ...phaseD,
      ...phaseE,
      ...phaseF,
      ...phaseG,
      ...phaseH,
      ...phaseI,
      ...phaseJ,
      ...phaseK,
    ],
  };
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
