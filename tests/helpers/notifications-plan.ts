// The scenario both drive tests follow, in the browser (e2e/plans.spec.ts) and on the command line
// (tests/plans-cli-drive.test.ts): an execution plan for the demo's notifications milestone, run
// sequentially; BK-024's first attempt fails with a transient error and is retried; the plan
// waits once, on BK-015 of booking (ACTIVE in the demo), until a person finishes it.

export const MILESTONE = "notifications";

/** The milestone's issues in run order (wave, then id), each with the evidence tokens it requires. */
export const EVIDENCE: Record<string, string[]> = {
  "BK-024": ["bounce_handling", "template_snapshots"],
  "BK-027": [],
  "BK-025": ["reminder_tests"],
  "BK-026": ["stop_handling", "quiet_hours"],
};

const DRIVEN = ["claimed", "phase_moved", "phase_moved", "completed"];

/** The root's timeline, one event kind per decision, in order. */
export const TIMELINE_KINDS = [
  "created",
  "integration_branch",
  ...Array<string>(4).fill("child_created"),
  "decomposed",
  ...["claimed", "phase_moved", "child_failed", "retry_queued"],
  ...DRIVEN, // BK-024, attempt 2
  ...DRIVEN, // BK-027
  "wave_finished",
  "claim_waiting",
  ...DRIVEN, // BK-025
  "wave_finished",
  ...DRIVEN, // BK-026
  "wave_finished",
  "plan_completed",
];

/** The reasons of the three wave_finished events. */
export const WAVES_FINISHED = [
  "wave 3 is finished: 2 completed, 0 errored, 0 cancelled (of 2)",
  "wave 5 is finished: 1 completed, 0 errored, 0 cancelled (of 1)",
  "wave 6 is finished: 1 completed, 0 errored, 0 cancelled (of 1)",
];
