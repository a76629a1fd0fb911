import type { z } from "zod";
import { planAnswerCapability, planAskCapability, planWaitCapability, planWithdrawCapability } from "../../capabilities/plan-ask";
import { planInboxCapability } from "../../capabilities/plan-inbox";
import { planDigestCapability } from "../../capabilities/plan-digest";
import { answerWords, ageWords } from "../../coordination/asks";
import { digestMarkdown, digestText } from "../../people/digest";
import type { AskSchema, InboxResultSchema, WaitResultSchema } from "../../results/outputs";
import { EXIT } from "../exit-codes";
import { COMMON, UsageError, WRITE } from "./args";
import { capabilityVerb, fields, type Outcome, type Verb } from "./verb";

// Needs a human (docs/inbox.md): ask, wait, answer, withdraw, and the inbox.

type Ask = z.infer<typeof AskSchema>;

/** One ask in a line: its id, issue, kind, state, who asked and how long ago, the question, and the answer once given. */
export function renderAsk(a: Ask): string {
  const options = a.kind === "choose" ? ` [${a.options.join(" | ")}]` : "";
  const head = `${a.id} ${a.issue} ${a.kind} ${a.state}, asked by ${a.asker} ${ageWords(a)} ago: ${a.question}${options}`;
  if (a.state === "answered") return `${head}\n  answer by ${a.ended_by} at ${a.ended_at}: ${answerWords(a.answer)}`;
  if (a.state !== "open") return `${head}\n  ${a.state}${a.ended_at ? ` at ${a.ended_at}` : ""}: ${a.reason ?? ""}`;
  return head;
}

function renderWait(w: z.infer<typeof WaitResultSchema>): string {
  if (w.timed_out) return `plan: ask ${w.id} on ${w.issue} is still open after the wait (cockpit plan wait ${w.id} waits again)`;
  if (w.state === "answered") return `plan: ask ${w.id} on ${w.issue} answered by ${w.ended_by}: ${answerWords(w.answer)}`;
  return `plan: ask ${w.id} on ${w.issue} is ${w.state}: ${w.reason ?? ""}`;
}

export function renderInbox(r: z.infer<typeof InboxResultSchema>): string {
  const lines: string[] = [];
  const open = r.asks.filter((a) => a.state === "open");
  lines.push(`asks: ${open.length} open${r.asks.length > open.length ? `, ${r.asks.length - open.length} ended` : ""}`);
  for (const a of r.asks) lines.push(`  ${renderAsk(a).replace(/\n/g, "\n  ")}`);
  if (r.sessions.length) lines.push(`sessions to look at: ${r.sessions.length}`, ...r.sessions.map((s) => `  ${s.issue} ${s.state} ${s.actor} (${s.session}): ${s.reason}`));
  if (r.verify.length) lines.push(`in VERIFY over a day: ${r.verify.length}`, ...r.verify.map((v) => `  ${v.id} since ${v.verified_at}: ${v.title}`));
  if (r.code_findings.length) lines.push(`code findings: ${r.code_findings.length}`, ...r.code_findings.map((f) => `  ${f.level} ${f.code} ${f.subject}: ${f.message}`));
  lines.push(`inbox: ${r.count} thing(s) need a person`);
  return lines.join("\n");
}

/** `--timeout S` as seconds; undefined: wait as long as it takes. */
function timeoutOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^[0-9]+(\.[0-9]+)?$/.test(text)) throw new UsageError(`--timeout takes seconds (a number 0 or more), not '${text}'`);
  return Number(text);
}

/**
 * Wait for an ask on the command line: the query's bounded waits one after another until the ask
 * is no longer open or `timeout` passes (undefined: until then). Exit 16 when it ran out.
 */
async function waitOutcome(repo: string, args: Parameters<Verb["run"]>[1], id: string, timeout: number | undefined): Promise<Outcome> {
  const deadline = timeout === undefined ? Infinity : Date.now() + timeout * 1000;
  for (;;) {
    const left = Math.max(0, (deadline - Date.now()) / 1000);
    const once = capabilityVerb(planWaitCapability, {
      summary: "",
      options: {},
      input: () => ({ id, ...(Number.isFinite(left) ? { timeout: left } : {}) }),
      text: (v) => renderWait(v),
    });
    const outcome = await once.run(repo, args);
    const value = outcome.value as z.infer<typeof WaitResultSchema>;
    if (!value.timed_out || Date.now() >= deadline) return { ...outcome, exit: value.timed_out ? EXIT.waiting : EXIT.ok };
  }
}

const askVerb = capabilityVerb(planAskCapability, {
  summary: "",
  options: {},
  input: (a) => ({
    issue: a.words[0],
    ...fields(a, { question: "question", kind: "kind" }),
    ...(a.lists.has("option") ? { options: a.lists.get("option") } : {}),
  }),
  text: (v) => `plan: ${v.repeated ? "already asked" : "asked"}: ${renderAsk(v)}\n${v.state === "open" ? `wait for the answer: cockpit plan wait ${v.id}` : ""}`.trimEnd(),
});

export const ASK_VERBS: Record<string, Verb> = {
  ask: {
    summary: "ask a person about an issue (--question TEXT; --kind approve|choose|answer; --option TEXT, repeated, for choose); --wait blocks until the answer (--timeout S: exit 16 when it runs out)",
    options: { ...WRITE, question: "value", kind: "value", option: "values", wait: "flag", timeout: "value" },
    takesId: true,
    run: async (repo, args) => {
      if (!args.options.has("question")) throw new UsageError("--question is required: what a person should decide or tell");
      const timeout = timeoutOf(args.options.get("timeout"));
      if (timeout !== undefined && !args.options.has("wait")) throw new UsageError("--timeout goes with --wait");
      const asked = await askVerb.run(repo, args);
      if (!args.options.has("wait")) return asked;
      const id = (asked.value as Ask).id;
      if ((asked.value as Ask).state !== "open") return asked;
      return waitOutcome(repo, args, id, timeout);
    },
  },
  wait: {
    summary: "wait until an ask is answered, withdrawn or closed, and print it (--timeout S: exit 16 when it runs out)",
    options: { ...COMMON, timeout: "value" },
    usage: "ASK",
    run: (repo, args) => {
      if (args.words.length !== 1) throw new UsageError("cockpit plan wait takes one ask id (a-…)");
      return waitOutcome(repo, args, args.words[0], timeoutOf(args.options.get("timeout")));
    },
  },
  answer: capabilityVerb(planAnswerCapability, {
    summary: "answer an ask as a person: --yes or --no (approve), --choice TEXT (choose), --text TEXT (answer); --comment TEXT",
    options: { ...WRITE, yes: "flag", no: "flag", choice: "value", text: "value", comment: "value" },
    usage: "ASK",
    input: (a) => {
      if (a.words.length !== 1) throw new UsageError("cockpit plan answer takes one ask id (a-…)");
      if (a.options.has("yes") && a.options.has("no")) throw new UsageError("give --yes or --no, not both");
      return {
        id: a.words[0],
        ...(a.options.has("yes") ? { yes: true } : a.options.has("no") ? { yes: false } : {}),
        ...fields(a, { choice: "choice", text: "text", comment: "comment" }),
      };
    },
    text: (v) => `plan: answered ${renderAsk(v)}`,
  }),
  withdraw: capabilityVerb(planWithdrawCapability, {
    summary: "withdraw an ask you made (--reason TEXT)",
    options: { ...WRITE, reason: "value" },
    usage: "ASK",
    input: (a) => {
      if (a.words.length !== 1) throw new UsageError("cockpit plan withdraw takes one ask id (a-…)");
      return { id: a.words[0], ...fields(a, { reason: "reason" }) };
    },
    text: (v) => `plan: withdrew ${renderAsk(v)}`,
  }),
  inbox: capabilityVerb(planInboxCapability, {
    summary: "what needs a person: open asks oldest first, stale and expired sessions, issues in VERIFY over a day, code findings (--issue ID: every ask of one issue)",
    options: { ...COMMON, issue: "value" },
    input: (a) => fields(a, { issue: "issue" }),
    text: (v) => renderInbox(v),
  }),
  digest: {
    summary: "the standup as one message to post: moves by person, asks waiting and answered, findings, next (--since yesterday|today|last-week|REV, default yesterday: the previous working day; --person HANDLE; --format text|markdown|json)",
    options: { ...COMMON, since: "value", person: "value", format: "value" },
    // A message to post as it is: never wrapped to the terminal's width.
    raw: true,
    run: async (repo, args) => {
      const format = args.options.get("format") ?? (args.options.has("json") ? "json" : "text");
      if (format !== "text" && format !== "markdown" && format !== "json") throw new UsageError(`--format is text, markdown or json, not '${format}'`);
      const outcome = await capabilityVerb(planDigestCapability, {
        summary: "",
        options: {},
        input: (a) => fields(a, { since: "since", person: "person" }),
        // From the sections as the terminal may show them (controls escaped), not the answer's own texts.
        text: (v) => (format === "markdown" ? digestMarkdown(v) : digestText(v)),
      }).run(repo, args);
      // --format json is the answer as --json prints it.
      return format === "json" ? { ...outcome, text: () => JSON.stringify(outcome.value, null, 2) } : outcome;
    },
  },
};
