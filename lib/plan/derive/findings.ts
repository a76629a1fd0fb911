// The findings that are not a by-product of another phase: an issue's local checks (Phase A), the
// scope conflicts of each wave (§5, Phase J) and the vocabulary guard (Phase K).
import { ISSUE_STATUSES, MILESTONE_STATUSES, type IssueStatus, type MilestoneStatus } from "../constants";
import type { IssueRecord, MilestoneRecord } from "../records";
import { findScopeConflicts } from "../scope";
import { MOVES, MOVE_NAMES } from "../seal";
import type { PlanFinding } from "../shapes";
import { fail, missingTokens, warn } from "./common";
import { STAMPED } from "./memory";

/** Phase A's findings about one issue apart from its dependencies, in emission order. */
export function localFindings(
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
            `${field} ${stamp} has no ${event} event: ${seal} is absent or does not seal it, and only \`cockpit plan ${verb}\` writes the stamp`,
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

/** Scope conflicts among the READY and ACTIVE issues of each wave (§5), Phase J. */
export function scopeFindings(
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
export function vocabularyGuard(
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
