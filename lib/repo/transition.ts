import { join } from "node:path";
import { CapabilityError, invalidInput, notFound, refused } from "../plan/errors";
import { controlProblem } from "../plan/control-chars";
import { COCKPIT_VERSION } from "../version";
import { requireState } from "./state-path";
import { keepUndo, UNDO_STATE } from "./undo-store";
import { ISSUES_DIR, LEDGER_FILE, MILESTONES_DIR } from "../plan/constants";
import { DerivationMemory, derivePlan } from "../plan/derive";
import { appendToBlockList, evidenceLines, setField, setFields, yamlScalar } from "../plan/edit";
import { checkEvent, appendLedger, envelope } from "./ledger";
import { RecordCache, loadRecords, recordFromText } from "./load";
import { LOCK_STATE, LockBusyError, withPlanLock } from "./lock";
import { missingEvidence } from "../plan/evidence-coverage";
import { pickNextIssue } from "../plan/next-issue";
import { CANONICAL_STAMP, claimOrder, evidenceProblem, findIssue, guardMove as guardMoveAt, planAfter, predatesSeals, statusProblem } from "../plan/guards";
import { priorityRank } from "../plan/next-issue";
import { nothingToClaim } from "../plan/queries";
import type { IssueRecord, PlanRecords } from "../plan/records";
import { MOVES, sealOf, type Move } from "../plan/seal";
import type { Plan, PlanIssue } from "../plan/shapes";
import { compareBytes } from "../plan/text";
import type { EvidenceResult, TransitionResult } from "./move-shapes";
import { idProblem, readRecordFile, refuseFolderOutside, writeFileAtomic } from "./write";

/** Now, as a stamp: UTC, second precision. The clock is read here, outside the pure core. */
export function stampNow(): string {
  return new Date().toISOString().slice(0, 19) + "Z";
}

/** The guards of §6.2 (lib/plan/guards.ts) for a move made now, unless `at` says when. */
export function guardMove(plan: Plan, records: PlanRecords, issue: PlanIssue, move: Move, at = stampNow(), derive?: (records: PlanRecords) => Plan): string | undefined {
  return guardMoveAt(plan, records, issue, move, at, derive);
}

export type { EvidenceResult, TransitionResult };

export interface EvidenceInput {
  record: string;
  covers: string;
  type: string;
  command?: string;
  artifact?: string;
  result?: string;
}

export interface AdoptResult {
  adopted: { issue: string; stamps: string[] }[];
  records: number;
  stamps: number;
  dry_run: boolean;
}

export const EVIDENCE_TYPES = ["test", "build", "ci", "artifact", "manual"] as const;

export interface WriteOptions {
  /** The clock, for tests; UTC seconds `YYYY-MM-DDTHH:MM:SSZ`. */
  now?: () => string;
  /** Who writes, for the ledger's `by` (default `cockpit/<version>`). */
  by?: string;
  /** Parsed files kept by a long-running process; every derivation still reads what changed. */
  cache?: RecordCache;
  /** How every plan of the call is derived (default `derivePlan`); a server passes one with its memory. */
  derive?: (records: PlanRecords) => Plan;
  /**
   * The records as the files are now and the plan derived from them, asked inside the lock
   * (default: every file looked at through `cache`, then derived). A server that watches the
   * record folders passes its served state, which reads only what changed.
   */
  current?: () => Promise<{ records: PlanRecords; plan: Plan }>;
  /**
   * Called once before the lock is waited for: a server takes here the look at every file it owes
   * (its time bound), so that inside the lock only what changed since is read again.
   */
  before?: () => void;
  /** Called inside the lock once a record (this file) and its ledger line are written. */
  written?: (file: string) => void;
  /**
   * Called with the records a move wrote (the records before, with the one record as written) and
   * the plan derived from them for the answer: a server serves that plan while its files, read
   * again, hold the same records, rather than deriving it once more.
   */
  derived?: (records: PlanRecords, plan: Plan) => void;
  /**
   * Coordination beyond this clone (a shared database): called inside the lock once the guards
   * pass, before the record is written; a throw refuses the move and nothing is written.
   */
  beforeWrite?: (issue: PlanIssue, move: Move) => void | Promise<void>;
  /**
   * For `claim`: of the READY candidates in the §3.5 order, the first this writer may take (and
   * takes); undefined when every one is taken elsewhere.
   */
  choose?: (candidates: PlanIssue[]) => Promise<PlanIssue | undefined>;
  /**
   * For `claim`, before any READY issue: of the ACTIVE candidates in the same order, the first
   * whose lease has expired, taken over (lib/coordination/plan-leases.ts). The record is not
   * stamped again; the ledger gets a `plan_reclaim` line.
   */
  reclaim?: (candidates: PlanIssue[]) => Promise<PlanIssue | undefined>;
  /** What the reclaim's ledger line names: the session taken over, and the new epoch. */
  reclaimed?: () => { previous: string; previous_session: string; epoch: number; reason?: string } | undefined;
  /** A person's override of another's session (verify, done): the reason, kept in the ledger line with `forced`. */
  forced?: string;
}

/** Who writes, as the ledger and the lock name it. */
export const by = (o: { by?: string }) => o.by ?? `cockpit/${COCKPIT_VERSION}`;
const deriveWith = (o: WriteOptions) => o.derive ?? derivePlan;

/** The records as the files are now; called inside the lock. */
async function currentRecords(repo: string, o: WriteOptions): Promise<PlanRecords> {
  return o.current ? (await o.current()).records : loadRecords(repo, o.cache);
}

/** The records as the files are now and their plan; called inside the lock. */
async function currentPlanOf(repo: string, o: WriteOptions): Promise<{ records: PlanRecords; plan: Plan }> {
  if (o.current) return o.current();
  const records = loadRecords(repo, o.cache);
  return { records, plan: deriveWith(o)(records) };
}

/** The records with one replaced by what its new text makes: the files as they are after a write. */
function withRecord<R extends { id: string }>(list: readonly R[], record: R): R[] {
  return list.map((r) => (r.id === record.id ? record : r));
}

/** The errors of a file system with no room left (a full disk, a quota, a file size limit). */
const NO_ROOM = new Set(["ENOSPC", "EDQUOT", "EFBIG"]);

/** The Cockpit's own state every locked write uses: the lock, the ledger and the undo store. */
const WRITE_STATE = [...LOCK_STATE, LEDGER_FILE, UNDO_STATE];

/**
 * Hold the plan lock, mapping a wait that runs out to a refusal that names the holder, and a lock
 * that cannot be taken at all (a read-only checkout) to a refusal that says why.
 */
export async function locked<T>(
  repo: string,
  o: Pick<WriteOptions, "by" | "cache" | "derive" | "before">,
  fn: () => T | Promise<T>,
): Promise<T> {
  // Within one call the plan is read several times (guard, after the write); parsed files are
  // kept for the call so only the record written is read again, and a derivation memory for the
  // call lets the plan after the write reuse what the one before it read of every other record.
  o.cache ??= new RecordCache();
  if (o.derive === undefined) {
    const memory = new DerivationMemory();
    o.derive = (records) => derivePlan(records, memory);
  }
  // The state is checked before anything is written, the lock included; git's answer (is it
  // tracked?) comes while `before` reads the records.
  const checked = requireState(repo, WRITE_STATE);
  checked.catch(() => undefined);
  o.before?.();
  await checked;
  let entered = false;
  try {
    return await withPlanLock(repo, by(o), () => {
      entered = true;
      return fn();
    });
  } catch (error) {
    if (error instanceof LockBusyError) throw refused(error.message);
    if (error instanceof CapabilityError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    const why = code !== undefined && NO_ROOM.has(code) ? "is the disk full?" : "is the repository writable?";
    if (!entered) throw refused(`the plan lock cannot be taken (${code ?? (error instanceof Error ? error.message : String(error))}); ${why}`);
    // A record's write failed (its temporary file is gone, the record keeps its old bytes).
    if (typeof code === "string") throw refused(`a record could not be written (${error instanceof Error ? error.message : code}); ${why}`);
    throw error;
  }
}

/**
 * A move's lock. A caller that keeps nothing (a command-line process) reads and parses every
 * record before it waits: inside the lock only the look at every file and the parse of what
 * changed meanwhile remain, so racing processes parse at once, not one after another.
 */
export function lockedMove<T>(repo: string, o: WriteOptions, fn: () => T | Promise<T>): Promise<T> {
  if (o.cache === undefined && o.current === undefined && o.before === undefined) {
    const cache = (o.cache = new RecordCache());
    o.before = () => void loadRecords(repo, cache);
  }
  return locked(repo, o, fn);
}

function checkId(id: string): void {
  const problem = idProblem(id);
  if (problem) throw invalidInput(problem);
}

/**
 * Stamp, seal and `updated_at` in one write, then the ledger line; inside the lock. Returns what
 * makes the answer once the lock is released: the plan after is derived from the text written (the
 * one record that changed), not by reading every file again, and for start and verify only then
 * (it reports; DONE's evidence guard needs it inside the lock).
 */
async function applyMove(repo: string, records: PlanRecords, issue: PlanIssue, move: Move, o: WriteOptions): Promise<() => TransitionResult> {
  const derive = deriveWith(o);
  const at = (o.now ?? stampNow)();
  const problem = statusProblem(issue, move);
  if (problem) throw refused(problem);
  await o.beforeWrite?.(issue, move);
  const file = readIssueFile(repo, issue.id);
  const { field, seal, event } = MOVES[move];
  const payload: Record<string, string> = { issue: issue.id, ...(o.forced !== undefined ? { forced: "true", reason: o.forced } : {}) };
  checkEvent(event, payload);
  const text = setFields(file.text, [
    [field, at],
    [seal, sealOf(event, issue.id, at)],
    ["updated_at", at],
  ]);
  const record = recordFromText("issue", issue.id, text);
  const planWith = (r: IssueRecord) => {
    const recordsAfter = { ...records, issues: withRecord(records.issues, r) };
    const plan = derive(recordsAfter);
    o.derived?.(recordsAfter, plan);
    return plan;
  };
  let after: Plan | undefined;
  if (move === "done") {
    after = record ? planWith(record) : planAfter(records, issue.id, move, at, derive);
    const missing = evidenceProblem(issue, records, after);
    if (missing) throw refused(missing);
  }
  const env = await envelope(repo, at, by(o)); // asked before the write: git refused, nothing is written
  writeFileAtomic(file.path, text);
  const ledgerId = appendLedgerOrReport(repo, { ...env, event, payload });
  keepUndo(repo, { ledger_id: ledgerId, event, record: issue.id, kind: "issue", path: `${ISSUES_DIR}/${issue.id}.yaml`, by: env.by, before: file.text, after: text });
  o.written?.(file.path);
  // A text the loader cannot read back: the files as they are now, while the lock is held.
  if (!record) after = derive(loadRecords(repo, o.cache));
  return () => {
    after ??= planWith(record!);
    const next = pickNextIssue(after);
    return {
      issue: issue.id,
      transition: move,
      from: issue.status,
      to: after.issues.find((i) => i.id === issue.id)?.status ?? "",
      field,
      at,
      event,
      ledger_id: ledgerId,
      ...(next ? { next_ready: next.id } : {}),
    };
  };
}

function appendLedgerOrReport(repo: string, line: Parameters<typeof appendLedger>[1]): number {
  try {
    return appendLedger(repo, line);
  } catch (error) {
    throw refused(
      `the record was written but its ledger line was not (${error instanceof Error ? error.message : String(error)}); the stamp and its seal stand`,
    );
  }
}

function readIssueFile(repo: string, id: string): { path: string; text: string } {
  let file;
  try {
    file = readRecordFile(join(repo, ISSUES_DIR), id, repo);
  } catch (error) {
    throw refused(error instanceof Error ? error.message : String(error));
  }
  if (!file) throw notFound(`issue '${id}' is in the plan but ${ISSUES_DIR}/${id}.yaml cannot be found`);
  return file;
}

/** Move one issue: `start`, `verify` or `done` (§6). A refusal writes nothing. */
export async function transition(repo: string, id: string, move: Move, o: WriteOptions = {}): Promise<TransitionResult> {
  checkId(id);
  if (!Object.hasOwn(MOVES, move)) throw invalidInput(`'${move}' is not a transition; the transitions are start, verify, done`);
  // Its records are not read, so their moves are refused by the folder's name, not "no issue".
  refuseFolderOutside(repo, ISSUES_DIR);
  const answer = await lockedMove(repo, o, async () => {
    const { records, plan } = await currentPlanOf(repo, o);
    return applyMove(repo, records, findIssue(plan, id), move, o);
  });
  return answer();
}

/**
 * Start the next ready issue in one locked step: the §3.5 choice, or with a milestone only issues
 * of it. Two callers at once get two different issues.
 */
export async function claim(repo: string, milestone: string | undefined, o: WriteOptions = {}, named?: string): Promise<TransitionResult> {
  refuseFolderOutside(repo, ISSUES_DIR);
  const answer = await lockedMove(repo, o, async () => {
    const { records, plan } = await currentPlanOf(repo, o);
    let issue: PlanIssue | undefined;
    // One issue named: it alone, READY to start or ACTIVE with its lease over to take over.
    if (named !== undefined) {
      const target = findIssue(plan, named);
      if (target.status === "ACTIVE") {
        const taken = o.reclaim ? await o.reclaim([target]) : undefined;
        if (!taken) throw refused(`${target.id} is ACTIVE and its session's lease has not ended (or nobody's session ever held it); cockpit plan agents shows who holds it`);
        return reclaimMove(repo, taken, o);
      }
      if (target.status !== "READY") throw refused(`${target.id} is ${target.status}: a claim starts a READY issue or takes over an ACTIVE one whose lease ended`);
      issue = o.choose ? await o.choose([target]) : target;
      if (!issue) throw refused(`${target.id} is held by another session; cockpit plan agents shows who holds it`);
      return applyMove(repo, records, issue, "start", o);
    }
    if (o.reclaim) {
      const taken = await o.reclaim(claimOrder(plan, milestone, "ACTIVE"));
      if (taken) return reclaimMove(repo, taken, o);
    }
    if (o.choose) {
      if (milestone !== undefined && !plan.milestones.some((m) => m.id === milestone)) throw notFound(`no milestone '${milestone}'`);
      const candidates = claimOrder(plan, milestone);
      if (candidates.length === 0) throw refused(nothingToClaim(milestone === undefined ? plan.issues : plan.issues.filter((i) => i.milestone === milestone)));
      issue = await o.choose(candidates);
      if (!issue) throw refused(`every READY issue (${candidates.length}) is held by another session; cockpit plan agents shows who holds what`);
    } else if (milestone === undefined) {
      issue = pickNextIssue(plan);
      if (!issue) throw refused(nothingToClaim(plan.issues));
    } else {
      if (!plan.milestones.some((m) => m.id === milestone)) throw notFound(`no milestone '${milestone}'`);
      const candidates = plan.issues.filter((i) => i.milestone === milestone);
      issue = candidates
        .filter((i) => i.status === "READY")
        .sort((a, b) => a.wave - b.wave || priorityRank(a.priority) - priorityRank(b.priority) || compareBytes(a.id, b.id))[0];
      if (!issue) throw refused(nothingToClaim(candidates));
    }
    return applyMove(repo, records, issue, "start", o);
  });
  return answer();
}

/** A claim that took over an abandoned ACTIVE issue: no record is written, one `plan_reclaim` ledger line. */
async function reclaimMove(repo: string, issue: PlanIssue, o: WriteOptions): Promise<() => TransitionResult> {
  const at = (o.now ?? stampNow)();
  const taken = o.reclaimed?.();
  const payload = { issue: issue.id, previous: taken?.previous ?? "", previous_session: taken?.previous_session ?? "", epoch: String(taken?.epoch ?? ""), ...(taken?.reason ? { reason: taken.reason } : {}) };
  checkEvent("plan_reclaim", payload);
  const env = await envelope(repo, at, by(o));
  let ledgerId: number;
  try {
    ledgerId = appendLedger(repo, { ...env, event: "plan_reclaim", payload });
  } catch (error) {
    throw refused(`the reclaim of ${issue.id} was not recorded: its ledger line could not be written (${error instanceof Error ? error.message : String(error)}); the session it took over is open again`);
  }
  return () => ({ issue: issue.id, transition: "start", from: issue.status, to: issue.status, field: "started_at", at, event: "plan_reclaim", ledger_id: ledgerId });
}

/** Record evidence on an issue or a milestone (§6.6), appended at the end of its evidence block. */
export async function recordEvidence(repo: string, input: EvidenceInput, o: WriteOptions = {}): Promise<EvidenceResult> {
  checkId(input.record);
  if (!(EVIDENCE_TYPES as readonly string[]).includes(input.type)) {
    throw invalidInput(`'${input.type}' is not an evidence type; the types are ${EVIDENCE_TYPES.join(", ")}`);
  }
  if (input.command === undefined && input.artifact === undefined) {
    throw invalidInput("evidence names the command that proves it or the artifact it produced; narrative is not evidence");
  }
  if (input.covers.trim() === "") throw invalidInput("covers names the required token this evidence proves");
  for (const field of ["covers", "command", "artifact", "result"] as const) {
    const problem = input[field] === undefined ? undefined : controlProblem(field, input[field], false);
    if (problem) throw invalidInput(problem);
  }
  return lockedMove(repo, o, async () => {
    const records = await currentRecords(repo, o);
    const issue = records.issues.find((r) => r.id === input.record);
    const milestone = issue ? undefined : records.milestones.find((r) => r.id === input.record);
    const record = issue ?? milestone;
    if (!record) throw notFound(`no milestone or issue '${input.record}'`);
    if (!record.evidence_required.includes(input.covers)) {
      throw refused(`${record.id} does not require evidence '${input.covers}' (declared: ${record.evidence_required.join(",")})`);
    }
    let file;
    try {
      file = readRecordFile(join(repo, issue ? ISSUES_DIR : MILESTONES_DIR), record.id, repo);
    } catch (error) {
      throw refused(error instanceof Error ? error.message : String(error));
    }
    if (!file) throw notFound(`no file for '${record.id}'`);
    const at = (o.now ?? stampNow)();
    const env = await envelope(repo, at, by(o));
    const payload = { issue: record.id, covers: input.covers, type: input.type };
    checkEvent("plan_evidence", payload);
    let text: string;
    try {
      text = appendToBlockList(
        file.text,
        "evidence",
        evidenceLines({ ...input, commit: env.head, recorded_at: at }),
      );
    } catch (error) {
      throw refused(`${record.id}: ${error instanceof Error ? error.message : String(error)}`);
    }
    text = setField(text, "updated_at", at);
    writeFileAtomic(file.path, text);
    appendLedgerOrReport(repo, { ...env, event: "plan_evidence", payload });
    o.written?.(file.path);
    const written = issue ? recordFromText("issue", record.id, text) : recordFromText("milestone", record.id, text);
    const after = written ? undefined : loadRecords(repo, o.cache);
    const now = written ?? (issue ? after!.issues : after!.milestones).find((r) => r.id === record.id) ?? record;
    return {
      record: record.id,
      covers: input.covers,
      event: "plan_evidence",
      at,
      evidence_have: now.covers.length,
      evidence_need: now.evidence_required.length,
      evidence_missing: missingEvidence(now),
    };
  });
}

/**
 * Admit a plan written before seals existed: list every unsealed stamp recorded before
 * SEALED_FROM in its record's `unsealed_stamps`. Stamps at or after SEALED_FROM, and stamps whose
 * seal is present but wrong, stay findings.
 */
export async function adoptLegacyStamps(repo: string, options: WriteOptions & { dryRun?: boolean } = {}): Promise<AdoptResult> {
  // A dry run takes no lock and writes nothing: it answers on a read-only checkout.
  const under = (fn: () => Promise<AdoptResult>) => (options.dryRun ? fn() : lockedMove(repo, options, fn));
  return under(async () => {
    const records = await currentRecords(repo, options);
    const adopted: AdoptResult["adopted"] = [];
    for (const r of [...records.issues].sort((a, b) => compareBytes(a.id, b.id))) {
      const entries: string[] = [];
      for (const move of ["start", "verify", "done"] as const) {
        const { field, seal } = MOVES[move];
        const stamp = r[field];
        const entry = `${field} ${stamp}`;
        if (stamp === "" || r[seal] !== "" || !predatesSeals(stamp)) continue;
        if (r.unsealed_stamps.includes(entry) || entries.includes(entry)) continue;
        entries.push(entry);
      }
      if (entries.length === 0) continue;
      adopted.push({ issue: r.id, stamps: entries });
      if (options.dryRun) continue;
      const file = readIssueFile(repo, r.id);
      let text = file.text;
      for (const entry of entries) {
        const item = CANONICAL_STAMP.test(entry.slice(entry.indexOf(" ") + 1)) ? entry : yamlScalar(entry);
        text = appendToBlockList(text, "unsealed_stamps", [item]);
      }
      const at = (options.now ?? stampNow)();
      const env = await envelope(repo, at, by(options));
      writeFileAtomic(file.path, text);
      appendLedgerOrReport(repo, { ...env, event: "plan_adopt", payload: { issue: r.id, stamps: entries.join(", ") } });
      options.written?.(file.path);
    }
    return {
      adopted,
      records: adopted.length,
      stamps: adopted.reduce((n, a) => n + a.stamps.length, 0),
      dry_run: options.dryRun === true,
    };
  });
}

export { CapabilityError };
