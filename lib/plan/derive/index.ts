// The derivation (docs/plan-semantics.md §2-§6): records in, the derived plan out. The phases
// live beside this file, one concern each: the memory kept between derivations, each issue's
// facts, issue status and waves, milestones and the gate, and the findings.
import { ISSUE_STATUSES, MILESTONE_STATUSES } from "../constants";
import type { PlanRecords } from "../records";
import type { Plan, PlanFinding, PlanIssue, PlanMilestone } from "../shapes";
import { countMembers, inIdOrder, indexOf } from "./common";
import { scopeFindings, vocabularyGuard } from "./findings";
import { issuesInIdOrder, linkDependents, readIssues } from "./issue-facts";
import { firstIssueStatus, gateIssues, issueWaves } from "./issue-status";
import { DerivationMemory, keptIn } from "./memory";
import { applyGate, emptyMilestones, firstMilestoneStatus, membersOf, milestoneGraph, milestoneRanks, pickActiveMilestone } from "./milestones";

export { countStatuses } from "./common";
export { DerivationMemory, isProven } from "./memory";

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
