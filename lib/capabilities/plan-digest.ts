import { z } from "zod";
import { asksOf } from "../coordination/plan-asks";
import { digestMarkdown, digestOf, digestText } from "../people/digest";
import { configOf, defineCapability } from "./capability";
import { RevisionField } from "./inputs";
import { planStandupCapability } from "./plan-standup";
import { dayBefore, defaultSince, lastWeekSince } from "../standup/standup";
import { ownValue } from "../plan/own";

export const DigestInput = z.strictObject({
  since: RevisionField.optional().describe("yesterday (the previous working day, the default), today, last-week, or the revision or date the digest starts after."),
  person: z.string().min(1, "person is a handle, not empty").max(200, "person is at most 200 characters").optional().describe("Only this person's moves and the asks they made or that are on their issues."),
});

export const DigestResultSchema = z.object({
  subject: z.string().describe("One line: the project, whose, and the window."),
  sections: z.array(z.object({ heading: z.string(), items: z.array(z.string()) })).describe("Moves, asks waiting and answered, findings, the plan's next issue."),
  text: z.string().describe("The whole digest as plain text."),
  markdown: z.string().describe("The whole digest as Markdown, to post as it is."),
});

export const planDigestCapability = defineCapability({
  id: "plan.digest",
  kind: "query",
  title: "The standup as one message",
  description: "The standup of a window (default: since the previous working day) as one message to post: moves by person, asks waiting on a person and answered, findings, the next issue; as text and Markdown.",
  input: DigestInput,
  output: DigestResultSchema,
  handler: async (ctx, input) => {
    const today = new Date().toISOString().slice(0, 10);
    // The words a scheduled job says, as the standup's ends: the window starts after the date named.
    const words: Record<string, string> = { yesterday: defaultSince(today), today: dayBefore(today), "last-week": lastWeekSince(today) };
    const since = input.since === undefined ? undefined : (ownValue(words, input.since) ?? input.since);
    const standup = await planStandupCapability.handler(ctx, since === undefined ? {} : { since });
    const asks = await asksOf(ctx.repo, ctx.plan, configOf(ctx), { ended: true });
    const digest = digestOf(ctx.plan().project.name || "plan", standup, asks, input.person);
    return { ...digest, text: digestText(digest), markdown: digestMarkdown(digest) };
  },
});
