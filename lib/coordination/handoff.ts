import { z } from "zod";
import { planCode } from "../code/answer";
import { issueCodeOf } from "../code/shapes";
import type { Plan } from "../plan/shapes";
import type { SessionRow } from "../execution/store-rows";
import { toSecond } from "./sessions";

// A handoff: what the last holder of an issue leaves the next one (docs/agents.md): who, when, its
// last word (the release note or the last heartbeat's), and the code facts the Cockpit already has:
// the branch the work is on and the last commits linked to the issue.

export const HandoffSchema = z
  .object({
    from: z.string().describe("The actor whose session ended."),
    session: z.string(),
    how: z.enum(["released", "reclaimed", "expired"]).describe("How that session ended (expired: its lease ran out and nobody took it over yet)."),
    at: z.string(),
    note: z.string().nullable().describe("Its last word: the release note, else its last heartbeat's."),
    branch: z.string().nullable().describe("The branch the issue's work is on: the unmerged one last committed to, else the last one."),
    commits: z.array(z.object({ sha: z.string(), subject: z.string(), authored_at: z.string() })).describe("The last commits linked to the issue (at most 3), newest first."),
  })
  .describe("What the last holder left: the next holder's first read.");

export type Handoff = z.infer<typeof HandoffSchema>;

/** The handoff of `row` (a session that ended, or expired) on its issue, with the code facts read now. */
export async function handoffOf(repo: string, plan: Plan, row: SessionRow): Promise<Handoff> {
  let branch: string | null = null;
  let commits: Handoff["commits"] = [];
  try {
    const code = issueCodeOf(await planCode(repo, () => plan, { id: row.issue }));
    const byTip = [...code.branches].sort((a, b) => Number(a.merged) - Number(b.merged) || b.last_commit_at.localeCompare(a.last_commit_at));
    branch = byTip[0] ? (byTip[0].remote ? `${byTip[0].remote}/${byTip[0].name}` : byTip[0].name) : null;
    commits = [...code.commits]
      .sort((a, b) => b.authored_at.localeCompare(a.authored_at))
      .slice(0, 3)
      .map((c) => ({ sha: c.sha.slice(0, 12), subject: c.subject, authored_at: c.authored_at }));
  } catch {
    // No git, or history the Cockpit cannot read: the handoff is the session's word alone.
  }
  const how = row.ended === "released" ? "released" : row.ended === "reclaimed" ? "reclaimed" : "expired";
  return { from: row.actor, session: row.session, how, at: toSecond(row.ended_at ?? row.expires), note: row.note, branch, commits };
}
