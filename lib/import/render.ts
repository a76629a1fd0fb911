import { SCHEMA_ORDER } from "../plan/edit-fields";
import { slugOf } from "../repo/plan-edit";
import { MOVES, sealOf } from "../plan/seal";
import { parseYaml, type YamlMap } from "../plan/yaml";
import type { ImportIssue, ImportMilestone } from "./shapes";

// Imported records as text in the plan's own YAML: keys in the schema's order, every text quoted
// (or a literal block when it spans lines and reads back the same), stamps with their seals. Each
// record is parsed once, as the loader parses it: that one parse both checks the literal blocks and
// gives the importer the record it derives from (10,000 records, 10,000 parses, not one per block more).

type Value = string | string[] | boolean | number | undefined;

// Ids, dates, stamps and seals as the plan's own records write them: unquoted.
const PLAIN = /^(?:[A-Za-z][A-Za-z0-9._-]*|\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}:\d{2}Z)?|sha256:[0-9a-f]{64})$/;
const WORDS = new Set(["true", "false", "null", "yes", "no", "on", "off", "y", "n"]);
// Characters YAML does not allow unescaped (c-printable), and lone surrogates, which it cannot escape.
const UNPRINTABLE = /[\u007f-\u0084\u0086-\u009f\ufffe\uffff]/g;
const HAS_UNPRINTABLE = /[\u007f-\u0084\u0086-\u009f\ufffe\uffff]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** A text as a double-quoted YAML scalar. */
export function quoted(text: string): string {
  return JSON.stringify(text.replace(LONE_SURROGATE, "\ufffd")).replace(UNPRINTABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

function scalar(text: string): string {
  return PLAIN.test(text) && !WORDS.has(text.toLowerCase()) ? text : quoted(text);
}

/** A text over several lines that a literal block may hold; whether it reads back the same, the record's parse checks. */
const blockable = (value: Value): value is string =>
  typeof value === "string" && value.includes("\n") && !/[\r\t]/.test(value) && !/^\s/.test(value) && !/\s$/.test(value) && !HAS_UNPRINTABLE.test(value);

/** `key: value` lines for one field; a text over several lines as a literal block when `blocks` allows it. */
function field(key: string, value: Value, blocks: boolean): string {
  if (value === undefined) return "";
  if (typeof value === "boolean" || typeof value === "number") return `${key}: ${value}\n`;
  if (Array.isArray(value)) return value.length === 0 ? `${key}: []\n` : `${key}:\n${value.map((v) => `  - ${scalar(v)}\n`).join("")}`;
  if (blocks && blockable(value)) return `${key}: |-\n${value.split("\n").map((l) => (l === "" ? "" : `  ${l}`)).join("\n")}\n`;
  return `${key}: ${scalar(value)}\n`;
}

/** A record's text and the mapping the loader reads from it. */
export interface Rendered {
  text: string;
  map: YamlMap;
}

function parsedMap(text: string): YamlMap | undefined {
  const parsed = parseYaml(text);
  return parsed.ok && parsed.value instanceof Map ? parsed.value : undefined;
}

function render(kind: "issue" | "milestone", values: Record<string, Value>): Rendered {
  const keys = SCHEMA_ORDER[kind];
  const text = keys.map((k) => field(k, values[k], true)).join("");
  const map = parsedMap(text);
  if (map && keys.every((k) => !blockable(values[k]) || map.get(k) === values[k])) return { text, map };
  // A literal block that does not read back as its text: every text of this record quoted instead.
  const quotedText = keys.map((k) => field(k, values[k], false)).join("");
  const quotedMap = parsedMap(quotedText);
  if (!quotedMap) throw new Error(`the record written for ${String(values.id)} does not parse`);
  return { text: quotedText, map: quotedMap };
}

/** An issue's record text; its stamps sealed by the import (plan-semantics §1.7). */
export function renderIssue(issue: ImportIssue, at: string): Rendered {
  const stamp = (move: "start" | "done", value: string | undefined) =>
    value === undefined ? {} : { [MOVES[move].field]: value, [MOVES[move].seal]: sealOf(MOVES[move].event, issue.id, value) };
  return render("issue", {
    id: issue.id,
    milestone: issue.milestone,
    title: issue.title,
    slug: slugOf(issue.title),
    priority: issue.priority,
    owner: issue.owner,
    cancelled: issue.cancelled ? true : undefined,
    created_at: issue.created_at,
    updated_at: at,
    objective: issue.objective,
    current_state: issue.current_state,
    desired_state: issue.desired_state,
    completion: issue.completion,
    ...stamp("start", issue.started_at),
    ...stamp("done", issue.completed_at),
    scope: [],
    depends_on: issue.depends_on.length ? issue.depends_on : undefined,
    acceptance_criteria: issue.acceptance_criteria,
    validation: issue.validation,
    evidence_required: issue.evidence_required,
  });
}

export function renderMilestone(m: ImportMilestone, order: number, at: string): Rendered {
  return render("milestone", {
    id: m.id,
    title: m.title,
    slug: slugOf(m.title),
    order,
    priority: m.priority,
    cancelled: m.cancelled ? true : undefined,
    created_at: m.created_at,
    updated_at: at,
    outcome: m.outcome,
    desired_state: m.desired_state,
    acceptance_criteria: m.acceptance_criteria,
    validation: [],
    evidence_required: [],
    depends_on: m.depends_on.length ? m.depends_on : undefined,
  });
}
