import { actorOf } from "../coordination/plan-leases";
import { MAX_WAIT_S, answer, ask, asksOf, waitForAsk, withdraw } from "../coordination/plan-asks";
import { controlProblem } from "../plan/control-chars";
import { invalidInput } from "../plan/errors";
import { configOf, defineCapability } from "./capability";
import { AnswerInput, AskInput, WaitInput, WithdrawInput } from "./inputs";
import { AskResultSchema, AskSchema, WaitResultSchema } from "../results/outputs";

// Needs a human (docs/inbox.md): an actor asks a person about an issue, a person answers, the
// asker waits for it. Kept where the sessions are, never in the plan's records.

/** Refuse a control character in a person's text (a newline and a tab are kept in prose). */
function checkText(fields: Record<string, string | undefined>, prose: boolean): void {
  for (const [field, value] of Object.entries(fields)) {
    const problem = value === undefined ? undefined : controlProblem(field, value, prose);
    if (problem) throw invalidInput(problem);
  }
}

export const planAskCapability = defineCapability({
  id: "plan.ask",
  kind: "command",
  records: false,
  title: "Ask a person about an issue",
  description:
    "Put a question to a person (approve: yes/no, choose: one of options, answer: free text); your session on the issue reads awaiting_input until it is answered. The same open question again answers that ask's id; then wait for the answer.",
  input: AskInput,
  output: AskResultSchema,
  handler: async (ctx, input) => {
    const kind = input.kind ?? "answer";
    const options = input.options ?? [];
    checkText({ question: input.question }, true);
    options.forEach((o, i) => checkText({ [`options[${i}]`]: o }, false));
    if (kind === "choose" && options.length < 2) throw invalidInput("a choose ask needs at least 2 options (--option TEXT, repeated; options)");
    if (kind !== "choose" && input.options !== undefined) throw invalidInput(`options belong to a choose ask; a ${kind} ask takes none`);
    if (new Set(options).size !== options.length) throw invalidInput("options must differ from each other");
    const { view, repeated } = await ask(ctx.repo, ctx.plan, configOf(ctx), actorOf(ctx.by, ctx.kind), { issue: input.issue, kind, question: input.question, options });
    return { ...view, repeated };
  },
});

export const planAnswerCapability = defineCapability({
  id: "plan.answer",
  kind: "command",
  records: false,
  title: "Answer an ask",
  description:
    "Answer an open ask as a person: yes (true or false) for approve, choice (one of its options) for choose, text for answer, with an optional comment. The asker's wait ends at once; an agent may not answer.",
  input: AnswerInput,
  output: AskSchema,
  handler: async (ctx, input) => {
    checkText({ text: input.text, comment: input.comment }, true);
    const { id, ...given } = input;
    return answer(ctx.repo, ctx.plan, configOf(ctx), actorOf(ctx.by, ctx.kind), id, given);
  },
});

export const planWithdrawCapability = defineCapability({
  id: "plan.withdraw",
  kind: "command",
  records: false,
  title: "Withdraw an ask",
  description: "Withdraw an open ask you made (its question no longer needs a person); its wait ends.",
  input: WithdrawInput,
  output: AskSchema,
  handler: async (ctx, input) => {
    checkText({ reason: input.reason }, false);
    return withdraw(ctx.repo, ctx.plan, configOf(ctx), actorOf(ctx.by, ctx.kind), input.id, input.reason);
  },
});

export const planWaitCapability = defineCapability({
  id: "plan.wait",
  kind: "query",
  title: "Wait for an ask's answer",
  description: `Block until the ask is answered, withdrawn or closed, or timeout seconds pass (at most ${MAX_WAIT_S}); timed_out: true means it is still open: wait again.`,
  input: WaitInput,
  output: WaitResultSchema,
  handler: async (ctx, input) => {
    const timeout = Math.min(input.timeout ?? MAX_WAIT_S, MAX_WAIT_S);
    const { view, timed_out } = await waitForAsk(ctx.repo, ctx.plan, configOf(ctx), input.id, timeout, ctx.signal);
    return { ...view, timed_out, max_wait_s: MAX_WAIT_S };
  },
});

export { asksOf };
