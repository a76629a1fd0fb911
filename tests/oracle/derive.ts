// An independent second reader of the plan derivation, written from the rules of
// docs/plan-semantics.md alone (plus the loading rules the project adopted).
// It is deliberately plain: one pass per spec section, no sharing with lib/plan.
// It parses with the `yaml` package so that a parser difference shows up as a test failure.
import { createHash } from "node:crypto";
import { existsSync, lstatSync, readFileSync, readdirSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { isAlias, isMap, isScalar, isSeq, parseDocument, visit } from "yaml";
import type { Document, ParsedNode } from "yaml";

// ───────────────────────────── constants (§1.7, §2.1) ─────────────────────────────

const SEALED_FROM = "2026-10-01T00:00:00Z";
const ISSUE_STATUSES = ["READY", "BLOCKED", "ACTIVE", "VERIFY", "DONE", "CANCELLED"];
const MILESTONE_STATUSES = ["PLANNED", "BLOCKED", "ACTIVE", "VERIFY", "DONE", "CANCELLED", "SUPERSEDED"];
const BY_STATUS_KEYS = ["ACTIVE", "BLOCKED", "CANCELLED", "DONE", "READY", "VERIFY"]; // BTreeMap order

const ALLOW_DIR = fileURLToPath(new URL("../fixtures/majordomus/share/allow/", import.meta.url));

// ───────────────────────────── byte order (§1.1, §9.8) ─────────────────────────────

/** Compares two strings by their UTF-8 bytes (Rust `str` ordering, `LC_ALL=C sort`). */
export function byteCompare(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}

function byteSorted(list: string[]): string[] {
  return [...list].sort(byteCompare);
}

// ───────────────────────────── YAML values (§1.2) ─────────────────────────────

/** A YAML value reduced to what serde_yaml 0.9 would hold, with scalars kept as text. */
type YValue =
  | { kind: "null" }
  | { kind: "str"; text: string }
  | { kind: "num"; text: string }
  | { kind: "bool"; text: string }
  | { kind: "seq"; items: YValue[] }
  | { kind: "map"; entries: Array<[YValue, YValue]> };

const NULL_WORDS = new Set(["~", "null", "Null", "NULL"]);
const TRUE_WORDS = new Set(["true", "True", "TRUE"]);
const FALSE_WORDS = new Set(["false", "False", "FALSE"]);

const U128_MAX = (1n << 128n) - 1n;
const I64_MIN = -(1n << 63n);

/** YAML 1.2 core schema int: `[-+]?[0-9]+` (decimal, any leading zeros), `0o[0-7]+`, `0x[0-9a-fA-F]+`. */
function coreInt(text: string): bigint | undefined {
  if (/^[-+]?[0-9]+$/.test(text)) return BigInt(text);
  // Only unsigned octal and hex; the spec keeps them to what fits in 128 bits.
  if (/^0o[0-7]+$/.test(text) || /^0x[0-9a-fA-F]+$/.test(text)) {
    const value = BigInt(text);
    return value <= U128_MAX ? value : undefined;
  }
  return undefined;
}

/** YAML 1.2 core schema float, as its text: finite ones in ryu form, the others as written. */
function coreFloat(text: string): string | undefined {
  if (/^[-+]?\.(inf|Inf|INF)$/.test(text) || /^\.(nan|NaN|NAN)$/.test(text)) return text;
  if (!/^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/.test(text)) return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? formatRyu(value) : text;
}

/** Rust ryu's `format64` (what serde_yaml's Number prints for a float). */
export function formatRyu(value: number): string {
  if (Number.isNaN(value)) return ".nan";
  if (value === Infinity) return ".inf";
  if (value === -Infinity) return "-.inf";
  const sign = value < 0 || Object.is(value, -0) ? "-" : "";
  const magnitude = Math.abs(value);
  if (magnitude === 0) return sign + "0.0";
  // toExponential() without an argument yields the shortest round-trip digits.
  const [mantissa, exponentText] = magnitude.toExponential().split("e");
  const digits = mantissa.replace(".", "");
  const length = digits.length;
  const kk = Number(exponentText) + 1; // 10^(kk-1) <= v < 10^kk
  const k = kk - length;
  let body: string;
  if (k >= 0 && kk <= 16) {
    body = digits + "0".repeat(kk - length) + ".0";
  } else if (kk > 0 && kk <= 16) {
    body = digits.slice(0, kk) + "." + digits.slice(kk);
  } else if (kk > -5 && kk <= 0) {
    body = "0." + "0".repeat(-kk) + digits;
  } else if (length === 1) {
    body = digits + "e" + String(kk - 1);
  } else {
    body = digits[0] + "." + digits.slice(1) + "e" + String(kk - 1);
  }
  return sign + body;
}

/** An untagged plain scalar, typed by the YAML 1.2 core schema (§1.2), with its value as text. */
function resolvePlain(text: string): YValue {
  if (text === "" || NULL_WORDS.has(text)) return { kind: "null" };
  if (TRUE_WORDS.has(text)) return { kind: "bool", text: "true" };
  if (FALSE_WORDS.has(text)) return { kind: "bool", text: "false" };
  const int = coreInt(text);
  if (int !== undefined) return { kind: "num", text: int.toString() };
  const float = coreFloat(text);
  if (float !== undefined) return { kind: "num", text: float };
  return { kind: "str", text };
}

// The project's limits on one record (README, "How records are read"): 1 MiB of file; 10,000
// values once aliases are expanded, 100 levels deep; 1,000 aliases as written.
const LIMIT_BYTES = 1024 * 1024;
const LIMIT_VALUES = 10_000;
const LIMIT_DEPTH = 100;
const LIMIT_ALIASES = 1_000;

/** Keys are not values of the count; `seen` counts every value reached on every path. */
interface Walk {
  seen: number;
}

function toValue(node: unknown, doc: Document.Parsed, walk: Walk | undefined, depth = 0): YValue {
  if (isAlias(node)) {
    const target = node.resolve(doc);
    if (target === undefined) throw new Error(`unknown anchor ${node.source}`);
    return toValue(target, doc, walk, depth);
  }
  if (walk && ++walk.seen > LIMIT_VALUES) throw new Error(`more than ${LIMIT_VALUES} values`);
  if (node === null || node === undefined) return { kind: "null" };
  const isCollection = isMap(node) || isSeq(node);
  if (isCollection && depth >= LIMIT_DEPTH) throw new Error(`deeper than ${LIMIT_DEPTH} levels`);
  if (isMap(node)) {
    const entries: Array<[YValue, YValue]> = [];
    for (const pair of node.items) {
      entries.push([toValue(pair.key, doc, undefined, depth + 1), toValue(pair.value, doc, walk, depth + 1)]);
    }
    return { kind: "map", entries };
  }
  if (isSeq(node)) return { kind: "seq", items: node.items.map((item) => toValue(item, doc, walk, depth + 1)) };
  if (isScalar(node)) return scalarValue(node);
  return { kind: "null" };
}

const CORE_TAG = "tag:yaml.org,2002:";

/** A scalar node as serde_yaml reads it: plain untagged text is resolved, core tags are honoured. */
function scalarValue(node: { source?: string; value?: unknown; type?: string; tag?: string }): YValue {
  const source = typeof node.source === "string" ? node.source : String(node.value ?? "");
  const plain = node.type === "PLAIN" || node.type === undefined;
  if (!node.tag) return plain ? resolvePlain(source) : { kind: "str", text: source };
  const resolved = resolvePlain(source);
  switch (node.tag) {
    case `${CORE_TAG}int`: {
      const int = coreInt(source);
      if (int === undefined) throw new Error(`${source} is not an !!int`);
      return { kind: "num", text: int.toString() };
    }
    case `${CORE_TAG}float`: {
      const float = coreFloat(source);
      if (float === undefined) throw new Error(`${source} is not a !!float`);
      return { kind: "num", text: float };
    }
    case `${CORE_TAG}bool`:
      if (resolved.kind === "bool") return resolved;
      throw new Error(`${source} is not a !!bool`);
    case `${CORE_TAG}null`:
      if (resolved.kind === "null") return resolved;
      throw new Error(`${source} is not a !!null`);
    default:
      // !!str, the non-specific "!" and custom tags: the text as written (custom tags are not
      // specified; serde_yaml would hold a tagged value).
      return { kind: "str", text: source };
  }
}

/** YAML 1.2 c-printable; libyaml (serde_yaml) refuses a stream with anything else. */
function hasNonPrintable(text: string): boolean {
  return /[^\x09\x0A\x0D\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u.test(text);
}

/** Key equality as serde_yaml's Mapping sees it: typed values, compared structurally. */
const keyDescriptions = new WeakMap<object, string>();

function sameKey(a: ParsedNode, b: ParsedNode): boolean {
  const describe = (node: unknown): unknown => {
    if (node === null || node === undefined) return { kind: "null" };
    if (isScalar(node)) {
      try {
        return scalarValue(node);
      } catch {
        return { kind: "invalid", text: String(node.source) };
      }
    }
    if (isMap(node)) return { kind: "map", entries: node.items.map((p) => [describe(p.key), describe(p.value)]) };
    if (isSeq(node)) return { kind: "seq", items: node.items.map(describe) };
    if (isAlias(node)) return { kind: "alias", source: node.source };
    return { kind: "other" };
  };
  // The parser asks about every earlier key of a mapping, so remember each key's description.
  const described = (node: ParsedNode): string => {
    if (node === null || typeof node !== "object") return JSON.stringify(describe(node));
    let text = keyDescriptions.get(node);
    if (text === undefined) {
      text = JSON.stringify(describe(node));
      keyDescriptions.set(node, text);
    }
    return text;
  };
  return described(a) === described(b);
}

// ───────────────────────────── field reading (§1.2) ─────────────────────────────

function keyText(key: YValue): string {
  return key.kind === "str" || key.kind === "num" || key.kind === "bool" ? key.text : "";
}

function fieldOf(record: YValue, name: string): YValue | undefined {
  if (record.kind !== "map") return undefined;
  for (const [key, value] of record.entries) {
    if (key.kind !== "seq" && key.kind !== "map" && key.kind !== "null" && key.text === name) return value;
  }
  return undefined;
}

function scalarText(value: YValue | undefined): string {
  if (!value) return "";
  return value.kind === "str" || value.kind === "num" || value.kind === "bool" ? value.text : "";
}

function readScalar(record: YValue, name: string): string {
  return scalarText(fieldOf(record, name));
}

function readList(record: YValue, name: string): string[] {
  const value = fieldOf(record, name);
  if (!value || value.kind === "null" || value.kind === "map") return [];
  if (value.kind === "seq") return value.items.map(scalarText);
  return [value.text];
}

function readTitle(record: YValue): string {
  return readScalar(record, "title").replace(/\t/g, " ");
}

/** Rust `str::trim`: strips `char::is_whitespace` (Unicode White_Space), which is not JS `trim`. */
function rustTrim(text: string): string {
  const white = "[\\u0009-\\u000D\\u0020\\u0085\\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000]";
  return text.replace(new RegExp(`^${white}+|${white}+$`, "g"), "");
}

/** `order`: a trimmed signed 64-bit integer, anything else 0 (R: order_of). Exact, as a bigint. */
function readOrder(record: YValue): bigint {
  const text = rustTrim(readScalar(record, "order"));
  if (!/^[+-]?[0-9]+$/.test(text)) return 0n;
  const value = BigInt(text);
  return value < I64_MIN || value > -I64_MIN - 1n ? 0n : value;
}

/** The `covers` of every evidence entry that is a mapping holding a `covers` key. */
function readCovers(record: YValue): string[] {
  const value = fieldOf(record, "evidence");
  if (!value || value.kind === "null" || value.kind === "map") return [];
  const entries = value.kind === "seq" ? value.items : [value];
  const covers: string[] = [];
  for (const entry of entries) {
    if (entry.kind !== "map") continue;
    const cover = fieldOf(entry, "covers");
    if (cover !== undefined) covers.push(scalarText(cover));
  }
  return covers;
}

// ───────────────────────────── schema keys (S: mj_plan_validate) ─────────────────────────────

function flattenKeys(value: YValue, prefix: string, out: string[]): void {
  if (value.kind === "map") {
    for (const [key, child] of value.entries) flattenKeys(child, `${prefix}.${keyText(key)}`, out);
  } else if (value.kind === "seq") {
    value.items.forEach((child, index) => flattenKeys(child, `${prefix}.${index}`, out));
  } else {
    out.push(prefix);
  }
}

function topLevelKeys(record: YValue): string[] {
  const out: string[] = [];
  if (record.kind !== "map") return out;
  for (const [key, child] of record.entries) flattenKeys(child, keyText(key), out);
  return out;
}

type Kind = "project" | "milestone" | "issue";

const allowCache = new Map<Kind, RegExp[]>();

function allowlist(kind: Kind): RegExp[] {
  const cached = allowCache.get(kind);
  if (cached) return cached;
  const patterns = readFileSync(join(ALLOW_DIR, `${kind}.txt`), "utf8")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => new RegExp(line));
  if (kind === "issue") patterns.push(/^serves(\.[0-9]+)?$/);
  allowCache.set(kind, patterns);
  return patterns;
}

function unknownKeys(record: YValue, kind: Kind): string[] {
  const patterns = allowlist(kind);
  return topLevelKeys(record).filter((key) => !patterns.some((pattern) => pattern.test(key)));
}

// ───────────────────────────── loading (§1.1) ─────────────────────────────

interface Finding {
  level: "FAIL" | "WARN";
  code: string;
  subject: string;
  message: string;
}

function finding(level: "FAIL" | "WARN", code: string, subject: string, message: string): Finding {
  return { level, code, subject, message };
}

type ReadOutcome = { ok: true; record: YValue } | { ok: false; reason: string };

function readRecordFile(path: string, repoDir: string): ReadOutcome {
  let bytes: Buffer;
  try {
    const link = lstatSync(path);
    if (link.isSymbolicLink()) {
      const rel = relative(realpathSync(repoDir), realpathSync(path));
      if (rel.startsWith("..") || isAbsolute(rel)) return { ok: false, reason: "is a link out of the repository" };
    }
    const stat = statSync(path);
    if (!stat.isFile()) return { ok: false, reason: "is not a file" };
    if (stat.size > LIMIT_BYTES) return { ok: false, reason: "is too large" };
    bytes = readFileSync(path);
  } catch (error) {
    return { ok: false, reason: `cannot be read (${String(error)})` };
  }
  let text: string;
  try {
    // libyaml's reader refuses malformed UTF-8; replacing bytes would change the record silently.
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, reason: "is not valid UTF-8" };
  }
  if (hasNonPrintable(text)) return { ok: false, reason: "contains a non-printable character" };
  // YAML 1.2 (and libyaml) accept a lone CR as a line break; the `yaml` package does not.
  text = text.replace(/\r\n?/g, "\n");
  let record: YValue;
  try {
    const doc = parseDocument(text, { schema: "core", uniqueKeys: sameKey });
    if (doc.errors.length > 0) return { ok: false, reason: `does not parse: ${doc.errors[0].message}` };
    let aliases = 0;
    visit(doc, { Alias: () => void aliases++ });
    if (aliases > LIMIT_ALIASES) return { ok: false, reason: `holds more than ${LIMIT_ALIASES} aliases` };
    record = toValue(doc.contents, doc, { seen: 0 });
  } catch (error) {
    return { ok: false, reason: `does not parse: ${String(error)}` };
  }
  if (record.kind !== "map") return { ok: false, reason: `is not a mapping (${record.kind})` };
  return { ok: true, record };
}

/** Every `*.yaml` entry of a folder, in byte order. One that cannot be read (a folder, a
 * dangling link) is still listed, so that it becomes a finding rather than vanishing. */
function yamlFilesIn(dir: string): string[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
  return byteSorted(readdirSync(dir).filter((name) => name.endsWith(".yaml")));
}

interface Loaded {
  present: boolean;
  project: YValue | undefined;
  milestones: Array<{ id: string; record: YValue }>;
  issues: Array<{ id: string; record: YValue }>;
  loadFindings: Finding[];
}

function loadRepository(repoDir: string): Loaded {
  const root = join(repoDir, ".ai", "repo", "project");
  const loaded: Loaded = { present: false, project: undefined, milestones: [], issues: [], loadFindings: [] };
  if (!existsSync(root) || !statSync(root).isDirectory()) return loaded;
  loaded.present = true;

  const schemaCheck = (record: YValue, kind: Kind, subject: string) => {
    const unknown = unknownKeys(record, kind);
    if (unknown.length > 0) {
      loaded.loadFindings.push(finding("FAIL", "schema", subject, `unknown keys: ${unknown.join(" ")}`));
    }
  };
  const unreadable = (subject: string, reason: string) =>
    loaded.loadFindings.push(finding("FAIL", "unreadable_record", subject, reason));

  const projectPath = join(root, "project.yaml");
  if (existsSync(projectPath) && statSync(projectPath).isFile()) {
    const outcome = readRecordFile(projectPath, repoDir);
    if (outcome.ok) {
      loaded.project = outcome.record;
      schemaCheck(outcome.record, "project", "PROJECT");
    } else {
      unreadable("PROJECT", `project.yaml ${outcome.reason}`);
    }
  }

  const milestoneIds = new Set<string>();
  for (const name of yamlFilesIn(join(root, "milestones"))) {
    const id = name.slice(0, -".yaml".length);
    const outcome = readRecordFile(join(root, "milestones", name), repoDir);
    if (!outcome.ok) {
      unreadable(id, `milestones/${name} ${outcome.reason}`);
      continue;
    }
    const declared = fieldOf(outcome.record, "id");
    if (declared === undefined || scalarText(declared) !== id) {
      unreadable(id, `milestones/${name} declares id '${scalarText(declared)}'`);
      continue;
    }
    schemaCheck(outcome.record, "milestone", id);
    milestoneIds.add(id);
    loaded.milestones.push({ id, record: outcome.record });
  }

  for (const name of yamlFilesIn(join(root, "issues"))) {
    const id = name.slice(0, -".yaml".length);
    const outcome = readRecordFile(join(root, "issues", name), repoDir);
    if (!outcome.ok) {
      unreadable(id, `issues/${name} ${outcome.reason}`);
      continue;
    }
    const declared = fieldOf(outcome.record, "id");
    if (declared === undefined || scalarText(declared) !== id) {
      unreadable(id, `issues/${name} declares id '${scalarText(declared)}'`);
      continue;
    }
    if (milestoneIds.has(id)) {
      unreadable(id, `issues/${name} reuses a milestone id`);
      continue;
    }
    schemaCheck(outcome.record, "issue", id);
    loaded.issues.push({ id, record: outcome.record });
  }

  // The derivation itself works in id order (R: raws() sorts by id), which is not the
  // file-name order when an id is a prefix of another ("a" vs "a-b": "a-b.yaml" < "a.yaml").
  loaded.milestones.sort((a, b) => byteCompare(a.id, b.id));
  loaded.issues.sort((a, b) => byteCompare(a.id, b.id));
  return loaded;
}

// ───────────────────────────── the records the engine reads (§1.4, §1.5) ─────────────────────────────

interface IssueRaw {
  id: string;
  milestone: string;
  title: string;
  slug: string;
  priority: string;
  profile: string;
  parallelSafe: boolean;
  cancelled: boolean;
  dependsOn: string[];
  scope: string[];
  serves: string[];
  objective: string;
  acceptanceCount: number;
  validationCount: number;
  evidenceRequired: string[];
  covers: string[];
  stamps: Record<Move, string>;
  seals: Record<Move, string>;
  unsealed: string[];
}

interface MilestoneRaw {
  id: string;
  title: string;
  slug: string;
  order: bigint;
  priority: string;
  version: string;
  cancelled: boolean;
  supersededBy: string;
  outcome: string;
  evidenceRequired: string[];
  dependsOn: string[];
  claims: string[];
  covers: string[];
}

type Move = "start" | "verify" | "done";
const MOVES: Move[] = ["start", "verify", "done"];
const STAMP_FIELD: Record<Move, string> = { start: "started_at", verify: "verified_at", done: "completed_at" };
const SEAL_FIELD: Record<Move, string> = { start: "started_event", verify: "verified_event", done: "completed_event" };
const EVENT: Record<Move, string> = { start: "plan_start", verify: "plan_verify", done: "plan_done" };

function readIssue(id: string, record: YValue): IssueRaw {
  const stamps = {} as Record<Move, string>;
  const seals = {} as Record<Move, string>;
  for (const move of MOVES) {
    stamps[move] = readScalar(record, STAMP_FIELD[move]);
    seals[move] = readScalar(record, SEAL_FIELD[move]);
  }
  return {
    id,
    milestone: readScalar(record, "milestone"),
    title: readTitle(record),
    slug: readScalar(record, "slug"),
    priority: readScalar(record, "priority"),
    profile: readScalar(record, "profile"),
    parallelSafe: readScalar(record, "parallel_safe") !== "false",
    cancelled: readScalar(record, "cancelled") === "true",
    dependsOn: readList(record, "depends_on"),
    scope: readList(record, "scope"),
    serves: readList(record, "serves"),
    objective: readScalar(record, "objective"),
    acceptanceCount: readList(record, "acceptance_criteria").length,
    validationCount: readList(record, "validation").length,
    evidenceRequired: readList(record, "evidence_required"),
    covers: readCovers(record),
    stamps,
    seals,
    unsealed: readList(record, "unsealed_stamps"),
  };
}

function readMilestone(id: string, record: YValue): MilestoneRaw {
  return {
    id,
    title: readTitle(record),
    slug: readScalar(record, "slug"),
    order: readOrder(record),
    priority: readScalar(record, "priority"),
    version: readScalar(record, "version"),
    cancelled: readScalar(record, "cancelled") === "true",
    supersededBy: readScalar(record, "superseded_by"),
    outcome: readScalar(record, "outcome"),
    evidenceRequired: readList(record, "evidence_required"),
    dependsOn: readList(record, "depends_on"),
    claims: readList(record, "claims"),
    covers: readCovers(record),
  };
}

// ───────────────────────────── §2.2 proven stamps ─────────────────────────────

export function seal(event: string, id: string, stamp: string): string {
  const digest = createHash("sha256")
    .update(`majordomus.plan-event/v1\n${event}\n${id}\n${stamp}\n`, "utf8")
    .digest("hex");
  return `sha256:${digest}`;
}

function isProven(issue: IssueRaw, move: Move): boolean {
  const stamp = issue.stamps[move];
  if (stamp === "") return true;
  if (issue.seals[move] === seal(EVENT[move], issue.id, stamp)) return true;
  return byteCompare(stamp, SEALED_FROM) < 0 && issue.unsealed.includes(`${STAMP_FIELD[move]} ${stamp}`);
}

function isStamped(issue: IssueRaw, move: Move): boolean {
  return issue.stamps[move] !== "" && isProven(issue, move);
}

// ───────────────────────────── §2.3 local facts ─────────────────────────────

function isCovered(required: string[], covers: string[]): boolean {
  const have = new Set(covers);
  return required.every((token) => have.has(token));
}

function missingTokens(required: string[], covers: string[]): string[] {
  const have = new Set(covers);
  return required.filter((token) => !have.has(token));
}

function isDone(issue: IssueRaw): boolean {
  return !issue.cancelled && isStamped(issue, "done") && isCovered(issue.evidenceRequired, issue.covers);
}

// ───────────────────────────── §3.2 / §3.3 Kahn layering ─────────────────────────────

/** Layers `ids` (given in id order) by their dependencies; returns the layers and the unplaced. */
function layer(ids: string[], depsOf: (id: string) => string[]): { layers: string[][]; unplaced: string[] } {
  const placed = new Set<string>();
  const layers: string[][] = [];
  let remaining = [...ids];
  while (remaining.length > 0) {
    const frontier = remaining.filter((id) => depsOf(id).every((dep) => placed.has(dep)));
    if (frontier.length === 0) break;
    for (const id of frontier) placed.add(id);
    layers.push(frontier);
    remaining = remaining.filter((id) => !placed.has(id));
  }
  return { layers, unplaced: remaining };
}

// ───────────────────────────── §5 scope overlap ─────────────────────────────

function normalisePath(path: string): string {
  let out = path.startsWith("./") ? path.slice(2) : path;
  while (out.endsWith("/")) out = out.slice(0, -1);
  return out;
}

function overlaps(x: string, y: string): boolean {
  const a = normalisePath(x);
  const b = normalisePath(y);
  return a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
}

// ───────────────────────────── the derivation (§2 – §5) ─────────────────────────────

function emptyCounts(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const status of BY_STATUS_KEYS) counts[status] = 0;
  return counts;
}

function countsFor(issueIds: string[], statusOf: Map<string, string>) {
  const byStatus = emptyCounts();
  for (const id of issueIds) byStatus[statusOf.get(id)!] += 1;
  return { total: issueIds.length, required: issueIds.length - byStatus.CANCELLED, by_status: byStatus };
}

function emptyPlan(project: { name: string; repository: string; default_branch: string }, findings: Finding[]) {
  return {
    project: { ...project, active_milestone: "" },
    statuses: { issue: [...ISSUE_STATUSES], milestone: [...MILESTONE_STATUSES] },
    milestones: [],
    issues: [],
    waves: [],
    edges: [],
    milestone_edges: [],
    findings,
  };
}

export function oracleModel(repoDir: string): unknown {
  const loaded = loadRepository(repoDir);
  const header = {
    name: loaded.project ? readScalar(loaded.project, "name") : "",
    repository: loaded.project ? readScalar(loaded.project, "repository") : "",
    default_branch: loaded.project ? readScalar(loaded.project, "default_branch") : "",
  };
  if (!loaded.present) return emptyPlan(header, []);

  const issues = loaded.issues.map(({ id, record }) => readIssue(id, record));
  const milestones = loaded.milestones.map(({ id, record }) => readMilestone(id, record));
  const issueById = new Map(issues.map((issue) => [issue.id, issue]));
  const milestoneById = new Map(milestones.map((milestone) => [milestone.id, milestone]));

  const phaseA: Finding[] = [];
  const phaseB: Finding[] = [];
  const phaseC: Finding[] = [];
  const phaseD: Finding[] = [];
  const phaseE: Finding[] = [];
  const phaseF: Finding[] = [];
  const phaseG: Finding[] = [];
  const phaseH: Finding[] = [];
  const phaseI: Finding[] = [];
  const phaseJ: Finding[] = [];

  // §3.1 issue edges and dependents, with the Phase A findings interleaved per issue (§4).
  const issueDependents = new Map<string, string[]>(issues.map((issue) => [issue.id, []]));
  const issueEdges: Array<{ from: string; to: string }> = [];
  for (const issue of issues) {
    const seen = new Set<string>();
    for (const dep of issue.dependsOn) {
      if (dep === issue.id) {
        phaseA.push(finding("FAIL", "self_dependency", issue.id, "depends on itself"));
      } else if (!issueById.has(dep)) {
        phaseA.push(finding("FAIL", "unknown_dependency", issue.id, `depends on ${dep}, which is not an issue`));
      } else if (seen.has(dep)) {
        phaseA.push(finding("WARN", "duplicate_dependency", issue.id, `names ${dep} more than once`));
      } else {
        seen.add(dep);
        issueEdges.push({ from: dep, to: issue.id });
        issueDependents.get(dep)!.push(issue.id);
      }
    }
    if (issue.milestone === "") {
      phaseA.push(finding("FAIL", "no_milestone", issue.id, "names no milestone"));
    } else if (!milestoneById.has(issue.milestone)) {
      phaseA.push(
        finding("FAIL", "unknown_milestone", issue.id, `names milestone ${issue.milestone}, which does not exist`),
      );
    }
    if (!issue.cancelled && issue.acceptanceCount === 0) {
      phaseA.push(
        finding("FAIL", "no_acceptance", issue.id, "has no acceptance criteria; an issue without one is a placeholder"),
      );
    }
    if (!issue.cancelled && issue.validationCount === 0) {
      phaseA.push(finding("FAIL", "no_validation", issue.id, "names no validation command"));
    }
    if (!issue.cancelled && issue.evidenceRequired.length === 0) {
      phaseA.push(
        finding("WARN", "no_evidence_required", issue.id, "requires no evidence; nothing gates its completion"),
      );
    }
    for (const move of MOVES) {
      const stamp = issue.stamps[move];
      if (stamp !== "" && !isProven(issue, move)) {
        phaseA.push(
          finding(
            "FAIL",
            "stamp_without_event",
            issue.id,
            `${STAMP_FIELD[move]} ${stamp} has no ${EVENT[move]} event: ${SEAL_FIELD[move]} is absent or does not seal it, and only \`cockpit plan ${move}\` writes the stamp`,
          ),
        );
      }
    }
    if (isStamped(issue, "done") && !isCovered(issue.evidenceRequired, issue.covers) && !issue.cancelled) {
      const missing = missingTokens(issue.evidenceRequired, issue.covers).join(",");
      phaseA.push(
        finding(
          "WARN",
          "evidence_missing",
          issue.id,
          `completed_at is set but evidence is missing for ${missing}; status stays VERIFY`,
        ),
      );
    }
  }

  // §3.2 waves (Phase B).
  const effectiveDeps = (id: string) =>
    issueById.get(id)!.dependsOn.filter((dep) => dep !== id && issueById.has(dep));
  const issueLayering = layer(
    issues.map((issue) => issue.id),
    effectiveDeps,
  );
  const waveOf = new Map<string, number | null>(issues.map((issue) => [issue.id, null]));
  issueLayering.layers.forEach((ids, wave) => ids.forEach((id) => waveOf.set(id, wave)));
  if (issueLayering.unplaced.length > 0) {
    phaseB.push(
      finding(
        "FAIL",
        "cycle",
        "graph",
        `a dependency cycle prevents these issues from ever becoming ready: ${issueLayering.unplaced.join(" ")}`,
      ),
    );
  }

  // §2.4 issue status, first pass, and Phase C.
  const doneIds = new Set(issues.filter(isDone).map((issue) => issue.id));
  const issueStatus = new Map<string, string>();
  const issueBlockedBy = new Map<string, string[]>();
  for (const issue of issues) {
    const blockedBy = issue.dependsOn.filter((dep) => dep !== issue.id && issueById.has(dep) && !doneIds.has(dep));
    let status: string;
    if (issue.cancelled) status = "CANCELLED";
    else if (doneIds.has(issue.id)) status = "DONE";
    else if (isStamped(issue, "done") || isStamped(issue, "verify")) status = "VERIFY";
    else if (isStamped(issue, "start")) status = "ACTIVE";
    else if (blockedBy.length > 0) status = "BLOCKED";
    else status = "READY";
    issueStatus.set(issue.id, status);
    issueBlockedBy.set(issue.id, blockedBy);
    if (blockedBy.length > 0 && (status === "DONE" || status === "ACTIVE" || status === "VERIFY")) {
      phaseC.push(
        finding("FAIL", "premature_execution", issue.id, `is ${status} while ${blockedBy.join(",")} is not DONE`),
      );
    }
  }

  // §2.5 milestone status, first pass.
  const issuesOf = new Map<string, string[]>(milestones.map((m) => [m.id, []]));
  for (const issue of issues) issuesOf.get(issue.milestone)?.push(issue.id);
  const milestoneStatus = new Map<string, string>();
  const milestoneCounts = new Map<string, ReturnType<typeof countsFor>>();
  for (const milestone of milestones) {
    const counts = countsFor(issuesOf.get(milestone.id)!, issueStatus);
    milestoneCounts.set(milestone.id, counts);
    const tot = counts.total;
    const req = counts.required;
    const nd = counts.by_status.DONE;
    const mcov = isCovered(milestone.evidenceRequired, milestone.covers);
    let status: string;
    if (milestone.cancelled) status = "CANCELLED";
    else if (milestone.supersededBy !== "") status = "SUPERSEDED";
    else if (tot === 0 && milestone.evidenceRequired.length > 0 && mcov) status = "DONE";
    else if (tot === 0) status = "PLANNED";
    else if (req > 0 && nd === req && mcov) status = "DONE";
    else if (req > 0 && nd === req) status = "VERIFY";
    else if (counts.by_status.ACTIVE > 0 || counts.by_status.VERIFY > 0 || nd > 0) status = "ACTIVE";
    else if (counts.by_status.READY === 0) status = "BLOCKED";
    else status = "PLANNED";
    milestoneStatus.set(milestone.id, status);
  }

  // §2.6 milestone edges (Phase D).
  const milestoneDependents = new Map<string, string[]>(milestones.map((m) => [m.id, []]));
  const milestoneEdges: Array<{ from: string; to: string }> = [];
  const validMilestoneDeps = new Map<string, string[]>(); // every valid occurrence, declared order
  const edgeDeps = new Map<string, string[]>(); // distinct, for layering
  for (const milestone of milestones) {
    const occurrences: string[] = [];
    const distinct: string[] = [];
    for (const dep of milestone.dependsOn) {
      if (dep === milestone.id) {
        phaseD.push(finding("FAIL", "milestone_self_dependency", milestone.id, "requires itself"));
        continue;
      }
      if (!milestoneById.has(dep)) {
        phaseD.push(
          finding("FAIL", "milestone_unknown_dependency", milestone.id, `requires ${dep}, which is not a milestone here`),
        );
        continue;
      }
      occurrences.push(dep);
      if (distinct.includes(dep)) {
        phaseD.push(finding("WARN", "milestone_duplicate_dependency", milestone.id, `requires ${dep} more than once`));
        continue;
      }
      distinct.push(dep);
      milestoneEdges.push({ from: dep, to: milestone.id });
      milestoneDependents.get(dep)!.push(milestone.id);
    }
    validMilestoneDeps.set(milestone.id, occurrences);
    edgeDeps.set(milestone.id, distinct);
  }

  // §3.3 ranks (Phase E).
  const rankLayering = layer(
    milestones.map((m) => m.id),
    (id) => edgeDeps.get(id)!,
  );
  const rankOf = new Map<string, number>(milestones.map((m) => [m.id, 0]));
  rankLayering.layers.forEach((ids, rank) => ids.forEach((id) => rankOf.set(id, rank)));
  if (rankLayering.unplaced.length > 0) {
    phaseE.push(
      finding(
        "FAIL",
        "milestone_cycle",
        rankLayering.unplaced.join(" "),
        "milestone dependencies form a cycle; no roadmap order exists",
      ),
    );
  }

  // Phase F: milestone_evidence_missing (pass-1 counts, no status guard).
  for (const milestone of milestones) {
    const counts = milestoneCounts.get(milestone.id)!;
    if (
      counts.required > 0 &&
      counts.by_status.DONE === counts.required &&
      !isCovered(milestone.evidenceRequired, milestone.covers)
    ) {
      const missing = missingTokens(milestone.evidenceRequired, milestone.covers).join(",");
      phaseF.push(
        finding(
          "WARN",
          "milestone_evidence_missing",
          milestone.id,
          `every issue is DONE but milestone evidence is missing for ${missing}; status stays VERIFY`,
        ),
      );
    }
  }

  // §2.6 the gate, in rank order then id order (Phase G).
  const gateOrder = [...milestones].sort(
    (a, b) => rankOf.get(a.id)! - rankOf.get(b.id)! || byteCompare(a.id, b.id),
  );
  const milestoneBlockedBy = new Map<string, string[]>();
  for (const milestone of gateOrder) {
    const block = validMilestoneDeps.get(milestone.id)!.filter((dep) => milestoneStatus.get(dep) !== "DONE");
    milestoneBlockedBy.set(milestone.id, block);
    const status = milestoneStatus.get(milestone.id)!;
    if (block.length > 0 && status !== "CANCELLED" && status !== "SUPERSEDED") {
      if (status === "DONE" || status === "VERIFY" || status === "ACTIVE") {
        phaseG.push(
          finding("FAIL", "milestone_premature", milestone.id, `is ${status} while ${block.join(",")} is not DONE`),
        );
      }
      milestoneStatus.set(milestone.id, "BLOCKED");
    }
  }

  // Phase H: empty_milestone.
  for (const milestone of milestones) {
    const status = milestoneStatus.get(milestone.id)!;
    if (
      milestoneCounts.get(milestone.id)!.total === 0 &&
      status !== "DONE" &&
      status !== "CANCELLED" &&
      status !== "SUPERSEDED" &&
      milestoneBlockedBy.get(milestone.id)!.length === 0
    ) {
      phaseH.push(
        finding(
          "WARN",
          "empty_milestone",
          milestone.id,
          "is reachable and has no issues; it is an outcome nobody is executing",
        ),
      );
    }
  }

  // §2.7 the gate reaches the issues (Phase I), then gate-blocked counts are recomputed.
  for (const issue of issues) {
    if (!milestoneById.has(issue.milestone)) continue;
    const block = milestoneBlockedBy.get(issue.milestone)!;
    if (block.length === 0) continue;
    const status = issueStatus.get(issue.id)!;
    if (status === "CANCELLED" || status === "DONE") continue;
    if (status === "ACTIVE" || status === "VERIFY") {
      phaseI.push(
        finding(
          "FAIL",
          "premature_execution",
          issue.id,
          `is ${status} while its milestone ${issue.milestone} waits on ${block.join(",")}`,
        ),
      );
    }
    issueStatus.set(issue.id, "BLOCKED");
    issueBlockedBy.get(issue.id)!.push(`milestone:${issue.milestone}`);
  }
  for (const milestone of milestones) {
    if (milestoneBlockedBy.get(milestone.id)!.length > 0) {
      milestoneCounts.set(milestone.id, countsFor(issuesOf.get(milestone.id)!, issueStatus));
    }
  }

  // §5 scope conflicts (Phase J).
  for (let i = 0; i < issues.length; i++) {
    for (let j = i + 1; j < issues.length; j++) {
      const a = issues[i];
      const b = issues[j];
      const runnable = (id: string) => ["READY", "ACTIVE"].includes(issueStatus.get(id)!);
      if (!runnable(a.id) || !runnable(b.id)) continue;
      if (waveOf.get(a.id) !== waveOf.get(b.id)) continue;
      let hit: string | undefined;
      for (const x of a.scope) {
        if (b.scope.some((y) => overlaps(x, y))) {
          hit = x;
          break;
        }
      }
      if (hit !== undefined) {
        phaseJ.push(
          finding("WARN", "scope_conflict", a.id, `shares ${hit} with ${b.id}; they may not run concurrently`),
        );
      }
    }
  }

  // Phase K (undeclared_status) cannot fire: every status above comes from the vocabularies.

  // §2.9 active milestone.
  const candidates = milestones.filter((m) => {
    const status = milestoneStatus.get(m.id)!;
    return status !== "DONE" && status !== "CANCELLED" && milestoneBlockedBy.get(m.id)!.length === 0;
  });
  const pick = (pool: MilestoneRaw[]): string => {
    let best: { id: string; key: bigint } | undefined;
    for (const m of pool) {
      const key = BigInt(rankOf.get(m.id)!) * 1_000_000n + m.order;
      if (!best || key < best.key) best = { id: m.id, key };
    }
    return best ? best.id : "";
  };
  let activeMilestone = pick(candidates.filter((m) => milestoneStatus.get(m.id) === "ACTIVE"));
  if (activeMilestone === "") activeMilestone = pick(candidates);

  // §7 the serialised Plan.
  const sortEdges = (edges: Array<{ from: string; to: string }>) => {
    const seen = new Set<string>();
    const unique = edges.filter((edge) => {
      const key = JSON.stringify([edge.from, edge.to]);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    return unique
      .sort((a, b) => byteCompare(a.from, b.from) || byteCompare(a.to, b.to))
      .map((edge) => ({ from: edge.from, to: edge.to }));
  };

  return {
    project: { ...header, active_milestone: activeMilestone },
    statuses: { issue: [...ISSUE_STATUSES], milestone: [...MILESTONE_STATUSES] },
    milestones: milestones.map((m) => ({
      id: m.id,
      status: milestoneStatus.get(m.id)!,
      order: Number(m.order),
      priority: m.priority,
      title: m.title,
      slug: m.slug,
      version: m.version,
      rank: rankOf.get(m.id)!,
      depends_on: validMilestoneDeps.get(m.id)!,
      blocked_by: milestoneBlockedBy.get(m.id)!,
      dependents: milestoneDependents.get(m.id)!,
      claims: m.claims,
      counts: milestoneCounts.get(m.id)!,
      issues: issuesOf.get(m.id)!,
      outcome: m.outcome,
    })),
    issues: issues.map((issue) => ({
      id: issue.id,
      milestone: issue.milestone,
      status: issueStatus.get(issue.id)!,
      wave: waveOf.get(issue.id) ?? 0,
      priority: issue.priority,
      profile: issue.profile,
      parallel_safe: issue.parallelSafe,
      title: issue.title,
      slug: issue.slug,
      depends_on: issue.dependsOn,
      blocked_by: issueBlockedBy.get(issue.id)!,
      dependents: issueDependents.get(issue.id)!,
      scope: issue.scope,
      serves: issue.serves,
      objective: issue.objective,
      evidence_have: issue.covers.length,
      evidence_need: issue.evidenceRequired.length,
      started_at: issue.stamps.start,
      verified_at: issue.stamps.verify,
      completed_at: issue.stamps.done,
    })),
    waves: issueLayering.layers.map((ids, wave) => ({ wave, issues: ids })),
    edges: sortEdges(issueEdges),
    milestone_edges: sortEdges(milestoneEdges),
    findings: [
      ...loaded.loadFindings,
      ...phaseA,
      ...phaseB,
      ...phaseC,
      ...phaseD,
      ...phaseE,
      ...phaseF,
      ...phaseG,
      ...phaseH,
      ...phaseI,
      ...phaseJ,
    ],
  };
}
