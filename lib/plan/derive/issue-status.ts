// Waves (§3.2), the first pass of issue status (§2.4), and the gate reaching the issues (§2.7).
import { type IssueStatus } from "../constants";
import type { MilestoneRecord } from "../records";
import type { PlanFinding, PlanWave } from "../shapes";
import { layerFlat } from "../waves";
import { NONE, fail } from "./common";
import type { IssueGraph } from "./issue-facts";
import { STAMPED } from "./memory";

/** Waves (§3.2), Phase B. */
export function issueWaves(graph: IssueGraph, findings: PlanFinding[]): { layer: Int32Array; waves: PlanWave[] } {
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
export function firstIssueStatus(graph: IssueGraph, findings: PlanFinding[]): { status: IssueStatus[]; blockedBy: string[][] } {
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

/** The gate reaches the issues (§2.7), Phase I. */
export function gateIssues(
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
