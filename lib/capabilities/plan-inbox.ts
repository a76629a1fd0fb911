import { planCode } from "../code/answer";
import { asksOf } from "../coordination/plan-asks";
import { agentSessions } from "../coordination/plan-leases";
import { InboxResultSchema } from "../results/outputs";
import { configOf, defineCapability } from "./capability";
import { InboxInput } from "./inputs";

/** An issue in VERIFY longer than this waits on a person. */
export const VERIFY_WAIT_S = 24 * 3600;

/** The code findings, or none when the code cannot be read (no git): the inbox is about people, not git. */
async function codeFindings(repo: string, plan: Parameters<typeof planCode>[1]) {
  try {
    const answer = await planCode(repo, plan, {});
    return answer.findings;
  } catch {
    return [];
  }
}

export const planInboxCapability = defineCapability({
  id: "plan.inbox",
  kind: "query",
  title: "What needs a person",
  description:
    "Open asks oldest first (with age, issue, asker, kind), sessions gone stale or expired, issues in VERIFY for over a day, and the code findings; count sums them. With issue: every ask of that issue, open or ended.",
  input: InboxInput,
  output: InboxResultSchema,
  handler: async (ctx, input) => {
    const config = configOf(ctx);
    const plan = ctx.plan();
    const mine = (issue: string) => input.issue === undefined || issue === input.issue;
    const [asks, sessions, findings] = await Promise.all([
      asksOf(ctx.repo, ctx.plan, config, input.issue !== undefined ? { issue: input.issue } : {}),
      agentSessions(ctx.repo, ctx.plan, config),
      codeFindings(ctx.repo, () => plan),
    ]);
    const now = Date.now();
    const verify = plan.issues
      .filter((i) => i.status === "VERIFY" && mine(i.id) && i.verified_at !== "" && !Number.isNaN(Date.parse(i.verified_at)))
      .map((i) => ({ id: i.id, title: i.title, verified_at: i.verified_at, waiting_s: Math.round((now - Date.parse(i.verified_at)) / 1000) }))
      .filter((v) => v.waiting_s > VERIFY_WAIT_S)
      .sort((a, b) => b.waiting_s - a.waiting_s);
    const looking = sessions.filter((s) => (s.state === "stale" || s.state === "expired") && mine(s.issue));
    const code = findings.filter((f) => mine(f.subject));
    const open = asks.filter((a) => a.state === "open");
    return { asks, sessions: looking, verify, code_findings: code, count: open.length + looking.length + verify.length + code.length };
  },
});
