import { z } from "zod";
import { deriveCode } from "../code/answer";
import { planChanges } from "../history/plan-changes";
import { authorHandles } from "../people/people";
import { PlanStandupSchema } from "../people/shapes";
import { type IssueCodeFacts, standupOf } from "../people/standup";
import { readPeopleFacts } from "../people/facts";
import { defaultSince } from "../standup/standup";
import { planFor } from "./at";
import { defineCapability } from "./capability";
import { RevisionField } from "./inputs";

export const StandupInput = z.strictObject({
  since: RevisionField.optional().describe("The revision or date the window starts after (sha, branch, HEAD~3, 2026-11-30); absent: the previous working day, as /standup."),
  until: RevisionField.optional().describe("The revision or date the window ends at; absent: the files as they are now."),
  stuck: z.number().int().min(0, "stuck must be 0 or more").max(999, "stuck is at most 999").optional().describe("Days ACTIVE or VERIFY without a stamp or a commit before an issue is stuck (default 3)."),
});

/** The stuck threshold /standup uses when none is asked. */
export const DEFAULT_STUCK_DAYS = 3;

export const planStandupCapability = defineCapability({
  id: "plan.standup",
  kind: "query",
  title: "The standup, person by person",
  description:
    "For each person (issue owners, the ledger's users, commit authors mapped by .mailmap, email or first name): what they finished, started and landed in the window, what they have in VERIFY, ACTIVE and BLOCKED (and by whom), and their linked commits; then the issues nobody has, findings, next and roadmap.",
  input: StandupInput,
  output: PlanStandupSchema,
  handler: async (ctx, input) => {
    const now = new Date().toISOString();
    const since = input.since ?? defaultSince(now.slice(0, 10));
    const changes = await planChanges(ctx.repo, { since, ...(input.until === undefined ? {} : { until: input.until }) }, ctx.cache ? ctx.plan : undefined);
    const { plan } = await planFor(ctx, input.until === undefined ? undefined : (changes.until.commit ?? input.until));
    const to = input.until === undefined ? now : (changes.until.committed_at ?? now);
    const [facts, derived] = await Promise.all([readPeopleFacts(ctx.repo, plan), deriveCode(ctx.repo, plan, {}, to)]);
    const code = new Map<string, IssueCodeFacts>([...derived.links].map(([id, l]) => [id, { commits: l.commits, merged: l.merged }]));
    return standupOf({
      changes,
      plan,
      ownership: facts.ownership,
      handles: facts.handles,
      authors: authorHandles(facts.authors, facts.handles),
      code,
      codeFindings: plan.issues.flatMap((i) => derived.findings.get(i.id) ?? []),
      from: changes.since.committed_at,
      to,
      stuckDays: input.stuck ?? DEFAULT_STUCK_DAYS,
    });
  },
});
