import { resolve } from "node:path";
import type { z } from "zod";
import type { Capability, CapabilityContext } from "../../capabilities/capability";
import { plansAdvanceCapability } from "../../capabilities/plans-advance";
import { plansClaimCapability } from "../../capabilities/plans-claim";
import { plansCompleteCapability } from "../../capabilities/plans-complete";
import { plansCreateCapability } from "../../capabilities/plans-create";
import { plansDeleteCapability } from "../../capabilities/plans-delete";
import { plansFailCapability } from "../../capabilities/plans-fail";
import { plansGetCapability } from "../../capabilities/plans-get";
import { plansListCapability } from "../../capabilities/plans-list";
import { plansTickCapability } from "../../capabilities/plans-tick";
import type { DecomposePreview, PlanDetail, PlanView } from "../../execution/coordinator";
import { DATABASE_ENV } from "../../config";
import { closeDatabases } from "../../coordination/database";
import { closeStores } from "../../execution/store";
import { configOfArgs, parseArgs, UsageError, type ParsedArgs, type VerbDoc } from "./args";
import { contextFor } from "../../server/state";
import { asksForJson, reportFailure, type Failure } from "./failure";
import { repoFolderProblem } from "../../repo/repo-folder";
import { invoke, type Invocation } from "../invoke";
import { escapeFields, escapeForTerminal } from "./terminal-text";
import { fitLines, fitMessage, helpList, terminalWidth } from "./terminal-width";
import { nearest } from "../../plan/nearest";
import { ownValue } from "../../plan/own";

// `cockpit plans <verb>`: the execution-plan capabilities on the command line, through the registry.

type Options = Record<string, "flag" | "value">;

interface PlansVerb {
  summary: string;
  options: Options;
  takesId?: string;
  /** Its capability's answer, and that answer in words (record text escaped). */
  run(ctx: CapabilityContext, args: ParsedArgs): Promise<Invocation<{ value: unknown; text(): string }>>;
}

/**
 * A verb that runs one capability: the declaration itself is passed, so `text` gets its output
 * type and no verb names it by hand (as `capabilityVerb` does for the plan verbs).
 */
function plansVerb<I extends z.ZodType, O extends z.ZodType>(
  capability: Capability<I, O>,
  spec: Omit<PlansVerb, "run"> & { input(args: ParsedArgs): Record<string, unknown>; text(value: z.infer<O>): string },
): PlansVerb {
  const { input, text, ...doc } = spec;
  return {
    ...doc,
    async run(ctx, args) {
      const result = await invoke(capability, ctx, input(args));
      return result.ok ? { ok: true, value: { value: result.value, text: () => text(escapeFields(result.value)) } } : result;
    },
  };
}

const COMMON: Options = { repo: "value", json: "flag", database: "value" };

function integer(args: ParsedArgs, name: string): number | undefined {
  const v = args.options.get(name);
  if (v === undefined) return undefined;
  if (!/^-?[0-9]+$/.test(v)) throw new UsageError(`--${name} takes a whole number, not '${v}'`);
  return Number(v);
}

function configFrom(args: ParsedArgs): Record<string, unknown> {
  const c: Record<string, unknown> = {};
  const mode = args.options.get("mode");
  if (mode !== undefined) c.execution_mode = mode;
  const maxParallel = integer(args, "max-parallel");
  if (maxParallel !== undefined) c.max_parallel = maxParallel;
  if (args.options.has("fail-fast")) c.fail_fast = true;
  if (args.options.has("no-retry")) c.retry_failed = false;
  const maxRetries = integer(args, "max-retries");
  if (maxRetries !== undefined) c.max_retries = maxRetries;
  const timeout = args.options.get("timeout");
  if (timeout !== undefined) {
    if (!/^[0-9]+(\.[0-9]+)?$/.test(timeout)) throw new UsageError(`--timeout takes seconds, not '${timeout}'`);
    c.timeout = Number(timeout);
  }
  return c;
}

function tree(p: PlanView, indent = ""): string[] {
  const what = p.issue ? `${p.issue}${p.wave !== null ? ` (wave ${p.wave})` : ""}` : p.title;
  const error = p.last_error ? ` — ${p.last_error.category}: ${p.last_error.message}` : "";
  const line = `${indent}${p.plan_id}  ${p.phase.padEnd(10)} ${p.processing_state.padEnd(10)} attempt ${p.attempt}  ${what}${error}`;
  return [line, ...p.children.flatMap((c) => tree(c, indent + "  "))];
}

function renderDetail(d: PlanDetail): string {
  const lines = tree(d);
  if (d.subplan_config) lines.push("", `config: ${JSON.stringify(d.subplan_config)}`);
  if (d.events?.length) lines.push("", "timeline:", ...d.events.slice(-15).map((e) => `  ${e.at}  ${e.kind}: ${e.reason}`));
  return lines.join("\n");
}

/** A decomposition's dry run in words: the children it would make, by wave, and what it skips. */
function renderPreview(p: DecomposePreview): string {
  return [
    `dry run: would ${p.title}: ${p.children.length} child(ren) in ${p.waves} wave(s); nothing written`,
    ...p.children.map((c) => `  wave ${c.wave}  ${c.issue}  ${c.status.padEnd(8)} ${c.title}`),
    ...(p.skipped.length ? [`skipped: ${p.skipped.map((s) => `${s.issue} (${s.status})`).join(", ")}`] : []),
    `integration branch: ${p.integration_branch ?? "none (no commit yet)"}`,
    `config: ${JSON.stringify(p.config)}`,
  ].join("\n");
}

const VERBS: Record<string, PlansVerb> = {
  create: plansVerb(plansCreateCapability, {
    summary: "decompose a milestone (--milestone M) or issues (--issues A,B) into an execution plan",
    options: { ...COMMON, milestone: "value", issues: "value", mode: "value", "max-parallel": "value", "fail-fast": "flag", "no-retry": "flag", "max-retries": "value", timeout: "value", profile: "value", "dry-run": "flag" },
    input: (a) => ({
      ...(a.options.has("milestone") ? { milestone: a.options.get("milestone") } : {}),
      ...(a.options.has("issues") ? { issues: a.options.get("issues")!.split(",").map((s) => s.trim()).filter(Boolean) } : {}),
      config: configFrom(a),
      ...(a.options.has("profile") ? { automation_profile: a.options.get("profile") } : {}),
      ...(a.options.has("dry-run") ? { dry_run: true } : {}),
    }),
    text: (r) => ("dry_run" in r ? renderPreview(r) : renderDetail(r)),
  }),
  delete: plansVerb(plansDeleteCapability, {
    summary: "delete root plan ID with every child and its timeline, and its integration branch (--force: even while children are being worked on)",
    options: { ...COMMON, force: "flag" },
    takesId: "ID",
    input: (a) => ({ id: a.words[0], ...(a.options.has("force") ? { force: true } : {}) }),
    text: (r) =>
      [
        `deleted ${r.deleted}: ${r.plans} plan(s), ${r.events} event(s)`,
        ...(r.branch ? [r.branch.deleted ? `branch ${r.branch.name} deleted` : `branch ${r.branch.name} kept: ${r.branch.kept_because ?? ""}`] : []),
      ].join("\n"),
  }),
  get: plansVerb(plansGetCapability, { summary: "one plan: its tree, config and timeline", options: COMMON, takesId: "ID", input: (a) => ({ id: a.words[0] }), text: renderDetail }),
  list: plansVerb(plansListCapability, {
    summary: "every execution plan",
    options: COMMON,
    input: () => ({}),
    text: ({ plans }) => {
      if (plans.length === 0) return "no execution plan yet: cockpit plans create --milestone M";
      return plans
        .map((p) => `${p.plan_id}  ${p.processing_state.padEnd(10)} ${p.title}  (${Object.entries(p.children_by_state).filter(([, n]) => n > 0).map(([s, n]) => `${n} ${s}`).join(", ")})`)
        .join("\n");
    },
  }),
  claim: plansVerb(plansClaimCapability, {
    summary: "move the next claimable child of ROOT to processing",
    options: COMMON,
    takesId: "ROOT",
    input: (a) => ({ root: a.words[0] }),
    text: (r) => r.claimed ? `claimed ${r.claimed.plan_id} (${r.claimed.issue})\n${r.reason}` : `nothing to claim: ${r.reason}`,
  }),
  advance: plansVerb(plansAdvanceCapability, {
    summary: "move CHILD to its next phase (--to execute|apply [--branch B])",
    options: { ...COMMON, to: "value", branch: "value" },
    takesId: "CHILD",
    input: (a) => ({ child: a.words[0], to: a.options.get("to"), ...(a.options.has("branch") ? { branch: a.options.get("branch") } : {}) }),
    text: (r) => r.moved ? `${r.child.plan_id}: ${r.from} → ${r.to}` : `${r.child.plan_id} failed on ${r.to}: ${r.failure?.decision.reason ?? r.child.last_error?.message ?? ""}`,
  }),
  fail: plansVerb(plansFailCapability, {
    summary: "report CHILD failed (--category C --message M); the failure handler decides",
    options: { ...COMMON, category: "value", message: "value" },
    takesId: "CHILD",
    input: (a) => ({ child: a.words[0], category: a.options.get("category"), message: a.options.get("message") }),
    text: (r) => [`${r.child.plan_id}: ${r.decision.reason}`, ...(r.retry ? [`retry: ${r.retry.plan_id} (attempt ${r.retry.attempt})`] : []), ...(r.cancelled.length ? [`cancelled: ${r.cancelled.join(" ")}`] : [])].join("\n"),
  }),
  complete: plansVerb(plansCompleteCapability, {
    summary: "complete CHILD, recording evidence (--covers T --type X --command C | --evidence-json '[…]')",
    options: { ...COMMON, covers: "value", type: "value", command: "value", artifact: "value", result: "value", "evidence-json": "value" },
    takesId: "CHILD",
    input: (a) => {
      let evidence: unknown[] = [];
      const json = a.options.get("evidence-json");
      if (json !== undefined) {
        try {
          evidence = JSON.parse(json) as unknown[];
        } catch {
          throw new UsageError("--evidence-json takes a JSON list of {covers, type, command|artifact, result?}");
        }
      }
      if (a.options.has("covers")) {
        const o = a.options;
        evidence = [...evidence, { covers: o.get("covers"), type: o.get("type"), ...(o.has("command") ? { command: o.get("command") } : {}), ...(o.has("artifact") ? { artifact: o.get("artifact") } : {}), ...(o.has("result") ? { result: o.get("result") } : {}) }];
      }
      return { child: a.words[0], evidence };
    },
    text: (r) => r.completed ? `${r.child.plan_id}: completed (evidence ${r.evidence.join(", ") || "none"})` : `${r.child.plan_id}: not completed (${r.child.last_error?.message ?? ""})`,
  }),
  tick: plansVerb(plansTickCapability, {
    summary: "fail the children that ran past their timeout",
    options: COMMON,
    input: () => ({}),
    text: ({ timed_out: t }) => t.length ? `timed out: ${t.join(" ")}` : "no child ran past its timeout",
  }),
};

/** The execution-plan verbs as data, in the order `plansUsage()` lists them (and docs/cli.md). */
export function plansVerbs(): VerbDoc[] {
  return Object.entries(VERBS).map(([verb, d]) => ({ verb, args: d.takesId ?? "", summary: d.summary, options: d.options }));
}

/** `cockpit plans help`, laid out to `width` as `cockpit plan --help` is. */
export function plansUsage(width = terminalWidth()): string {
  return fitLines([
    "usage: cockpit plans <verb> [--repo DIR] [--json] [--database URL] …",
    "",
    helpList(plansVerbs().map((v) => [`cockpit plans ${v.verb}${v.args ? ` ${v.args}` : ""}`, v.summary] as const), width),
    "",
    `the store is .ai/local/state/cockpit.db in the clone, or the shared PostgreSQL when --database URL (or ${DATABASE_ENV}) is given`,
    "defaults: sequential, max_parallel 5, fail_fast false (GitHub Actions and Argo default to true), retries on, max_retries 2 (retries, not attempts), no timeout",
  ].join("\n"), width);
}

export async function runPlansCommand(argv: readonly string[], terminal: { out(s: string): void; err(s: string): void }): Promise<number> {
  // Record text (titles, messages) reaches people escaped; --json stays exact.
  // A message wraps to the width where one is known (fitMessage).
  const io = { out: (text: string) => terminal.out(escapeForTerminal(text)), err: (text: string) => terminal.err(fitMessage(escapeForTerminal(text), argv.includes("--json"))) };
  const [verb, ...rest] = argv;
  const spec = verb === undefined ? undefined : ownValue(VERBS, verb);
  const json = asksForJson(rest);
  const fail = (failure: Failure, command = `cockpit plans ${verb}`) => reportFailure(failure, command, json, { answer: terminal.out, err: io.err });
  if (!spec) {
    if (verb !== undefined && verb !== "help" && verb !== "--help") {
      const near = nearest(verb, Object.keys(VERBS));
      if (json) return fail({ code: "invalid_input", message: `unknown verb '${verb}'; ${near ? `did you mean ${near}? ` : ""}the verbs are ${Object.keys(VERBS).join(", ")}` }, "cockpit plans");
      io.err(`cockpit plans: unknown verb '${verb}'${near ? `; did you mean ${near}?` : ""}`);
    }
    io.out(plansUsage());
    return verb === undefined || verb === "help" || verb === "--help" ? 0 : 2;
  }
  try {
    const args = parseArgs(rest, spec.options);
    if (spec.takesId && args.words.length !== 1) throw new UsageError(`cockpit plans ${verb} takes one ${spec.takesId}`);
    if (!spec.takesId && args.words.length) throw new UsageError(`cockpit plans ${verb} takes no argument, but was given '${args.words[0]}'`);
    const repo = resolve(args.options.get("repo") ?? ".");
    const problem = repoFolderProblem(repo);
    if (problem) throw new UsageError(problem);
    const result = await spec.run(contextFor(repo, undefined, configOfArgs(args)), args);
    if (!result.ok) return fail(result.error);
    if (args.options.has("json")) terminal.out(JSON.stringify(result.value.value));
    else io.out(result.value.text());
    return 0;
  } catch (error) {
    if (error instanceof UsageError) return fail({ code: "invalid_input", message: error.message });
    if (json) fail({ code: "internal", message: "internal error; stderr has the details" });
    throw error;
  } finally {
    closeStores();
    await closeDatabases();
  }
}
