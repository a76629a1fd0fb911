import { readdirSync } from "node:fs";
import { join } from "node:path";
import { invalidInput, refused } from "../plan/errors";
import { ISSUES_DIR, MILESTONES_DIR } from "../plan/constants";
import { derivePlan } from "../plan/derive";
import { appendLedger, envelope, type LedgerLine } from "../repo/ledger";
import { RecordCache, loadRecords } from "../repo/load";
import { issueFromMap, milestoneFromMap, type IssueRecord, type MilestoneRecord, type PlanRecords } from "../plan/records";
import type { PlanFinding } from "../plan/shapes";
import { compareBytes } from "../plan/text";
import { bidiProblem } from "../plan/control-chars";
import { by, lockedMove, stampNow, type WriteOptions } from "../repo/transition";
import { idProblem, refuseFolderOutside } from "../repo/write";
import { parseBacklog } from "./backlog";
import { parseBeads } from "./beads";
import { parseGithub } from "./github";
import { checkSourceBounds, LIMITS, type ImportLimits } from "./limits";
import { renderIssue, renderMilestone, type Rendered } from "./render";
import type { ImportFormat, ImportResult, ParseOptions, ParsedSource, Skip, SourceFiles } from "./shapes";
import { parseTaskmaster } from "./taskmaster";
import { writeNewFiles, type NewFile } from "./write-batch";

// plan.import: a source's records parsed (pure, per format), the ones the plan lacks written as
// milestone and issue records under the plan lock, one `plan_imported` ledger line each, and the
// answer naming every loss. A dry run derives the same answer and writes nothing.

export const PARSERS: Record<ImportFormat, (files: SourceFiles, options: ParseOptions) => ParsedSource> = {
  beads: parseBeads,
  backlog: parseBacklog,
  taskmaster: parseTaskmaster,
  github: parseGithub,
};

/** The formats whose ids are made from a prefix (the others keep the source's ids as written). */
const PREFIXED: readonly ImportFormat[] = ["taskmaster", "github"];

export interface ImportRequest {
  format: ImportFormat;
  /** What the source was, for the answer and the ledger (a path, or what a browser named the upload). */
  source: string;
  files: SourceFiles;
  prefix?: string;
  dependencies?: string;
  dry_run?: boolean;
}

export type ImportOptions = Pick<WriteOptions, "by" | "cache"> & {
  now?: () => string;
  /** Smaller bounds than LIMITS, for a test that crosses one without a source of its size. */
  limits?: Partial<ImportLimits>;
};

const ORDER_STEP = 10;

function checkRequest(r: ImportRequest, limits: ImportLimits): void {
  if (r.prefix !== undefined) {
    if (!PREFIXED.includes(r.format)) throw invalidInput(`${r.format} ids are kept as the source writes them; --prefix is for taskmaster and github`);
    if (!/^[A-Za-z][A-Za-z0-9_]{0,31}$/.test(r.prefix)) throw invalidInput(`'${r.prefix}' is not a prefix; give letters, digits and '_', starting with a letter (TM, GH, WEB)`);
  }
  if (r.dependencies !== undefined) {
    if (r.format !== "github") throw invalidInput("--dependencies is for github: the issue-dependencies list of a GitHub repository");
    if (Buffer.byteLength(r.dependencies) > limits.fileBytes) throw invalidInput(`the dependencies file is more than the ${limits.fileBytes} bytes an import reads of one file`);
  }
  checkSourceBounds(r.files, limits);
}

function idsIn(repo: string, dir: string): Set<string> {
  try {
    return new Set(
      readdirSync(join(repo, dir))
        .filter((n) => n.endsWith(".yaml"))
        .map((n) => n.slice(0, -5)),
    );
  } catch {
    return new Set();
  }
}

/** The findings of `after` that `before` does not have, each occurrence counted. */
export function newFindings(before: readonly PlanFinding[], after: readonly PlanFinding[]): PlanFinding[] {
  const key = (f: PlanFinding) => `${f.level}\u0000${f.code}\u0000${f.subject}\u0000${f.message}`;
  const had = new Map<string, number>();
  for (const f of before) had.set(key(f), (had.get(key(f)) ?? 0) + 1);
  return after.filter((f) => {
    const n = had.get(key(f)) ?? 0;
    if (n === 0) return true;
    had.set(key(f), n - 1);
    return false;
  });
}

/** Ids by their file name with case folded: a file system that ignores case (macOS, Windows) takes two such names for one file. */
const byFoldedName = (ids: Iterable<string>) => new Map([...ids].map((id) => [id.toLowerCase(), id]));

const caseTwin = (dir: string, id: string, twin: string): string =>
  `its record file ${dir}/${id}.yaml differs from ${twin}'s only in case, and a file system that ignores case (macOS, Windows) takes the two for one file; ${twin} is kept`;

interface Made {
  kind: "issue" | "milestone";
  id: string;
  sourceId: string;
  path: string;
  text: string;
  stamps: string[];
}

/** Import a source into the repository's plan (plan.import). */
export async function importPlan(repo: string, request: ImportRequest, o: ImportOptions = {}): Promise<ImportResult> {
  const limits: ImportLimits = { ...LIMITS, ...o.limits };
  checkRequest(request, limits);
  const at = (o.now ?? stampNow)();
  const parsed = PARSERS[request.format](request.files, { prefix: request.prefix, dependencies: request.dependencies, now: at, limits });
  const run = async (): Promise<ImportResult> => {
    const records = loadRecords(repo, o.cache);
    const skipped: Skip[] = [...parsed.skipped];
    const takenMilestones = idsIn(repo, MILESTONES_DIR);
    const takenIssues = idsIn(repo, ISSUES_DIR);
    const milestoneFiles = byFoldedName(takenMilestones);
    const issueFiles = byFoldedName(takenIssues);
    const made: Made[] = [];
    const newMilestones: MilestoneRecord[] = [];
    const newIssues: IssueRecord[] = [];
    let order = records.milestones.reduce((max, m) => (m.order > max ? m.order : max), 0);
    const importedMilestones = new Set<string>();
    for (const m of parsed.milestones) {
      const unreadable = oneLineProblem(m);
      if (unreadable) {
        skipped.push({ id: m.id, why: unreadable });
        continue;
      }
      if (takenMilestones.has(m.id) || takenIssues.has(m.id)) {
        const where = takenMilestones.has(m.id) ? `${MILESTONES_DIR}/${m.id}.yaml` : `${ISSUES_DIR}/${m.id}.yaml`;
        // A milestone the import makes (not a source record) is simply used as it is.
        if (m.sourceId !== undefined) skipped.push({ id: m.id, why: `already in the plan (${where}); an import never overwrites a record` });
        continue;
      }
      const twin = milestoneFiles.get(m.id.toLowerCase());
      if (twin !== undefined) {
        skipped.push({ id: m.id, why: caseTwin(MILESTONES_DIR, m.id, twin) });
        continue;
      }
      milestoneFiles.set(m.id.toLowerCase(), m.id);
      order += ORDER_STEP;
      const rendered = renderMilestone(m, order, at);
      const { text } = rendered;
      const record = readBack("milestone", m.id, rendered);
      newMilestones.push(record as MilestoneRecord);
      importedMilestones.add(m.id);
      made.push({ kind: "milestone", id: m.id, sourceId: m.sourceId ?? "", path: `${MILESTONES_DIR}/${m.id}.yaml`, text, stamps: [] });
    }
    for (const i of parsed.issues) {
      const taken = takenIssues.has(i.id) ? `${ISSUES_DIR}/${i.id}.yaml` : takenMilestones.has(i.id) || importedMilestones.has(i.id) ? `${MILESTONES_DIR}/${i.id}.yaml` : undefined;
      if (taken) {
        skipped.push({ id: i.id, why: `already in the plan (${taken}); an import never overwrites a record` });
        continue;
      }
      const problem = idProblem(i.id);
      if (problem) {
        skipped.push({ id: i.id, why: `its id cannot name a record file (${problem})` });
        continue;
      }
      const unreadable = oneLineProblem(i);
      if (unreadable) {
        skipped.push({ id: i.id, why: unreadable });
        continue;
      }
      const twin = issueFiles.get(i.id.toLowerCase());
      if (twin !== undefined) {
        skipped.push({ id: i.id, why: caseTwin(ISSUES_DIR, i.id, twin) });
        continue;
      }
      issueFiles.set(i.id.toLowerCase(), i.id);
      const rendered = renderIssue(i, at);
      const { text } = rendered;
      newIssues.push(readBack("issue", i.id, rendered) as IssueRecord);
      const stamps = [i.started_at !== undefined ? `started_at ${i.started_at}` : "", i.completed_at !== undefined ? `completed_at ${i.completed_at}` : ""].filter(Boolean);
      made.push({ kind: "issue", id: i.id, sourceId: i.sourceId, path: `${ISSUES_DIR}/${i.id}.yaml`, text, stamps });
    }
    const byName = (a: { id: string }, b: { id: string }) => compareBytes(`${a.id}.yaml`, `${b.id}.yaml`);
    const after: PlanRecords = {
      ...records,
      milestones: [...records.milestones, ...newMilestones].sort(byName),
      issues: [...records.issues, ...newIssues].sort(byName),
    };
    const planBefore = derivePlan(records);
    const planAfter = made.length > 0 ? derivePlan(after) : planBefore;
    const status = new Map(planAfter.issues.map((i) => [i.id, i.status]));
    // Counted in Maps: a source's status word (`__proto__`) is a key, never a property lookup.
    const counts = new Map<string, Map<string, number>>();
    const madeIssues = new Set(made.filter((m) => m.kind === "issue").map((m) => m.id));
    for (const i of parsed.issues) {
      if (!madeIssues.has(i.id)) continue;
      const to = status.get(i.id) ?? "?";
      const row = counts.get(i.sourceStatus) ?? counts.set(i.sourceStatus, new Map()).get(i.sourceStatus)!;
      row.set(to, (row.get(to) ?? 0) + 1);
    }
    const mapped = ownKeysOf(counts, (row) => ownKeysOf(row, (n) => n));
    const issuesMade = made.filter((m) => m.kind === "issue").map((m) => m.id);
    const milestonesMade = made.filter((m) => m.kind === "milestone").map((m) => m.id);
    const result: ImportResult = {
      format: request.format,
      source: request.source,
      dry_run: request.dry_run === true,
      read: parsed.read,
      created: { milestones: milestonesMade, issues: issuesMade },
      skipped,
      mapped,
      dropped: parsed.dropped,
      findings: newFindings(planBefore.findings, planAfter.findings),
      summary: summaryOf(request, milestonesMade.length, issuesMade.length, skipped.length),
    };
    if (request.dry_run || made.length === 0) return result;
    const files: NewFile[] = [...made.filter((m) => m.kind === "milestone"), ...made.filter((m) => m.kind === "issue")].map((m) => ({ path: join(repo, m.path), text: m.text }));
    // Nothing is written through a records folder that leads out of the repository.
    refuseFolderOutside(repo, MILESTONES_DIR);
    refuseFolderOutside(repo, ISSUES_DIR);
    await writeNewFiles(files);
    try {
      await appendImportLines(repo, request, made, at, by(o));
    } catch (error) {
      throw refused(`the records were written but their ledger lines were not (${error instanceof Error ? error.message : String(error)})`);
    }
    return result;
  };
  if (request.dry_run) {
    o.cache ??= new RecordCache();
    return run();
  }
  return lockedMove(repo, o, run);
}

/** Why a record's one-line fields cannot be written as they are (a bidirectional control or a separator, named), or undefined. */
function oneLineProblem(r: { title: string; owner?: string; milestone?: string; priority: string; depends_on: readonly string[] }): string | undefined {
  const fields: [string, string | undefined][] = [["title", r.title], ["owner", r.owner], ["milestone", r.milestone], ["priority", r.priority], ...r.depends_on.map((d): [string, string] => ["depends_on", d])];
  for (const [field, value] of fields) {
    const problem = value === undefined ? undefined : bidiProblem(field, value);
    if (problem) return problem;
  }
  return undefined;
}

/** A Map as an object of own properties only (Object.fromEntries defines `__proto__` as a key, never as the prototype). */
function ownKeysOf<V, W>(map: ReadonlyMap<string, V>, f: (v: V) => W): Record<string, W> {
  return Object.fromEntries([...map].map(([k, v]) => [k, f(v)]));
}

/** The record as the loader builds it from the text written (parsed once, by render); the text must read back as that id. */
function readBack(kind: "issue" | "milestone", id: string, { map }: Rendered): IssueRecord | MilestoneRecord {
  if (map.get("id") !== id) throw new Error(`the record written for ${id} does not read back as it (its id differs)`);
  return kind === "issue" ? issueFromMap(id, map) : milestoneFromMap(id, map);
}

function summaryOf(r: ImportRequest, milestones: number, issues: number, skipped: number): string {
  const verb = r.dry_run ? "would create" : "created";
  if (milestones + issues === 0) {
    return `nothing ${r.dry_run ? "would be " : ""}created: ${skipped > 0 ? `every record of ${r.source} is already in the plan or skipped (${skipped} skipped)` : `${r.source} holds no record`}`;
  }
  return `${verb} ${milestones} milestone(s) and ${issues} issue(s) from ${r.source} (${r.format}); ${skipped} skipped`;
}

/** One `plan_imported` line per record, appended together and flushed once (after the records). */
async function appendImportLines(repo: string, r: ImportRequest, made: readonly Made[], at: string, who: string): Promise<void> {
  const env = await envelope(repo, at, who);
  const lines = made.map((m): LedgerLine => {
    const payload: Record<string, string> = { record: m.id, kind: m.kind, source: `${r.format}:${r.source}`, source_id: m.sourceId || "(made by the import)" };
    if (m.stamps.length > 0) payload.stamps = m.stamps.join(", ");
    return { ...env, event: "plan_imported", payload };
  });
  appendLedger(repo, lines);
}
