import { CLAIM_OPTIONS } from "./code-early-args";
import { WRITE, capabilityVerb, fields, parseCount, withCodeFindings, type Verb } from "./verb";
import { planClaimCapability } from "../../capabilities/plan-claim";
import { planCommitCapability } from "../../capabilities/plan-commit";
import { planSyncStatusCapability } from "../../capabilities/plan-sync-status";
import { planCreateCapability } from "../../capabilities/plan-create";
import { planEditCapability } from "../../capabilities/plan-edit";
import { planEvidenceCapability } from "../../capabilities/plan-evidence";
import { planImportCapability } from "../../capabilities/plan-import";
import { planReleaseCapability } from "../../capabilities/plan-release";
import { planHeartbeatCapability } from "../../capabilities/plan-heartbeat";
import { planTransitionCapability } from "../../capabilities/plan-transition";
import type { Move } from "../../plan/seal";
import { adoptLegacyStamps, type AdoptResult, type TransitionResult } from "../../repo/transition";
import { COMMON, UsageError, type OptionKind } from "./args";
import { renderHandoff } from "./agents-text";
import type { Handoff } from "../../coordination/handoff";
import { createInput, editInput, renderCommit, renderEdit, renderRecordWrite } from "./edit";
import { importInput, renderImport } from "./import";
import { EXIT } from "../exit-codes";
import { planUndoCapability } from "../../capabilities/plan-undo";
import { escapeFields } from "./terminal-text";
import type { SyncStatus } from "../../repo/sync-shapes";
import { removedText, undoneText } from "../../results/sync-text";

// The verbs that write: moves, evidence, leases, records, undo, import, commit and adopt, in the order the help lists them.

const NEW_VERB: Verb = {
  summary: "create an issue (--milestone M --title T) or a milestone (--title T), with the preview",
  options: { ...WRITE, id: "value", title: "value", milestone: "value", set: "values", add: "values", "dry-run": "flag", "allow-findings": "flag" },
  usage: "issue|milestone --title T [--milestone M] [--id ID] [--set FIELD=VALUE]… [--add FIELD=VALUE]… [--dry-run] [--allow-findings]",
  run: (repo, args) => {
    if (args.words.length !== 1 || (args.words[0] !== "issue" && args.words[0] !== "milestone")) {
      throw new UsageError("cockpit plan new takes what to create: issue or milestone");
    }
    return capabilityVerb(planCreateCapability, {
      summary: "",
      options: {},
      input: createInput,
      text: (v) => renderRecordWrite(v),
    }).run(repo, args);
  },
};

export const WRITE_VERBS: Record<string, Verb> = {
  transition: {
    summary: "move an issue (the same as start, verify and done)",
    options: { ...WRITE },
    usage: "ID start|verify|done",
    run: (repo, args) => {
      if (args.words.length !== 2) throw new UsageError("cockpit plan transition takes an ID and a move (start, verify or done)");
      return capabilityVerb(planTransitionCapability, {
        summary: "",
        options: {},
        input: () => ({ issue: args.words[0], transition: args.words[1] }),
        text: (v) => renderTransition(v),
      }).run(repo, args);
    },
  },
  start: moveVerb("start", "start a READY issue (stamps started_at)"),
  verify: moveVerb("verify", "mark an ACTIVE issue as implemented, evidence outstanding"),
  done: moveVerb("done", "finish an ACTIVE or VERIFY issue whose evidence is complete"),
  evidence: capabilityVerb(planEvidenceCapability, {
    summary: "record evidence on an issue or a milestone",
    options: { ...WRITE, covers: "value", type: "value", command: "value", artifact: "value", result: "value", session: "value" },
    takesId: true,
    input: (a) => {
      for (const required of ["covers", "type"]) {
        if (!a.options.has(required)) throw new UsageError(`--${required} is required`);
      }
      return { record: a.words[0], ...fields(a, { covers: "covers", type: "type", command: "command", artifact: "artifact", result: "result", session: "session" }) };
    },
    text: (v) => {
      const r = v;
      const covered = r.evidence_need - r.evidence_missing.length;
      const left = r.evidence_missing.length ? `; still missing: ${r.evidence_missing.join(", ")}` : "";
      return `plan: ${r.record} evidence recorded for ${r.covers} (${covered} of ${r.evidence_need} required token(s) covered${left})`;
    },
  }),
  claim: capabilityVerb(planClaimCapability, {
    summary: "start the next ready issue (of one milestone with --milestone) in one locked step, as your session; abandoned ACTIVE work first (--no-reclaim: not); --any: issues other agents own or commits already work on too; with an ID, that issue only (a take-over with --reason TEXT)",
    options: CLAIM_OPTIONS,
    usage: "[ID]",
    input: (a) => {
      if (a.words.length > 1) throw new UsageError("cockpit plan claim takes at most one issue id");
      return {
        ...(a.words[0] !== undefined ? { issue: a.words[0] } : {}),
        ...fields(a, { milestone: "milestone", reason: "reason" }),
        ...(a.options.has("no-reclaim") ? { no_reclaim: true } : {}),
        ...(a.options.has("any") ? { any: true } : {}),
      };
    },
    text: (v) => withCodeFindings(renderClaim(v), v),
  }),
  heartbeat: capabilityVerb(planHeartbeatCapability, {
    summary: "renew your session on an issue (--note TEXT: what you are doing, kept as its latest word; --session ID: the one your claim answered)",
    options: { ...WRITE, note: "value", session: "value" },
    takesId: true,
    input: (a) => ({ issue: a.words[0], ...fields(a, { note: "note", session: "session" }) }),
    text: (v) => `plan: ${v.issue} session ${v.session} (epoch ${v.epoch}) renewed; its lease ends at ${v.expires}`,
  }),
  release: capabilityVerb(planReleaseCapability, {
    summary: "end your session on an issue (--note TEXT for the next one; --force: whoever holds it, a person only)",
    options: { ...WRITE, force: "flag", note: "value", session: "value" },
    takesId: true,
    input: (a) => ({ issue: a.words[0], ...(a.options.has("force") ? { force: true } : {}), ...fields(a, { note: "note", session: "session" }) }),
    text: (v) => {
      const r = v;
      return r.released ? `plan: ${r.issue} released (session ${r.session} of ${r.holder})` : `plan: ${r.issue} was held by no session; nothing to release`;
    },
  }),
  new: NEW_VERB,
  create: { ...NEW_VERB, summary: "the same as new" },
  edit: capabilityVerb(planEditCapability, {
    summary: "change a milestone's or an issue's fields, with the preview of what it changes; several IDs: the same change to each, one preview, one write, one undo",
    options: {
      ...WRITE,
      set: "values",
      unset: "values",
      add: "values",
      remove: "values",
      "if-version": "value",
      "dry-run": "flag",
      "allow-findings": "flag",
    },
    usage: "ID [ID…]",
    input: editInput,
    text: (v) => renderEdit(v),
  }),
  undo: capabilityVerb(planUndoCapability, {
    summary: "put a record back as it was before one of your moves or edits (its ledger id, from the move's answer)",
    options: { ...WRITE },
    usage: "LEDGER_ID",
    input: (a) => {
      if (a.words.length !== 1) throw new UsageError("cockpit plan undo takes one ledger id (the number a move's answer gave)");
      return { ledger_id: parseCount("LEDGER_ID", a.words[0]) };
    },
    text: (r) => {
      if (!r.batch) return `plan: undid ledger line ${r.undoes} (${r.undone}): ${r.record} ${r.from || "(none)"} → ${r.to || "(removed)"}; logged as line ${r.ledger_id}`;
      const each = r.batch.map((x) => `  line ${x.undoes}: ${x.record} ${x.from || "(none)"} → ${x.to || "(removed)"}; logged as line ${x.ledger_id}`);
      return [`plan: undid the batch edit of ${r.batch.length} records (ledger line ${r.undoes} is one of it):`, ...each].join("\n");
    },
  }),
  import: capabilityVerb(planImportCapability, {
    summary: "import a plan from beads, Backlog.md, Task Master or GitHub Issues (--dry-run: the answer, nothing written)",
    options: { ...WRITE, prefix: "value", dependencies: "value", "dry-run": "flag" },
    usage: "beads|backlog|taskmaster|github SOURCE [--prefix P] [--dependencies FILE] [--dry-run]",
    input: importInput,
    text: (v) => renderImport(v),
  }),
  "sync-status": capabilityVerb(planSyncStatusCapability, {
    summary: "how a served clone follows its remote (cockpit serve --follow): the state, what is behind, ahead and waiting",
    options: { ...COMMON },
    input: () => ({}),
    text: (v) => syncStatusText(v),
  }),
  commit: capabilityVerb(planCommitCapability, {
    summary: "commit the changed records (only their folder) with the moves and edits behind them, and push",
    options: { ...WRITE, message: "value", "no-push": "flag", "pull-rebase": "flag", "dry-run": "flag" },
    input: (a) => ({
      ...fields(a, { message: "message" }),
      ...(a.options.has("no-push") ? { push: false } : {}),
      ...(a.options.has("pull-rebase") ? { pull_rebase: true } : {}),
      ...(a.options.has("dry-run") ? { dry_run: true } : {}),
    }),
    text: (v) => renderCommit(v),
    exit: (v) => (v.push && v.push!.status !== "pushed" ? EXIT.refused : EXIT.ok),
  }),
  adopt: {
    summary: "admit a plan written before seals: list its pre-seal stamps in unsealed_stamps",
    options: { ...COMMON, "dry-run": "flag" },
    run: async (repo, args) => {
      const r = await adoptLegacyStamps(repo, { dryRun: args.options.has("dry-run") });
      return { value: r, text: () => renderAdoption(escapeFields(r)) };
    },
  },
};

/** `plan sync-status` for a person: the state, the fetch, the counts, and what the remote undid or removed (as the header shows). */
export function syncStatusText(v: SyncStatus): string {
  const where = `${v.remote}/${v.branch}`;
  return [
    `${v.state}${v.remote ? ` (${where})` : ""}: ${v.message}`,
    `last fetch: ${v.last_fetch_at ?? "never"}${v.last_fetch_ok === false ? " (failed)" : ""}`,
    `behind ${v.behind}, ahead ${v.ahead}, waiting ${v.waiting}`,
    ...v.undone.map((u) => `undone: ${undoneText(u, where)} (${u.at})`),
    ...(v.removed_by_remote ? [`removed: ${removedText(v.removed_by_remote, where)}; seen ${v.removed_by_remote.at}, not pushed again`] : []),
  ].join("\n") + "\n";
}

function moveVerb(move: Move, summary: string): Verb {
  const forced: Record<string, OptionKind> = move === "start" ? {} : { force: "flag", reason: "value", session: "value" };
  return capabilityVerb(planTransitionCapability, {
    summary,
    options: { ...WRITE, ...forced },
    takesId: true,
    input: (a) => ({ issue: a.words[0], transition: move, ...(a.options.has("force") ? { force: true } : {}), ...fields(a, { reason: "reason", session: "session" }) }),
    text: (v) => renderTransition(v),
  });
}

function renderTransition(r: TransitionResult): string {
  const undo = r.ledger_id !== undefined ? `\nundo: cockpit plan undo ${r.ledger_id}` : "";
  return `plan: ${r.issue} ${r.from} → ${r.to} (${r.field} ${r.at})\nnext ready issue: ${r.next_ready ?? "none"}${undo}`;
}

/** A claim: its move (or the reclaim of an abandoned issue), then the session it opened. */
function renderClaim(r: TransitionResult & { session?: string; epoch?: number; reclaimed_from?: { actor: string; session: string; epoch: number }; handoff?: Handoff; skipped?: { id: string; reason: string }[] }): string {
  const how = r.handoff?.how === "released" ? "it was released" : "its lease had expired";
  const move = r.event === "plan_reclaim" ? `plan: ${r.issue} taken over (ACTIVE; ${how}) from ${r.reclaimed_from?.actor ?? "?"}'s session ${r.reclaimed_from?.session ?? "?"}` : renderTransition(r);
  const lines = [move];
  if (r.session !== undefined) lines.push(`session: ${r.session} (epoch ${r.epoch}); renew it: cockpit plan heartbeat ${r.issue} --session ${r.session} --note TEXT`);
  if (r.handoff) lines.push(renderHandoff(r.handoff));
  for (const s of r.skipped ?? []) lines.push(`skipped ${s.id}: ${s.reason} (--any takes it)`);
  return lines.join("\n");
}

function renderAdoption(r: AdoptResult): string {
  if (r.records === 0) return "adopt: every pre-seal stamp is already sealed or listed; nothing to do";
  const verb = r.dry_run ? "would list" : "listed";
  return [
    ...r.adopted.map((a) => `${a.issue}: ${verb} ${a.stamps.join(", ")}`),
    `adopt: ${verb} ${r.stamps} stamp(s) in ${r.records} record(s)`,
  ].join("\n");
}
