import {
  CORE_SCHEMA,
  NOT_RESOLVED,
  YAMLException,
  defineScalarTag,
  loadAll,
  realMapTag,
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
  line?: number;
  column?: number;
  hint?: string;
}

export type YamlResult = { ok: true; value: YamlValue } | { ok: false; problem: YamlProblem };

const boolText = defineScalarTag<string>("tag:yaml.org,2002:bool", {
  implicit: true,
  implicitFirstChars: ["t", "T", "f", "F"],
  resolve: (s) =>
    s === "true" || s === "True" || s === "TRUE"
      ? "true"
      : s === "false" || s === "False" || s === "FALSE"
        ? "false"
        : NOT_RESOLVED,
  identify: () => false,
});

const intText = defineScalarTag<string>("tag:yaml.org,2002:int", {
  implicit: true,
  implicitFirstChars: ["-", "+", ..."0123456789"],
  resolve: (s) => integerText(s) ?? NOT_RESOLVED,
  identify: () => false,
});

const floatTextTag = defineScalarTag<string>("tag:yaml.org,2002:float", {
  implicit: true,
  implicitFirstChars: ["-", "+", ".", ..."0123456789"],
  resolve: (s) => floatText(s) ?? NOT_RESOLVED,
  identify: () => false,
});

// YAML 1.2 core resolution with serde_yaml's number rules; timestamps are not a type, so they stay text.
const SCHEMA = CORE_SCHEMA.withTags(boolText, intText, floatTextTag, realMapTag);

/** The key of a mapping entry as text (a key that is itself a collection has no flat name). */
function keyText(key: unknown): string {
  if (key === null) return "";
  return typeof key === "string" ? key : String(key);
}

function normalise(value: unknown): YamlValue {
  if (value === null || value === undefined) return null;
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(normalise);
  if (value instanceof Map) {
    let plain = true;
    for (const k of value.keys()) if (typeof k !== "string") plain = false;
    if (plain) {
      for (const [k, v] of value) if (typeof v !== "string" && v !== null) value.set(k, normalise(v));
      return value as YamlMap;
    }
    const out: YamlMap = new Map();
    for (const [k, v] of value) out.set(keyText(k), normalise(v));
    return out;
  }
  return String(value);
}

/** Parse one record's text. Never throws: a problem is returned with its position where known. */
export function parseYaml(text: string): YamlResult {
  let docs: unknown[];
  try {
    docs = loadAll(text, { schema: SCHEMA, maxAliases: 1000 });
  } catch (error) {
    return { ok: false, problem: describeError(text, error) };
  }
  if (docs.length > 1) {
    return { ok: false, problem: { reason: "the file holds more than one YAML document; a record is one mapping" } };
  }
  return { ok: true, value: docs.length === 0 ? null : normalise(docs[0]) };
}

/** Why a text does not parse, with the parser's position (1-based) and a hint where one helps. */
function describeError(text: string, error: unknown): YamlProblem {
  if (!(error instanceof YAMLException)) {
    return { reason: error instanceof Error ? error.message : String(error) };
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
