import {
  CORE_SCHEMA,
  NOT_RESOLVED,
  YAMLException,
  defineMappingTag,
  defineScalarTag,
  defineSequenceTag,
  EVENT_ID,
  loadAll,
  parseEvents,
} from "js-yaml";
import { floatText, integerText } from "./scalars";

/**
 * A record's value after reading: every scalar is its text (or null), mappings keep file order.
 * This is the "text-normalised" form the derivation compares.
 */
export type YamlValue = string | null | YamlValue[] | YamlMap;
export type YamlMap = Map<string, YamlValue>;

export interface YamlProblem {
  reason: string;
  /** The text parses but is beyond a record's limits (MAX_RECORD_VALUES, MAX_RECORD_DEPTH, MAX_ALIASES). */
  isTooLarge?: boolean;
  line?: number;
  column?: number;
  hint?: string;
}

export type YamlResult = { ok: true; value: YamlValue } | { ok: false; problem: YamlProblem };

// Booleans and numbers are read as their text, boxed (`new String`) while parsing so that a mapping
// can tell the key `1` from the key `"1"` (two keys in YAML); `normalise` unboxes them.
const boxed = (text: string | undefined) => (text === undefined ? NOT_RESOLVED : new String(text));

const boolText = defineScalarTag<string | String>("tag:yaml.org,2002:bool", {
  implicit: true,
  implicitFirstChars: ["t", "T", "f", "F"],
  resolve: (s) =>
    boxed(s === "true" || s === "True" || s === "TRUE" ? "true" : s === "false" || s === "False" || s === "FALSE" ? "false" : undefined),
  identify: () => false,
});

const intText = defineScalarTag<string | String>("tag:yaml.org,2002:int", {
  implicit: true,
  implicitFirstChars: ["-", "+", ..."0123456789"],
  resolve: (s) => boxed(integerText(s)),
  identify: () => false,
});

const floatTextTag = defineScalarTag<string | String>("tag:yaml.org,2002:float", {
  implicit: true,
  implicitFirstChars: ["-", "+", ".", ..."0123456789"],
  resolve: (s) => boxed(floatText(s)),
  identify: () => false,
});

/** Marks the second and later keys of one mapping that read as the same text (`1` and `"1"`). */
export const SAME_TEXT_KEY = "\u0000";

interface MapCarrier {
  map: Map<string, unknown>;
  /**
   * Which kinds of key hold each text (PLAIN, TYPED, NULL bits), made only when a key that is not
   * plain text arrives; until then every key of `map` is a plain key under its own text.
   */
  kinds?: Map<string, number>;
}

const PLAIN = 1;
const TYPED = 2;
const NULL = 4;

/** A key's kind bit, or 0 for a collection (a key never equal to another). */
function kindOf(key: unknown): number {
  if (typeof key === "string") return PLAIN;
  if (key instanceof String) return TYPED;
  if (key === null || key === undefined) return NULL;
  return 0;
}

function kindsOf(c: MapCarrier): Map<string, number> {
  if (!c.kinds) {
    c.kinds = new Map();
    for (const text of c.map.keys()) c.kinds.set(text, PLAIN);
  }
  return c.kinds;
}

/** Mappings keep file order and compare keys as YAML does (by type and value), keyed by text. */
const recordMapTag = defineMappingTag<MapCarrier, Map<string, unknown>>("tag:yaml.org,2002:map", {
  create: () => ({ map: new Map() }),
  addPair: (c, key, value) => {
    if (typeof key === "string" && !c.kinds) {
      c.map.set(key, value);
      return "";
    }
    const kind = kindOf(key);
    const text = keyText(key);
    if (kind !== 0) {
      const kinds = kindsOf(c);
      kinds.set(text, (kinds.get(text) ?? 0) | kind);
    }
    let slot = text;
    for (let n = 1; c.map.has(slot); n++) slot = `${text}${SAME_TEXT_KEY}${n}`;
    c.map.set(slot, value);
    return "";
  },
  has: (c, key) => {
    if (typeof key === "string" && !c.kinds) return c.map.has(key);
    const kind = kindOf(key);
    return kind !== 0 && ((kindsOf(c).get(keyText(key)) ?? 0) & kind) !== 0;
  },
  keys: (m) => m.keys(),
  get: (m, key) => m.get(keyText(key)),
  finalize: (c) => c.map,
  identify: () => false,
});

// A local tag (`!foo`) is an annotation, not a reason to lose the record: its value is read as if untagged.
const localScalar = defineScalarTag<string>("!", {
  matchByTagPrefix: true,
  resolve: (s) => s,
  identify: () => false,
});
const localSequence = defineSequenceTag<unknown[]>("!", {
  matchByTagPrefix: true,
  create: () => [],
  addItem: (list, item) => {
    list.push(item);
  },
  identify: () => false,
});
const localMapping = defineMappingTag<MapCarrier, Map<string, unknown>>("!", {
  ...recordMapTag,
  matchByTagPrefix: true,
});

// YAML 1.2 core resolution (scalars.ts); YAML 1.1's yes/no, timestamps, `0b`, `1:20` and `<<` are text.
const SCHEMA = CORE_SCHEMA.withTags(boolText, intText, floatTextTag, recordMapTag, localScalar, localSequence, localMapping);

/** The key of a mapping entry as text (a key that is itself a collection has no flat name). */
function keyText(key: unknown): string {
  if (typeof key === "string") return key;
  if (key instanceof String) return key.valueOf();
  return "";
}

/**
 * A record's limits once parsed, far above any real record (the largest of the reference corpus
 * holds 83 values, 4 levels deep). Aliases are counted as the copies they stand for: eight levels
 * of aliases, each repeating the one below ten times, stand for 10^8 values in a 1 KB file.
 */
export const MAX_RECORD_VALUES = 10_000;
export const MAX_RECORD_DEPTH = 100;
/** Alias nodes (`*name`) one record may hold, as written. */
export const MAX_ALIASES = 1_000;

class BeyondLimits extends Error {}

function spend(budget: { values: number }): void {
  if (++budget.values > MAX_RECORD_VALUES) {
    throw new BeyondLimits(`holds more than ${MAX_RECORD_VALUES} values once its aliases are expanded; a record may hold at most ${MAX_RECORD_VALUES}`);
  }
}

/**
 * The record as text values: the only walk of what the parser shares between aliases (a mapping
 * reached twice is the same object, normalised in place), so it counts every value it meets on
 * every path and stops at the limits before anything else walks the record.
 */
function normalise(value: unknown, budget: { values: number }, depth: number): YamlValue {
  spend(budget);
  if (value === null || value === undefined) return null;
  if (typeof value === "string") return value;
  if (value instanceof String) return value.valueOf();
  if (depth >= MAX_RECORD_DEPTH) {
    throw new BeyondLimits(`nests deeper than ${MAX_RECORD_DEPTH} levels once its aliases are expanded; a record may nest at most ${MAX_RECORD_DEPTH}`);
  }
  if (Array.isArray(value)) {
    const out = new Array<YamlValue>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = normalise(value[i], budget, depth + 1);
    return out;
  }
  if (value instanceof Map) {
    for (const [k, v] of value) {
      if (typeof v === "string" || v === null) spend(budget);
      else value.set(k, normalise(v, budget, depth + 1));
    }
    return value as YamlMap;
  }
  return String(value);
}

/** Parse one record's text. Never throws: a problem is returned with its position where known. */
export function parseYaml(text: string): YamlResult {
  let docs: unknown[];
  try {
    docs = loadAll(text, { schema: SCHEMA, maxAliases: MAX_ALIASES, maxDepth: MAX_RECORD_DEPTH });
  } catch (error) {
    return { ok: false, problem: describeError(text, error) };
  }
  if (docs.length > 1) {
    return { ok: false, problem: { reason: "the file holds more than one YAML document; a record is one mapping" } };
  }
  const longKey = findLongImplicitKey(text);
  if (longKey) return { ok: false, problem: longKey };
  if (docs.length === 0) return { ok: true, value: null };
  try {
    return { ok: true, value: normalise(docs[0], { values: 0 }, 0) };
  } catch (error) {
    if (error instanceof BeyondLimits) return { ok: false, problem: { reason: error.message, isTooLarge: true } };
    throw error;
  }
}

/** YAML 1.2 §7.4 (and libyaml): an implicit key is at most 1024 characters. */
const MAX_IMPLICIT_KEY = 1024;

/** A key longer than YAML allows, found from the parser's events; only texts with a long line can hold one. */
function findLongImplicitKey(text: string): YamlProblem | undefined {
  let hasLongLine = false;
  for (let start = 0; start < text.length; ) {
    const end = text.indexOf("\n", start);
    const stop = end === -1 ? text.length : end;
    if (stop - start > MAX_IMPLICIT_KEY) {
      hasLongLine = true;
      break;
    }
    start = stop + 1;
  }
  if (!hasLongLine) return undefined;
  const events = parseEvents(text, {});
  const stack: { mapping: boolean; children: number }[] = [];
  for (const e of events) {
    const top = stack[stack.length - 1];
    const isKey = top?.mapping === true && top.children % 2 === 0;
    if (e.type === EVENT_ID.POP) {
      stack.pop();
      continue;
    }
    if (top) top.children++;
    if (e.type === EVENT_ID.MAPPING || e.type === EVENT_ID.SEQUENCE) stack.push({ mapping: e.type === EVENT_ID.MAPPING, children: 0 });
    else if (e.type === EVENT_ID.DOCUMENT) stack.push({ mapping: false, children: 0 });
    else if (e.type === EVENT_ID.SCALAR && isKey) {
      const source = text.slice(e.valueStart, e.valueEnd);
      if (source.length > MAX_IMPLICIT_KEY && !source.includes("\n")) {
        const line = text.slice(0, e.valueStart).split("\n").length;
        return { reason: `a key is longer than ${MAX_IMPLICIT_KEY} characters, which YAML does not allow`, line, column: 1 };
      }
    }
  }
  return undefined;
}

/** Why a text does not parse, with the parser's position (1-based) and a hint where one helps. */
function describeError(text: string, error: unknown): YamlProblem {
  if (!(error instanceof YAMLException)) {
    return { reason: error instanceof Error ? error.message : String(error) };
  }
  if (/exceeded (maxAliases|maxDepth)/.test(error.reason)) {
    const reason = error.reason.includes("maxAliases")
      ? `holds more than ${MAX_ALIASES} aliases; a record may hold at most ${MAX_ALIASES}`
      : `nests deeper than ${MAX_RECORD_DEPTH} levels; a record may nest at most ${MAX_RECORD_DEPTH}`;
    return { reason, isTooLarge: true };
  }
  const reason = error.reason === "duplicated mapping key" ? "a key appears twice in one mapping" : error.reason;
  const problem: YamlProblem = {
    reason,
    line: error.mark ? error.mark.line + 1 : undefined,
    column: error.mark ? error.mark.column + 1 : undefined,
  };
  return withHint(text, problem);
}

const UNQUOTED_COLON = /^(\s*(?:-\s+)?[^\s#'"][^:#]*):\s+[^'"\s|>[{][^#]*:\s/;

function withHint(text: string, problem: YamlProblem): YamlProblem {
  if (problem.line === undefined) return problem;
  const line = text.split(/\r?\n/)[problem.line - 1] ?? "";
  if (UNQUOTED_COLON.test(line)) {
    const key = line.split(":")[0].trim();
    return { ...problem, hint: `the value of '${key}' holds an unquoted ': '; quote the value` };
  }
  return problem;
}
