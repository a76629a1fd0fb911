"use client";

import { SessionAction } from "./SessionAction";

/**
 * Take over an abandoned issue from /agents (a claim of that issue): its session's lease ended
 * while the issue is ACTIVE. The reason is asked first (kept in the ledger's plan_reclaim line and
 * as the new session's note), and the preview says what changes: the issue stays ACTIVE, held by
 * the person now, with the next epoch, and the old holder's later writes are refused. It stays in
 * its row once the session is reclaimed (the button gone), so the outcome outlives the refresh.
 */
export function TakeOverSession({ issue, actor, epoch, show }: { issue: string; actor: string; epoch: number; show: boolean }) {
  return (
    <SessionAction
      issue={issue}
      testId="takeover"
      button="Take over…"
      confirm="Take over"
      preview={`Before: ${issue} ACTIVE, held by ${actor} (expired, epoch ${epoch}). After: ${issue} ACTIVE, held by you (epoch ${epoch + 1}); ${actor}'s later writes on it are refused.`}
      why="Why (kept in the ledger and as your session's note)"
      maxLength={500}
      show={show}
      act={(run, reason) => run("plan.claim", { issue, reason }, (v) => `Took over ${v.issue} from ${v.reclaimed_from?.actor ?? actor} (epoch ${v.epoch ?? epoch + 1}).`)}
    />
  );
}
