import { processWide } from "../process-wide";
import { ISSUE_ALLOWED_KEYS, MILESTONE_ALLOWED_KEYS, PROJECT_ALLOWED_KEYS } from "./allowlists";
import type { PlanFinding } from "./shapes";
import { SAME_TEXT_KEY, type YamlMap, type YamlValue } from "./yaml";

/** The project header as the derivation reads it (§1.3). */
export interface ProjectHeader {
  name: string;
  repository: string;
  default_branch: string;
}

/** One issue record, text-normalised (§1.2, §1.5). Identity is the file name. */
export interface IssueRecord {
  id: string;
  milestone: string;
  title: string;
  slug: string;
  priority: string;
  profile: string;
  objective: string;
  parallel_safe: boolean;
  cancelled: boolean;
  depends_on: string[];
  scope: string[];
  serves: string[];
  acceptance_count: number;
  validation_count: number;
  evidence_required: string[];
  /** `covers` of every evidence entry that has one, in file order, duplicates kept. */
  covers: string[];
  started_at: string;
  verified_at: string;
  completed_at: string;
  started_event: string;
  verified_event: string;
  completed_event: string;
  unsealed_stamps: string[];
}

/** One milestone record, text-normalised (§1.4). */
export interface MilestoneRecord {
  id: string;
  title: string;
  slug: string;
  order: number;
  /** `order` as the 64-bit integer it is, for comparisons beyond 2^53. */
  order_exact?: bigint;
  priority: string;
  version: string;
  cancelled: boolean;
  superseded_by: string;
  outcome: string;
  evidence_required: string[];
  depends_on: string[];
  claims: string[];
  covers: string[];
}

/**
 * Everything the loader hands the derivation. Records are values: nothing changes one in place (a
 * changed file, a transition or an edit makes a new record object), which lets the derivation
 * reuse what an unchanged record gave last time.
 */
export interface PlanRecords {
  project: ProjectHeader;
  milestones: MilestoneRecord[];
  issues: IssueRecord[];
  /** `unreadable_record` and `schema` findings, in load order. */
  loadFindings: PlanFinding[];
}

export type RecordKind = "project" | "milestone" | "issue";

export const EMPTY_HEADER: ProjectHeader = { name: "", repository: "", default_branch: "" };

/** A scalar's text; a missing key, null or a collection reads as "". */
export function scalar(value: YamlValue | undefined): string {
  return typeof value === "string" ? value : "";
}

/** A list field: null or missing is empty; any scalar (even "") is a one-item list. */
export function list(value: YamlValue | undefined): string[] {
  if (value === undefined || value === null) return [];
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) {
    const out = new Array<string>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = scalar(value[i]);
    return out;
  }
  return [];
}

/** How many items a list field holds, read as `list` reads it (a mapping is no list: 0). */
function count(value: YamlValue | undefined): number {
  if (value === undefined || value === null || value instanceof Map) return 0;
  return Array.isArray(value) ? value.length : 1;
}

/** Evidence "have" tokens: the `covers` of every entry that has the key (§1.2). */
function coversOf(value: YamlValue | undefined): string[] {
  const out: string[] = [];
  if (!Array.isArray(value)) return out;
  for (const entry of value) {
    if (entry instanceof Map && entry.has("covers")) out.push(scalar(entry.get("covers")));
  }
  return out;
}

// Unicode White_Space, which Rust's `str::trim` removes (JavaScript's `trim` differs: it keeps
// U+0085 and removes U+FEFF).
const RUST_WHITESPACE = "[\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
const RUST_TRIM = new RegExp(`^${RUST_WHITESPACE}+|${RUST_WHITESPACE}+$`, "g");

/** `order` exactly: a trimmed signed 64-bit integer, anything else 0 (Rust `order_of`). */
export function parseOrderExact(text: string): bigint {
  const t = text.replace(RUST_TRIM, "");
  if (!/^[+-]?[0-9]+$/.test(t)) return 0n;
  const n = BigInt(t);
  return n > 9223372036854775807n || n < -9223372036854775808n ? 0n : n;
}

/** `order` as a number (exact up to 2^53; the exact value is kept in `order_exact`). */
export function parseOrder(text: string): number {
  return Number(parseOrderExact(text));
}

export function issueFromMap(id: string, m: YamlMap): IssueRecord {
  return {
    id,
    milestone: scalar(m.get("milestone")),
    title: scalar(m.get("title")).replace(/\t/g, " "),
    slug: scalar(m.get("slug")),
    priority: scalar(m.get("priority")),
    profile: scalar(m.get("profile")),
    objective: scalar(m.get("objective")),
    parallel_safe: scalar(m.get("parallel_safe")) !== "false",
    cancelled: scalar(m.get("cancelled")) === "true",
    depends_on: list(m.get("depends_on")),
    scope: list(m.get("scope")),
    serves: list(m.get("serves")),
    acceptance_count: count(m.get("acceptance_criteria")),
    validation_count: count(m.get("validation")),
    evidence_required: list(m.get("evidence_required")),
    covers: coversOf(m.get("evidence")),
    started_at: scalar(m.get("started_at")),
    verified_at: scalar(m.get("verified_at")),
    completed_at: scalar(m.get("completed_at")),
    started_event: scalar(m.get("started_event")),
    verified_event: scalar(m.get("verified_event")),
    completed_event: scalar(m.get("completed_event")),
    unsealed_stamps: list(m.get("unsealed_stamps")),
  };
}

function orderFields(text: string): { order: number; order_exact: bigint } {
  const exact = parseOrderExact(text);
  return { order: Number(exact), order_exact: exact };
}

export function milestoneFromMap(id: string, m: YamlMap): MilestoneRecord {
  return {
    id,
    title: scalar(m.get("title")).replace(/\t/g, " "),
    slug: scalar(m.get("slug")),
    ...orderFields(scalar(m.get("order"))),
    priority: scalar(m.get("priority")),
    version: scalar(m.get("version")),
    cancelled: scalar(m.get("cancelled")) === "true",
    superseded_by: scalar(m.get("superseded_by")),
    outcome: scalar(m.get("outcome")),
    evidence_required: list(m.get("evidence_required")),
    depends_on: list(m.get("depends_on")),
    claims: list(m.get("claims")),
    covers: coversOf(m.get("evidence")),
  };
}

export function headerFromMap(m: YamlMap): ProjectHeader {
  return {
    name: scalar(m.get("name")),
    repository: scalar(m.get("repository")),
    default_branch: scalar(m.get("default_branch")),
  };
}

/**
 * Flattened keys in file order (`scope.0`, `evidence.1.covers`). An empty list or mapping gives
 * no key; a scalar or null gives its own.
 */
export function flattenKeys(value: YamlValue, prefix = "", out: string[] = []): string[] {
  if (value instanceof Map) {
    for (const [key, v] of value) {
      const k = key.includes(SAME_TEXT_KEY) ? key.slice(0, key.indexOf(SAME_TEXT_KEY)) : key;
      flattenKeys(v, prefix === "" ? k : `${prefix}.${k}`, out);
    }
  } else if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) flattenKeys(value[i], `${prefix}.${i}`, out);
  } else {
    out.push(prefix);
  }
  return out;
}

const ALLOWED: Record<RecordKind, RegExp> = {
  project: combine(PROJECT_ALLOWED_KEYS),
  milestone: combine(MILESTONE_ALLOWED_KEYS),
  issue: combine(ISSUE_ALLOWED_KEYS),
};

function combine(patterns: readonly string[]): RegExp {
  return new RegExp(patterns.map((p) => `(?:${p})`).join("|"));
}

/**
 * The allowlist's verdicts, kept in a tree that mirrors records' shapes: a mapping's keys are
 * children by text, every list position shares one child. The same shapes recur in every record
 * (`scope.N`, `evidence.N.covers`), so a record is checked by walking its values alongside the
 * tree, and the expression runs once per node, on the first key that reaches it. Sharing one node
 * for every position is sound because the bundled patterns match a position only as `[0-9]+`
 * (checked below; were that not so, each flattened key would be tested).
 */
interface KeyNode {
  verdict?: boolean;
  keys?: Map<string, KeyNode>;
  item?: KeyNode;
}

const POSITIONS_ALIKE = [PROJECT_ALLOWED_KEYS, MILESTONE_ALLOWED_KEYS, ISSUE_ALLOWED_KEYS].every((patterns) =>
  patterns.every((p) => !/[0-9]/.test(p.replaceAll("[0-9]", ""))),
);

const MAX_NODES = 100_000;
/** The allowlists' key trees, grown as keys are met, and their size. */
const keyTrees = processWide("record-key-trees", () => ({ nodes: 0, trees: { project: {}, milestone: {}, issue: {} } as Record<RecordKind, KeyNode> }));

/** Flattened keys of a record that its kind's allowlist does not admit, in file order. */
export function unknownKeys(kind: RecordKind, record: YamlMap): string[] {
  const out: string[] = [];
  if (!POSITIONS_ALIKE) {
    for (const key of flattenKeys(record)) if (!ALLOWED[kind].test(key)) out.push(key);
    return out;
  }
  // Distinct keys without end (a generated plan of random keys) must not grow the tree forever.
  if (keyTrees.nodes > MAX_NODES) {
    keyTrees.trees = { project: {}, milestone: {}, issue: {} };
    keyTrees.nodes = 0;
  }
  checkKeys(record, keyTrees.trees[kind], ALLOWED[kind], [], out);
  return out;
}

function child(parent: KeyNode, key: string | undefined): KeyNode {
  if (key === undefined) {
    if (!parent.item) {
      parent.item = {};
      keyTrees.nodes++;
    }
    return parent.item;
  }
  parent.keys ??= new Map();
  let node = parent.keys.get(key);
  if (!node) {
    node = {};
    parent.keys.set(key, node);
    keyTrees.nodes++;
  }
  return node;
}

/** `path` holds the segments of the value's flattened key; the text is made only when needed. */
function checkKeys(value: YamlValue, node: KeyNode, allowed: RegExp, path: (string | number)[], out: string[]): void {
  if (value instanceof Map) {
    for (const [rawKey, v] of value) {
      const key = rawKey.includes(SAME_TEXT_KEY) ? rawKey.slice(0, rawKey.indexOf(SAME_TEXT_KEY)) : rawKey;
      path.push(key);
      checkKeys(v, child(node, key), allowed, path, out);
      path.pop();
    }
  } else if (Array.isArray(value)) {
    const item = child(node, undefined);
    for (let i = 0; i < value.length; i++) {
      path.push(i);
      checkKeys(value[i], item, allowed, path, out);
      path.pop();
    }
  } else {
    if (node.verdict === true) return;
    const key = path.join(".");
    node.verdict ??= allowed.test(key);
    if (!node.verdict) out.push(key);
  }
}
