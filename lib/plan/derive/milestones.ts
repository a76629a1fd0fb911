// Milestones: their members, counts and status (§2.5), their graph and ranks (§2.6, §3.3), the
// gate, and the active milestone (§2.9).
import { type IssueStatus, type MilestoneStatus } from "../constants";
import type { MilestoneRecord } from "../records";
import type { PlanCounts, PlanEdge, PlanFinding } from "../shapes";
import { compareBytes } from "../text";
import { layerByDependencies } from "../waves";
import { countMembers, fail, isCovered, missingTokens, warn } from "./common";
import type { IssueGraph } from "./issue-facts";

/** Each milestone's issues, in id order. */
export function membersOf(graph: IssueGraph, mCount: number): number[][] {
  const members: number[][] = new Array(mCount);
  for (let m = 0; m < mCount; m++) members[m] = [];
  const { n, milestoneOf } = graph;
  for (let i = 0; i < n; i++) if (milestoneOf[i] >= 0) members[milestoneOf[i]].push(i);
  return members;
}

/** Milestone counts and first-pass status (§2.5), Phase F. */
export function firstMilestoneStatus(
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
export function milestoneGraph(
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
export function milestoneRanks(milestones: readonly MilestoneRecord[], deps: number[][], findings: PlanFinding[]): number[] {
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
export function applyGate(
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
export function emptyMilestones(
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

/** §2.9: an unblocked ACTIVE milestone first, else any unblocked unfinished one; lowest rank·10⁶+order. */
export function pickActiveMilestone(
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
