import * as crypto from "node:crypto";

export type Move = "start" | "verify" | "done";

/** Each move's stamp field, seal field and ledger event (plan-semantics §6.1). */
export const MOVES = {
  start: { field: "started_at", seal: "started_event", event: "plan_start", verb: "start" },
  verify: { field: "verified_at", seal: "verified_event", event: "plan_verify", verb: "verify" },
  done: { field: "completed_at", seal: "completed_event", event: "plan_done", verb: "done" },
} as const;

export const MOVE_NAMES: readonly Move[] = ["start", "verify", "done"];

/** The seal of a stamp: a digest of public values that a clone can check without the ledger. */
export function sealOf(event: string, issueId: string, stamp: string): string {
  const input = `majordomus.plan-event/v1\n${event}\n${issueId}\n${stamp}\n`;
  // The one-shot `crypto.hash` (Node 20.12+) avoids a Hash object per stamp.
  const hex = typeof crypto.hash === "function" ? crypto.hash("sha256", input, "hex") : crypto.createHash("sha256").update(input, "utf8").digest("hex");
  return "sha256:" + hex;
}
