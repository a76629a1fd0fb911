import { mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { conflict, invalidInput, notFound, refused } from "../plan/errors";
import { ISSUES_DIR, MILESTONES_DIR } from "../plan/constants";
import { derivePlan } from "../plan/derive";
import { controlProblem } from "../plan/control-chars";
import { EDITABLE_FIELDS, SCHEMA_ORDER, fieldProblem, fieldSpec, type EditableKind } from "../plan/edit-fields";
import { appendLedger, checkEvent, envelope } from "./ledger";
import { RecordCache, loadRecords } from "./load";
import { diffPlans, type PlanDiff } from "../plan/plan-diff";
import { fieldChanges, type FieldChange } from "../plan/field-changes";
import { RecordEditError, editRecordTextAll, type FieldEdit } from "../plan/record-edit";
import { planRecord } from "../plan/queries";
import type { PlanRecords } from "../plan/records";
import { readRecordMap, recordVersion, recordsWithText } from "../plan/records-with";
import type { PlanFinding } from "../plan/shapes";
import { compareBytes } from "../plan/text";
import { by, lockedMove, stampNow } from "./transition";
import { keepUndo } from "./undo-store";
import { idProblem, readRecordFile, refuseFolderOutside, writeFileAtomic } from "./write";

// Create and edit plan records (plan.create, plan.edit): the edit is applied to the file's text in
// memory, the plan derived from it and diffed with the current one (the preview), and written only
// when it adds no FAIL finding (or the caller allows it), under the plan lock, with a ledger line.

export type SetValue = string | boolean | number;

export interface FieldChanges {
  set?: Record<string, SetValue>;
  unset?: string[];
  add?: Record<string, string[]>;
  remove?: Record<string, string[]>;
}

export interface EditRequest extends FieldChanges {
  id: string;
  if_version?: string;
  dry_run?: boolean;
  allow_findings?: boolean;
}

export interface CreateRequest {
  kind: EditableKind;
  id?: string;
  title: string;
  milestone?: string;
  set?: Record<string, SetValue>;
  add?: Record<string, string[]>;
  dry_run?: boolean;
  allow_findings?: boolean;
}

export interface RecordWriteResult {
  id: string;
  kind: EditableKind;
  action: "created" | "edited";
  /** The record file, relative to the repository. */
  path: string;
  dry_run: boolean;
  written: boolean;
  /** Why the write is (or would be) refused: the FAIL findings it adds. Absent when it may be written. */
  refused?: string;
  /** The FAIL findings the change adds (refused unless allow_findings). */
  fail_findings: PlanFinding[];
  /** The record's version before (edits) and after the change. */
  previous_version?: string;
  version: string;
  /** What the change does to the derived plan. */
  preview: PlanDiff;
  /** What it does to the record, field by field, old → new (the moments the write sets left out). */
  fields: FieldChange[];
  /** The changes, in words, as the ledger line lists them. */
  changes: string[];
  event?: string;
  at?: string;
  ledger_id?: number;
}

export interface EditOptions {
  now?: () => string;
  by?: string;
  cache?: RecordCache;
  /** With a shared database: new ids are reserved there (see lib/coordination/record-ids.ts). */
  ids?: IdReserver;
}

/** Where new ids are reserved beyond this clone's files, so that clones never mint the same one. */
export interface IdReserver {
  /** Reserve and answer the next id after the files' ids and the reserved ones; undefined without a pattern. */
  mint(fileIds: readonly string[], fallbackPrefix: string): Promise<string | undefined>;
  /** Reserve a given id (true when newly reserved); refused when another writer holds it. */
  reserve(id: string): Promise<boolean>;
  /** Give back a reservation the write did not use. */
  release(id: string): Promise<void>;
}

export const folderOf = (kind: EditableKind) => (kind === "issue" ? ISSUES_DIR : MILESTONES_DIR);
const MAX_VALUE = 10_000;

/** A write under the plan lock (the moves' own); a dry run takes no lock and writes nothing. */
export function underLock<T>(repo: string, o: EditOptions, dryRun: boolean, fn: () => T | Promise<T>): Promise<T> {
  if (!dryRun) return lockedMove(repo, o, fn);
  o.cache ??= new RecordCache();
  return Promise.resolve().then(fn);
}

export function checkId(id: string): void {
  const problem = idProblem(id);
  if (problem) throw invalidInput(problem);
}

/** A set value as the text written, checked against the field's type. */
function setText(kind: EditableKind, field: string, value: SetValue): { text: string; plain: boolean } {
  const spec = fieldSpec(kind, field)!;
  if (spec.type === "boolean") {
    if (value === true || value === "true") return { text: "true", plain: true };
    if (value === false || value === "false") return { text: "false", plain: true };
    throw invalidInput(`${field} is true or false, not '${String(value)}'`);
  }
  if (spec.type === "integer") {
    const text = String(value);
    if (!/^-?[0-9]{1,18}$/.test(text)) throw invalidInput(`${field} is a whole number, not '${text}'`);
    return { text, plain: true };
  }
  if (typeof value !== "string") throw invalidInput(`${field} is text; give it as a string, not ${typeof value}`);
  if (value.length > MAX_VALUE) throw invalidInput(`${field} is at most ${MAX_VALUE} characters`);
  const control = controlProblem(field, value, spec.isProse);
  if (control) throw invalidInput(control);
  if (spec.isRequired && value.trim() === "") throw invalidInput(`${field} is required; it may not be empty`);
  return { text: value, plain: false };
}

function checkListValue(kind: EditableKind, field: string, value: string): void {
  if (typeof value !== "string" || value.trim() === "") throw invalidInput(`an entry of ${field} is a non-empty text`);
  if (value.length > MAX_VALUE) throw invalidInput(`an entry of ${field} is at most ${MAX_VALUE} characters`);
  const control = controlProblem(`an entry of ${field}`, value, fieldSpec(kind, field)!.isProse);
  if (control) throw invalidInput(control);
  if (field === "serves" && !/^[a-z0-9][a-z0-9-]*#[a-z0-9][a-z0-9-]*$/.test(value)) {
    throw invalidInput(`'${value}' is not a serves entry; write it as <intent>#<criterion> (lowercase letters, digits, dashes)`);
  }
  if (field === "depends_on") {
    const problem = idProblem(value);
    if (problem) throw invalidInput(`depends_on: ${problem}`);
  }
}

/**
 * The field edits a request asks for, checked against the kind's fields and types; `milestones`
 * are the ids an issue's milestone may name. Every problem is invalid input, found before anything
 * is read from the record.
 */
export function fieldEdits(kind: EditableKind, changes: FieldChanges, milestones: ReadonlySet<string>): { edits: FieldEdit[]; words: string[] } {
  const edits: FieldEdit[] = [];
  const words: string[] = [];
  const touched = new Map<string, string>();
  const field = (name: string, op: string) => {
    const problem = fieldProblem(kind, name);
    if (problem) throw invalidInput(problem);
    const spec = fieldSpec(kind, name)!;
    if (op === "set" && spec.isList) {
      throw invalidInput(`${name} is a list; change its entries with add and remove (--add ${name}=VALUE, --remove ${name}=VALUE)`);
    }
    if ((op === "add" || op === "remove") && !spec.isList) {
      throw invalidInput(`${name} holds one value, not a list; use set or unset (--set ${name}=VALUE)`);
    }
    const before = touched.get(name);
    if (before && (before === "set" || before === "unset" || op === "set" || op === "unset")) {
      throw invalidInput(`${name} is given to both ${before} and ${op}; give one change of it`);
    }
    touched.set(name, op);
    return spec;
  };
  for (const [name, value] of Object.entries(changes.set ?? {})) {
    field(name, "set");
    const { text, plain } = setText(kind, name, value);
    if (kind === "issue" && name === "milestone" && !milestones.has(text)) {
      throw invalidInput(`no milestone '${text}'; cockpit plan roadmap lists the milestones`);
    }
    edits.push({ op: "set", field: name, value: text, plain });
    words.push(`set ${name}=${text}`);
  }
  for (const name of changes.unset ?? []) {
    const spec = field(name, "unset");
    if (spec.isRequired) throw invalidInput(`${name} is required by the schema; set it to another value instead of removing it`);
    edits.push({ op: "unset", field: name });
    words.push(`unset ${name}`);
  }
  for (const op of ["add", "remove"] as const) {
    for (const [name, values] of Object.entries(changes[op] ?? {})) {
      field(name, op);
      if (!Array.isArray(values) || values.length === 0) throw invalidInput(`${op}.${name} is a list of at least one entry`);
      for (const value of values) {
        checkListValue(kind, name, value);
        edits.push({ op, field: name, value });
        words.push(`${op} ${name}=${value}`);
      }
    }
  }
  if (edits.length === 0) throw invalidInput("nothing to change: give set, unset, add or remove");
  return { edits, words };
}

/** Apply edits to a text; an entry already there or absent is the caller's mistake, a file that cannot be edited is a refusal. */
export function applyEdits(id: string, text: string, edits: FieldEdit[], kind: EditableKind, order: readonly string[]): string {
  const current = readRecordMap(text).map;
  for (const e of edits) {
    if (e.op !== "add" || !current) continue;
    const list = current.get(e.field);
    if (Array.isArray(list) && list.includes(e.value)) throw invalidInput(`'${e.value}' is already in ${e.field} of ${id}`);
  }
  try {
    return editRecordTextAll(text, edits, order);
  } catch (error) {
    if (!(error instanceof RecordEditError)) throw error;
    if (/is not in|holds a|single value/.test(error.message)) throw invalidInput(`${id}: ${error.message}`);
    throw refused(`${folderOf(kind)}/${id}.yaml: ${error.message}`);
  }
}

export function describeFindings(findings: readonly PlanFinding[]): string {
  return findings.map((f) => `${f.level} ${f.code} ${f.subject}: ${f.message}`).join("; ");
}

interface Prepared {
  kind: EditableKind;
  id: string;
  path: string;
  absolute: string;
  before?: string;
  text: string;
  words: string[];
  records: PlanRecords;
}

/** Preview a prepared change, and write it unless it is a dry run or refused. */
async function finish(repo: string, p: Prepared, action: "created" | "edited", request: { dry_run?: boolean; allow_findings?: boolean }, at: string, o: EditOptions): Promise<RecordWriteResult> {
  const before = derivePlan(p.records);
  const after = derivePlan(recordsWithText(p.records, p.kind, p.id, p.text));
  const preview = diffPlans(before, after);
  const fail = preview.findings.new.filter((f) => f.level === "FAIL");
  const refusal = fail.length > 0 && !request.allow_findings ? `the change adds ${fail.length} FAIL finding(s): ${describeFindings(fail)}; fix them or pass allow_findings` : undefined;
  const result: RecordWriteResult = {
    id: p.id,
    kind: p.kind,
    action,
    path: p.path,
    dry_run: request.dry_run === true,
    written: false,
    ...(refusal ? { refused: refusal } : {}),
    fail_findings: fail,
    ...(p.before !== undefined ? { previous_version: recordVersion(p.before) } : {}),
    version: recordVersion(p.text),
    preview,
    fields: fieldChanges(p.before, p.text),
    changes: p.words,
  };
  if (request.dry_run) return result;
  if (refusal) throw refused(refusal);
  const event = action === "created" ? "plan_record_created" : "plan_record_edited";
  const payload = { record: p.id, kind: p.kind, changes: p.words.join("; ") };
  checkEvent(event, payload);
  const env = await envelope(repo, at, by(o)); // asked before the write: git refused, nothing is written
  writeFileAtomic(p.absolute, p.text);
  let ledgerId: number;
  try {
    ledgerId = appendLedger(repo, { ...env, event, payload });
  } catch (error) {
    throw refused(`the record was written but its ledger line was not (${error instanceof Error ? error.message : String(error)})`);
  }
  keepUndo(repo, { ledger_id: ledgerId, event, record: p.id, kind: p.kind, path: p.path, by: env.by, before: p.before ?? null, after: p.text });
  return { ...result, written: true, event, at, ledger_id: ledgerId };
}

/** Which kind of record an id names, and its file: milestones first, as plan.record looks them up. */
export function findRecordFile(repo: string, id: string): { kind: EditableKind; path: string; text: string } {
  for (const kind of ["milestone", "issue"] as const) {
    let file;
    try {
      file = readRecordFile(join(repo, folderOf(kind)), id, repo);
    } catch (error) {
      throw refused(error instanceof Error ? error.message : String(error));
    }
    if (file) return { kind, ...file };
  }
  throw notFound(`no milestone or issue '${id}'; cockpit plan issues and cockpit plan roadmap list them`);
}

/** Edit one record's fields (plan.edit). A refusal, a mismatch of versions and a dry run write nothing. */
export async function editRecord(repo: string, request: EditRequest, o: EditOptions = {}): Promise<RecordWriteResult> {
  checkId(request.id);
  return underLock(repo, o, request.dry_run === true, () => {
    const records = loadRecords(repo, o.cache);
    const file = findRecordFile(repo, request.id);
    const version = recordVersion(file.text);
    if (request.if_version !== undefined && request.if_version !== version) {
      throw conflict(`${request.id} changed since version ${request.if_version}: it is now ${version}; re-apply the edit to the current record`, {
        id: request.id,
        version,
        record: planRecord(derivePlan(records), { id: request.id }),
      });
    }
    const { edits, words } = fieldEdits(file.kind, request, new Set(records.milestones.map((m) => m.id)));
    const at = (o.now ?? stampNow)();
    const text = applyEdits(request.id, file.text, [...edits, { op: "set", field: "updated_at", value: at, plain: true }], file.kind, SCHEMA_ORDER[file.kind]);
    const rel = `${folderOf(file.kind)}/${request.id}.yaml`;
    return finish(repo, { kind: file.kind, id: request.id, path: rel, absolute: file.path, before: file.text, text, words, records }, "edited", request, at, o);
  });
}

/** A slug from a title: lowercase words joined by dashes. */
export function slugOf(title: string): string {
  const slug = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/, "");
  return slug || "record";
}

/** The ids of a folder's record files (parsed or not). */
function idsIn(repo: string, kind: EditableKind): string[] {
  try {
    return readdirSync(join(repo, folderOf(kind)))
      .filter((n) => n.endsWith(".yaml"))
      .map((n) => n.slice(0, -5));
  } catch {
    return [];
  }
}

/**
 * The next id in the plan's own pattern: the prefix most ids share, and the number after the
 * highest (`I0834` after `I0833`, `BK-034` after `BK-033`), as wide as it. Undefined when fewer
 * than half the ids are numbered (milestones named by slugs).
 */
export function nextId(ids: readonly string[], fallbackPrefix: string): string | undefined {
  const numbered = new Map<string, { count: number; max: bigint; width: number }>();
  for (const id of ids) {
    const m = /^(.*?)([0-9]+)$/.exec(id);
    if (!m) continue;
    const e = numbered.get(m[1]) ?? { count: 0, max: -1n, width: m[2].length };
    e.count++;
    const n = BigInt(m[2]);
    if (n > e.max) e.max = n;
    e.width = Math.max(e.width, m[2].length);
    numbered.set(m[1], e);
  }
  if (numbered.size === 0) return ids.length === 0 && fallbackPrefix ? `${fallbackPrefix}${"1".padStart(4, "0")}` : undefined;
  const [prefix, e] = [...numbered.entries()].sort((a, b) => b[1].count - a[1].count || (b[1].max > a[1].max ? 1 : b[1].max < a[1].max ? -1 : 0))[0];
  const total = [...numbered.values()].reduce((n, x) => n + x.count, 0);
  if (total * 2 < ids.length) return undefined;
  return `${prefix}${(e.max + 1n).toString().padStart(e.width, "0")}`;
}

/** The key order of the kind's newest record (by file name) that parses, then the schema's. */
function houseOrder(repo: string, kind: EditableKind): string[] {
  const ids = idsIn(repo, kind).sort(compareBytes).reverse();
  for (const id of ids.slice(0, 20)) {
    let file;
    try {
      file = readRecordFile(join(repo, folderOf(kind)), id, repo);
    } catch {
      continue;
    }
    const map = file && readRecordMap(file.text).map;
    if (!map) continue;
    const own = [...map.keys()].filter((k) => SCHEMA_ORDER[kind].includes(k));
    return [...own, ...SCHEMA_ORDER[kind].filter((k) => !own.includes(k))];
  }
  return [...SCHEMA_ORDER[kind]];
}

/** Create an issue or a milestone (plan.create): its id given or minted under the lock. */
export async function createRecord(repo: string, request: CreateRequest, o: EditOptions = {}): Promise<RecordWriteResult> {
  if (request.id !== undefined) checkId(request.id);
  if (request.kind === "issue" && !request.milestone) throw invalidInput("a new issue names its milestone (--milestone M)");
  if (request.kind === "milestone" && request.milestone !== undefined) throw invalidInput("a milestone belongs to no milestone; leave out milestone");
  if (request.title.trim() === "") throw invalidInput("a new record has a title");
  // Nothing is listed in, or created through, a records folder that leads outside the repository.
  refuseFolderOutside(repo, folderOf(request.kind));
  return underLock(repo, o, request.dry_run === true, async () => {
    const records = loadRecords(repo, o.cache);
    const kind = request.kind;
    const set: Record<string, SetValue> = { ...(request.set ?? {}) };
    for (const k of ["title", "milestone"] as const) {
      if (Object.hasOwn(set, k)) throw invalidInput(`${k} is given on its own (title, milestone), not in set`);
    }
    set.title = request.title;
    if (request.milestone !== undefined) set.milestone = request.milestone;
    if (!Object.hasOwn(set, "slug")) set.slug = slugOf(request.title);
    const { edits, words } = fieldEdits(kind, { set, add: request.add }, new Set(records.milestones.map((m) => m.id)));
    const taken = new Set([...idsIn(repo, "issue"), ...idsIn(repo, "milestone")]);
    // A dry run reserves nothing: its id is the one the files alone would give.
    const reserver = request.dry_run ? undefined : o.ids;
    let id = request.id;
    let reserved: string | undefined;
    if (id === undefined) {
      const prefix = kind === "issue" ? "I" : "M";
      id = reserver ? await reserver.mint(idsIn(repo, kind), prefix) : nextId(idsIn(repo, kind), prefix);
      if (id !== undefined && reserver) reserved = id;
      else if (id === undefined) id = kind === "milestone" ? String(set.slug) : undefined;
      if (id === undefined) throw invalidInput(`no id pattern to follow among the ${kind}s; give one (--id)`);
    }
    try {
      checkId(id);
      if (taken.has(id)) throw invalidInput(`'${id}' is already the id of a record; give another (--id) or leave it out to mint one`);
      if (reserver && reserved === undefined && (await reserver.reserve(id))) reserved = id;
      return await writeNew(repo, kind, id, edits, words, records, request, o);
    } catch (error) {
      if (reserved !== undefined) await reserver!.release(reserved).catch(() => undefined);
      throw error;
    }
  });
}

/** The new record's text in the house's key order, previewed and (unless a dry run) written. */
async function writeNew(
  repo: string,
  kind: EditableKind,
  id: string,
  edits: FieldEdit[],
  words: string[],
  records: PlanRecords,
  request: CreateRequest,
  o: EditOptions,
): Promise<RecordWriteResult> {
  const at = (o.now ?? stampNow)();
  const order = houseOrder(repo, kind);
  const text = applyEdits(
    id,
    `id: ${id}\n`,
    [...edits, { op: "set", field: "created_at", value: at, plain: true }, { op: "set", field: "updated_at", value: at, plain: true }],
    kind,
    order,
  );
  // The id line was written by hand: check it reads back as the id.
  if (readRecordMap(text).map?.get("id") !== id) throw invalidInput(`'${id}' cannot be written as a plain id; choose letters, digits, '-' and '_'`);
  const rel = `${folderOf(kind)}/${id}.yaml`;
  refuseFolderOutside(repo, folderOf(kind));
  if (!request.dry_run) mkdirSync(join(repo, folderOf(kind)), { recursive: true });
  return finish(repo, { kind, id, path: rel, absolute: join(repo, rel), text, words: [`${kind} ${id}`, ...words], records }, "created", request, at, o);
}

export { EDITABLE_FIELDS };

/** A record's current version (its file's content hash), or undefined when there is no such record. */
export function currentVersion(repo: string, id: string): string | undefined {
  if (idProblem(id)) return undefined;
  try {
    return recordVersion(findRecordFile(repo, id).text);
  } catch {
    return undefined;
  }
}
