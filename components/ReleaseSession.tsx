"use client";

import { SessionAction } from "./SessionAction";

/**
 * Release a live session from /agents: the reason is asked first (it is kept as the session's last
 * note), and the confirmation says what changes: the issue keeps its derived status, and nobody
 * holds it any more, so the next claim may take it.
 */
export function ReleaseSession({ issue, actor, status, state, live }: { issue: string; actor: string; status: string; state: string; live: boolean }) {
  return (
    <SessionAction
      issue={issue}
      testId="release"
      button="Release…"
      confirm="Release"
      preview={`Before: ${issue} ${status}, held by ${actor} (${state}). After: ${issue} ${status}, held by nobody: the next claim takes it${status === "ACTIVE" ? " over" : ""}.`}
      why="Why (kept as the session's note)"
      maxLength={2000}
      show={live}
      act={(run, reason) => run("plan.release", { issue, force: true, note: reason }, (v) => (v.released ? `Released ${issue} from ${v.holder}.` : `Nobody held ${issue} any more.`))}
    />
  );
}
