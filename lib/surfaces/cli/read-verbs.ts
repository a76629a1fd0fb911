import { CODE_OPTIONS, NEXT_OPTIONS } from "./code-early-args";
import { READ } from "./args";
import { COMMON, capabilityVerb, fields, limitOf, parseCount, parseWave, readAt, withCodeFindings, type Verb } from "./verb";
import { planAgentsCapability } from "../../capabilities/plan-agents";
import { planActivityCapability } from "../../capabilities/plan-activity";
import { planBurnupCapability } from "../../capabilities/plan-burnup";
import { planChangesCapability } from "../../capabilities/plan-changes";
import { planCodeCapability } from "../../capabilities/plan-code";
import { planCriticalPathCapability } from "../../capabilities/plan-critical-path";
import { planForecastCapability } from "../../capabilities/plan-forecast";
import { planHistoryCapability } from "../../capabilities/plan-history";
import { planIssuesCapability } from "../../capabilities/plan-issues";
import { planModelCapability } from "../../capabilities/plan-model";
import { planNextCapability } from "../../capabilities/plan-next";
import { planRecordCapability } from "../../capabilities/plan-record";
import { planRoadmapCapability } from "../../capabilities/plan-roadmap";
import { planStandupCapability } from "../../capabilities/plan-standup";
import { planStatusCapability } from "../../capabilities/plan-status";
import { renderStandup } from "./standup-text";
import { renderAgents, renderHandoff } from "./agents-text";
import { planValidateCapability } from "../../capabilities/plan-validate";
import { planWavesCapability } from "../../capabilities/plan-waves";
import { toDot, toMermaid } from "../../graph/export";
import { loadPlanOnce } from "../../repo";
import { UsageError } from "./args";
import { currentVersion } from "../../repo/plan-edit";
import { renderCriticalPath, renderIssues, renderModel, renderNext, renderRecord, renderRoadmap, renderStatus, renderValidation, renderWaves } from "./text";
import { EXIT } from "../exit-codes";
import { renderBurnup, renderChanges, renderForecast, renderHistory } from "./time-text";
import { renderCode } from "./code-text";
import { deriveRoadmap, roadmapOrder } from "../../plan/roadmap";
import type { PlanRecords } from "../../plan/records";
import { missingEvidence } from "../../plan/evidence-coverage";
import { whyActiveIsNotNow } from "../../plan/active-why";
import { unsealedIssueIds, unsealedWarning } from "../../plan/unsealed";
import type { Plan } from "../../plan/shapes";

/** A read answered from a revision: what the pages add from the records and findings of now is left out. */
const atRevision = (v: unknown) => Boolean((v as { at?: unknown }).at);

/** Why the active milestone and the roadmap's now differ, in the pages' words, or undefined. */
function whyOf(plan: Plan, records: PlanRecords): string | undefined {
  return whyActiveIsNotNow(plan, deriveRoadmap(plan), (id) => {
    const m = records.milestones.find((r) => r.id === id);
    return m ? missingEvidence(m) : [];
  });
}

// The verbs that read the plan (and its past), in the order the help lists them.

export const READ_VERBS: Record<string, Verb> = {
  model: capabilityVerb(planModelCapability, {
    summary: "the whole derived plan",
    options: { ...READ },
    input: (a) => fields(a, { at: "at" }),
    text: (v) => renderModel(v),
  }),
  status: capabilityVerb(planStatusCapability, {
    summary: "every milestone's progress, the active milestone and the next issue",
    options: { ...READ, milestone: "value" },
    input: (a) => fields(a, { milestone: "milestone", at: "at" }),
    // In roadmap order, as the overview lists them (the JSON keeps the plan's order); at a revision, that plan's.
    // Why the active milestone is not the roadmap's now, and the next issue's unsealed stamps, as the overview says.
    text: (v, a, plan, _repo, records) =>
      atRevision(v)
        ? renderStatus(v)
        : renderStatus(v, roadmapOrder(plan()).map((m) => m.id), whyOf(plan(), records()), v.next_ready ? unsealedWarning(plan(), v.next_ready.id)?.message : undefined),
  }),
  issues: capabilityVerb(planIssuesCapability, {
    summary: "issues, filtered by milestone, status or wave (--limit N: the first N)",
    options: { ...READ, milestone: "value", status: "value", wave: "value", limit: "value" },
    input: (a) => {
      const wave = a.options.get("wave");
      const limit = limitOf(a);
      return { ...fields(a, { milestone: "milestone", status: "status", at: "at" }), ...(wave !== undefined ? { wave: parseWave(wave) } : {}), ...(limit !== undefined ? { limit } : {}) };
    },
    text: (v, a, plan) => renderIssues(v, limitOf(a), atRevision(v) ? undefined : unsealedIssueIds(plan())),
  }),
  waves: capabilityVerb(planWavesCapability, {
    summary: "what may run at the same time, and the scope overlaps that serialise it (--limit N: N issues a wave)",
    options: { ...READ, milestone: "value", limit: "value" },
    input: (a) => {
      limitOf(a);
      return fields(a, { milestone: "milestone", at: "at" });
    },
    text: (v, a) => renderWaves(v, limitOf(a)),
  }),
  activity: capabilityVerb(planActivityCapability, {
    summary: "the recent moves and edits of this clone, newest first, with whether each can be undone now (--limit N, default 50)",
    options: { ...COMMON, limit: "value" },
    input: (a) => (a.options.has("limit") ? { limit: parseCount("--limit", a.options.get("limit")!) } : {}),
    text: (v) =>
      v.entries.length === 0
        ? "activity: no move or edit in this clone's ledger yet"
        : v.entries.map((e) => `${String(e.ledger_id).padStart(5)}  ${e.at}  ${e.by}  ${e.record} ${e.summary}${e.undo.possible ? `  (undo: cockpit plan undo ${e.ledger_id})` : ""}`).join("\n"),
  }),
  agents: capabilityVerb(planAgentsCapability, {
    summary: "who holds what: every session (an actor's hold on an issue) with its state and the reason",
    options: { ...COMMON },
    input: () => ({}),
    text: (v) => renderAgents(v),
  }),
  next: capabilityVerb(planNextCapability, {
    summary: "the one issue to take now",
    options: NEXT_OPTIONS,
    input: (a) => fields(a, { milestone: "milestone", at: "at" }),
    text: (v) => withCodeFindings(renderNext(v), v),
  }),
  roadmap: capabilityVerb(planRoadmapCapability, {
    summary: "the milestones in derived order, with now and next",
    options: { ...READ },
    input: (a) => fields(a, { at: "at" }),
    text: (v, a, plan, _repo, records) => renderRoadmap(v, atRevision(v) ? undefined : whyOf(plan(), records())),
  }),
  "critical-path": capabilityVerb(planCriticalPathCapability, {
    summary: "the longest chain of unfinished issues (ending in --milestone M), first to do first",
    options: { ...READ, milestone: "value" },
    input: (a) => fields(a, { milestone: "milestone", at: "at" }),
    text: (v) => renderCriticalPath(v),
  }),
  validate: capabilityVerb(planValidateCapability, {
    summary: "every finding; exits 10 when one is a failure",
    options: { ...READ },
    input: (a) => fields(a, { at: "at" }),
    text: (v) => renderValidation(v),
    exit: (v) => (v.valid ? EXIT.ok : EXIT.contract),
  }),
  record: {
    summary: "one milestone or issue, with everything derived about it (--at REV: at a revision; --version: its version only)",
    options: { ...READ, version: "flag" },
    takesId: true,
    run: async (repo, args) => {
      if (args.options.has("version")) {
        if (args.options.has("at")) throw new UsageError("--version is the record's version now; it does not go with --at");
        const version = currentVersion(repo, args.words[0]) ?? "";
        return { value: { id: args.words[0], version }, text: () => version };
      }
      return capabilityVerb(planRecordCapability, {
        summary: "",
        options: {},
        input: (a) => ({ id: a.words[0], ...fields(a, { at: "at" }) }),
        // Evidence by what it covers and unsealed stamps come from the records and findings of now.
        text: (v, a, plan, _repo, recordsNow) => {
          if (atRevision(v)) return renderRecord(v);
          const id = "issue" in v ? v.issue.id : v.milestone.id;
          const records = recordsNow();
          const evidence = "issue" in v ? records.issues.find((r) => r.id === id) : records.milestones.find((r) => r.id === id);
          const shown = renderRecord(v, { evidence, unsealed: unsealedIssueIds(plan()), warning: "issue" in v ? unsealedWarning(plan(), id)?.message : undefined });
          return v.handoff ? `${shown}\n${renderHandoff(v.handoff)}` : shown;
        },
      }).run(repo, args);
    },
  },
  changes: capabilityVerb(planChangesCapability, {
    summary: "what changed since a revision (--since REV [--until REV] [--milestone M])",
    options: { ...COMMON, since: "value", until: "value", milestone: "value" },
    input: (a) => {
      if (!a.options.has("since")) throw new UsageError("--since is required: the revision or date to compare from (HEAD~1, 2026-11-30, a branch)");
      return fields(a, { since: "since", until: "until", milestone: "milestone" });
    },
    text: (v) => renderChanges(v),
  }),
  history: capabilityVerb(planHistoryCapability, {
    summary: "the commits that changed one record, newest first, with its status after each (--limit N)",
    options: { ...COMMON, limit: "value" },
    takesId: true,
    input: (a) => {
      const limit = a.options.get("limit");
      return { id: a.words[0], ...(limit !== undefined ? { limit: parseCount("--limit", limit) } : {}) };
    },
    text: (v) => renderHistory(v),
  }),
  burnup: capabilityVerb(planBurnupCapability, {
    summary: "a milestone's scope, started and done per day (--milestone M [--since DATE] [--until DATE])",
    options: { ...COMMON, milestone: "value", since: "value", until: "value" },
    input: (a) => {
      if (!a.options.has("milestone")) throw new UsageError("--milestone is required: the milestone to chart");
      return fields(a, { milestone: "milestone", since: "since", until: "until" });
    },
    text: (v) => renderBurnup(v),
  }),
  forecast: capabilityVerb(planForecastCapability, {
    summary: "50/85/95 % completion dates of a milestone, Monte Carlo (--milestone M [--seed S])",
    options: { ...COMMON, milestone: "value", seed: "value" },
    input: (a) => {
      if (!a.options.has("milestone")) throw new UsageError("--milestone is required: the milestone to forecast");
      const seed = a.options.get("seed");
      return { ...fields(a, { milestone: "milestone" }), ...(seed !== undefined ? { seed: parseCount("--seed", seed) } : {}) };
    },
    text: (v) => renderForecast(v),
  }),
  code: capabilityVerb(planCodeCapability, {
    summary: "the branches and commits linked to an issue, where it merged, and the code findings; without ID, every linked issue",
    options: CODE_OPTIONS,
    usage: "[ID] [--default-branch B] [--stale-days N]",
    input: (a) => {
      if (a.words.length > 1) throw new UsageError(`cockpit plan code takes at most one ID, but was given ${a.words.length}`);
      const stale = a.options.get("stale-days");
      return {
        ...(a.words.length === 1 ? { id: a.words[0] } : {}),
        ...fields(a, { "default-branch": "default_branch" }),
        ...(stale !== undefined ? { stale_days: parseCount("--stale-days", stale) } : {}),
      };
    },
    text: (v) => renderCode(v),
  }),
  standup: capabilityVerb(planStandupCapability, {
    summary: "the standup person by person: done, started, landed in the window; VERIFY, ACTIVE, BLOCKED now (--since REV [--until REV] [--stuck N])",
    options: { ...COMMON, since: "value", until: "value", stuck: "value" },
    input: (a) => {
      const stuck = a.options.get("stuck");
      return { ...fields(a, { since: "since", until: "until" }), ...(stuck !== undefined ? { stuck: parseCount("--stuck", stuck) } : {}) };
    },
    text: (v) => renderStandup(v),
  }),
  graph: {
    summary: "the waves graph as Mermaid or Graphviz DOT (--format mermaid|dot)",
    options: { repo: "value", format: "value", milestone: "value", at: "value" },
    raw: true,
    run: async (repo, args) => {
      const at = args.options.get("at");
      const plan = at === undefined ? loadPlanOnce(repo) : await readAt(repo, at);
      const format = args.options.get("format") ?? "mermaid";
      if (format !== "mermaid" && format !== "dot") throw new UsageError(`--format is mermaid or dot, not '${format}'`);
      const m = args.options.get("milestone");
      const issues = m === undefined ? plan.issues : plan.issues.filter((i) => i.milestone === m);
      const text = format === "dot" ? toDot(plan, issues) : toMermaid(plan, issues);
      return { value: text, text: () => text };
    },
  },
};
