import type { z } from "zod";
import { planAt } from "../history/plan-at";
import type { Revision } from "../history/revision";
import { RevisionSchema } from "../plan/history-shapes";
import type { Plan } from "../plan/shapes";
import type { CapabilityContext } from "./capability";

/** The plan a read answers from: the files as they are now, or the commit `at` names. */
export async function planFor(ctx: CapabilityContext, at: string | undefined): Promise<{ plan: Plan; at?: Revision }> {
  return at === undefined ? { plan: ctx.plan() } : planAt(ctx.repo, at);
}

/** A read's answer, with `at` added last when the question named a revision. */
export function answerAt<T extends object>(answer: T, at: Revision | undefined): T {
  return at ? { ...answer, at } : answer;
}

/** A read's output schema with the optional `at` member. */
export function withAtMember<Shape extends z.ZodRawShape>(schema: z.ZodObject<Shape>) {
  return schema.extend({ at: RevisionSchema.optional() });
}
