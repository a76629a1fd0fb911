import type { CommitResult } from "../../repo/commit";
import type { RecordWriteResult } from "../../repo/plan-edit";
import type { BatchWriteResult } from "../../repo/plan-edit-batch";
import { previewLines } from "../../plan/preview-text";
import { UsageError, type ParsedArgs } from "./args";

// The command line of plan.create and plan.edit: FIELD=VALUE options into the capability's input,
// and its answer (the preview) in words.

function pairs(args: ParsedArgs, option: string): [string, string][] {
  return (args.lists.get(option) ?? []).map((text) => {
    const at = text.indexOf("=");
    if (at <= 0) throw new UsageError(`--${option} takes FIELD=VALUE, not '${text}'`);
    return [text.slice(0, at), text.slice(at + 1)];
  });
}

function setOf(args: ParsedArgs): Record<string, string> | undefined {
  const out = new Map<string, string>();
  for (const [k, v] of pairs(args, "set")) {
    if (out.has(k)) throw new UsageError(`--set ${k}=… is given twice; give it once`);
    out.set(k, v);
  }
  return out.size ? Object.fromEntries(out) : undefined;
}

function listsOf(args: ParsedArgs, option: string): Record<string, string[]> | undefined {
  const out = new Map<string, string[]>();
  for (const [k, v] of pairs(args, option)) out.set(k, [...(out.get(k) ?? []), v]);
  return out.size ? Object.fromEntries(out) : undefined;
}

const flags = (args: ParsedArgs) => ({
  ...(args.options.has("dry-run") ? { dry_run: true } : {}),
  ...(args.options.has("allow-findings") ? { allow_findings: true } : {}),
});

export function editInput(args: ParsedArgs): Record<string, unknown> {
  const unset = args.lists.get("unset");
  const ifVersion = args.options.get("if-version");
  if (args.words.length === 0) throw new UsageError("cockpit plan edit takes an ID (a milestone or an issue), or several for one batch");
  const many = args.words.length > 1;
  if (many && ifVersion !== undefined) throw new UsageError("--if-version is the version of one record; a batch of several IDs takes none on the command line");
  return {
    ...(many ? { ids: args.words } : { id: args.words[0] }),
    ...(setOf(args) ? { set: setOf(args) } : {}),
    ...(unset ? { unset } : {}),
    ...(listsOf(args, "add") ? { add: listsOf(args, "add") } : {}),
    ...(listsOf(args, "remove") ? { remove: listsOf(args, "remove") } : {}),
    ...(ifVersion !== undefined ? { if_version: ifVersion } : {}),
    ...flags(args),
  };
}

export function createInput(args: ParsedArgs): Record<string, unknown> {
  const kind = args.words[0];
  const title = args.options.get("title");
  if (title === undefined) throw new UsageError("--title is required");
  if (kind === "issue" && !args.options.has("milestone")) throw new UsageError("--milestone is required for a new issue");
  const id = args.options.get("id");
  const milestone = args.options.get("milestone");
  return {
    kind,
    title,
    ...(id !== undefined ? { id } : {}),
    ...(milestone !== undefined ? { milestone } : {}),
    ...(setOf(args) ? { set: setOf(args) } : {}),
    ...(listsOf(args, "add") ? { add: listsOf(args, "add") } : {}),
    ...flags(args),
  };
}

/** The answer in words: what was (or would be) written, and what it changes in the derived plan. */
export function renderRecordWrite(r: RecordWriteResult): string {
  const verb = r.action === "created" ? "create" : "edit";
  const head = r.written
    ? `plan: ${r.id} ${r.action} (${r.changes.join("; ")})`
    : r.refused
      ? `dry run: ${verb} ${r.id} would be refused: ${r.refused}`
      : `dry run: ${r.id} would be ${r.action} (${r.changes.join("; ")}); nothing written`;
  const lines = [head, `version: ${r.previous_version ? `${r.previous_version} → ` : ""}${r.version}`];
  lines.push(...previewLines(r.preview).map((l) => `  ${l}`));
  if (r.written && r.ledger_id !== undefined) lines.push(`undo: cockpit plan undo ${r.ledger_id}`);
  return lines.join("\n");
}

/** An edit's answer in words: one record's, or a batch's. */
export function renderEdit(r: RecordWriteResult | BatchWriteResult): string {
  return "ids" in r ? renderBatchWrite(r) : renderRecordWrite(r);
}

/** A batch's answer in words: its records, then what the whole batch changes in the derived plan. */
function renderBatchWrite(r: BatchWriteResult): string {
  const what = `${r.ids.length} record(s) (${r.changes.join("; ")})`;
  const head = r.written ? `plan: ${what} edited in one write` : r.refused ? `dry run: the edit of ${r.ids.length} record(s) would be refused: ${r.refused}` : `dry run: ${what} would be edited; nothing written`;
  const lines = [head, ...r.records.map((x) => `  ${x.id}: ${x.previous_version} → ${x.version}`), "the whole batch:"];
  lines.push(...previewLines(r.preview).map((l) => `  ${l}`));
  if (r.written && r.ledger_ids?.length) lines.push(`undo (every record of the batch): cockpit plan undo ${r.ledger_ids[0]}`);
  return lines.join("\n");
}

/** plan.commit's answer in words: the changes and what happened to them. */
export function renderCommit(r: CommitResult): string {
  if (r.count === 0) return "commit: no record has changed since the last commit; nothing to commit";
  const lines = r.files.map((f) => `  ${f.status.padEnd(8)} ${f.record || f.path}${f.events.length ? `: ${f.events.map((e) => e.summary).join("; ")}` : ""}`);
  const head = r.committed ? `commit: ${r.commit?.slice(0, 12)} by ${r.author}, ${r.count} file(s)` : `dry run: ${r.count} uncommitted record change(s); nothing committed`;
  const push = r.push ? [`push: ${r.push.status}: ${r.push.message}`] : [];
  return [head, ...lines, ...push].join("\n");
}
