import type { z } from "zod";
import type { AgentsResultSchema } from "../../results/outputs";
import type { Handoff } from "../../coordination/handoff";

/** `cockpit plan agents`: one line a session, live ones first (as the answer orders them), then a count by state. */
export function renderAgents(r: z.infer<typeof AgentsResultSchema>): string {
  if (r.sessions.length === 0) return `agents: no session (a claim or a start opens one; stale after ${r.stale_after_s} s, lease ${r.lease_ttl_s} s)`;
  const width = Math.max(...r.sessions.map((s) => s.actor.length));
  const lines = r.sessions.map((s) => `${s.issue.padEnd(10)} ${s.state.padEnd(9)} ${s.actor.padEnd(width)}  ${s.session} e${s.epoch}  ${s.reason}${s.note && s.state !== "released" && s.state !== "active" ? ` (note: ${s.note})` : ""}`);
  const counts = new Map<string, number>();
  for (const s of r.sessions) counts.set(s.state, (counts.get(s.state) ?? 0) + 1);
  return [...lines, `agents: ${r.sessions.length} session(s): ${[...counts].map(([state, n]) => `${n} ${state}`).join(", ")}`].join("\n");
}

/** What the last holder left: who and how it ended, its last word, the branch and the last commits. */
export function renderHandoff(h: Handoff): string {
  return [
    `handoff from ${h.from} (${h.how} ${h.at}, session ${h.session})`,
    `  note: ${h.note ?? "none"}`,
    `  branch: ${h.branch ?? "none"}`,
    ...h.commits.map((c) => `  ${c.sha.slice(0, 8)} ${c.subject}`),
  ].join("\n");
}
