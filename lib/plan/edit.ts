import { parseYaml, type YamlValue } from "./yaml";

// Line edits of a record's text (plan-semantics §6.3, §6.6): no YAML re-serialisation, nothing but
// the edited lines changes. Like the reference's writer, the result has LF line ends and a final
// newline.

/** The lines of a text as Rust's `str::lines` yields them: split on LF, one trailing CR dropped. */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (l.endsWith("\r")) lines[i] = l.slice(0, -1);
  }
  return lines;
}

export function joinLines(lines: readonly string[]): string {
  return lines.length === 0 ? "" : lines.join("\n") + "\n";
}

/**
 * Set `key: value` (§6.3): replace every line that starts with `key:` in column 0; else insert
 * before the first line starting with `evidence:`; else append.
 */
export function setField(text: string, key: string, value: string): string {
  return joinLines(setFieldInLines(splitLines(text), key, value));
}

function setFieldInLines(lines: string[], key: string, value: string): string[] {
  const prefix = `${key}:`;
  const line = `${key}: ${value}`;
  let replaced = false;
  const out = lines.map((l) => {
    if (!l.startsWith(prefix)) return l;
    replaced = true;
    return line;
  });
  if (replaced) return out;
  const evidence = out.findIndex((l) => l.startsWith("evidence:"));
  if (evidence >= 0) out.splice(evidence, 0, line);
  else out.push(line);
  return out;
}

/** Apply several field sets in sequence. */
export function setFields(text: string, fields: readonly (readonly [string, string])[]): string {
  let lines = splitLines(text);
  for (const [k, v] of fields) lines = setFieldInLines(lines, k, v);
  return joinLines(lines);
}

const PLAIN_SAFE = /^[A-Za-z0-9_][A-Za-z0-9_./@+-]*$/;
const RESERVED = /^(?:true|True|TRUE|false|False|FALSE|null|Null|NULL|~|[-+]?[0-9][0-9a-fA-FxobeE_.+-]*|\.[0-9].*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;

/** A scalar written so that it reads back as exactly this text. */
export function yamlScalar(text: string): string {
  if (text !== "" && PLAIN_SAFE.test(text) && !RESERVED.test(text)) return text;
  return quoted(text);
}

/** A double-quoted YAML scalar (JSON's escapes are YAML's). */
export function quoted(text: string): string {
  return JSON.stringify(text);
}

/** Where a top-level block that starts at `start` (a `key:` line) ends: the index after its last content line. */
function blockEnd(lines: readonly string[], start: number): number {
  let end = start + 1;
  for (let i = start + 1; i < lines.length; i++) {
    const l = lines[i];
    if (l.trim() === "" || l.startsWith("#")) continue;
    if (l.startsWith(" ") || l.startsWith("\t") || l.startsWith("-")) {
      end = i + 1;
      continue;
    }
    break;
  }
  return end;
}

/** The value of the one-key document `v: …`; a text that does not read is an error, never a loss. */
function readInlineValue(text: string): YamlValue | undefined {
  const parsed = parseYaml(text);
  if (!parsed.ok || !(parsed.value instanceof Map)) {
    throw new Error("the inline list cannot be read back, so it is not rewritten; make it a block list by hand");
  }
  return parsed.value.get("v");
}

/** Render one list item (a mapping or a scalar) as block lines at `indent`. */
function renderItem(item: YamlValue, indent: string): string[] {
  if (item instanceof Map) {
    const entries = [...item.entries()];
    if (entries.length === 0) return [`${indent}- {}`];
    return entries.map(([k, v], i) => `${indent}${i === 0 ? "- " : "  "}${yamlScalar(k)}: ${renderValue(v)}`);
  }
  return [`${indent}- ${renderValue(item)}`];
}

function renderValue(v: YamlValue): string {
  if (v === null) return "null";
  if (typeof v === "string") return yamlScalar(v);
  return JSON.stringify(toPlain(v));
}

/** A YAML value as plain JSON: mappings become objects. */
export function toPlain(v: YamlValue): unknown {
  if (v instanceof Map) return Object.fromEntries([...v.entries()].map(([k, x]) => [k, toPlain(x)]));
  if (Array.isArray(v)) return v.map(toPlain);
  return v;
}

/**
 * Make the top-level `key:` a block list and return the lines with the index where a new item
 * goes and the item indentation. An inline value (`[]`, a flow list, a scalar) becomes block items
 * that keep what it held; a missing key is inserted before `evidence:` (or appended).
 */
function openBlockList(lines: string[], key: string): { lines: string[]; insertAt: number; indent: string } {
  const prefix = `${key}:`;
  let at = lines.findIndex((l) => l.startsWith(prefix));
  if (at < 0) {
    const evidence = key === "evidence" ? -1 : lines.findIndex((l) => l.startsWith("evidence:"));
    at = evidence >= 0 ? evidence : lines.length;
    lines.splice(at, 0, prefix);
    return { lines, insertAt: at + 1, indent: "  " };
  }
  const end = blockEnd(lines, at);
  const inline = lines[at].slice(prefix.length).trim();
  const body = lines.slice(at + 1, end);
  const firstContent = body.find((l) => l.trim() !== "" && !l.trimStart().startsWith("#"));
  if ((inline === "" || inline.startsWith("#")) && (firstContent === undefined || /^\s*-(?: |$)/.test(firstContent))) {
    const indent = firstContent ? firstContent.slice(0, firstContent.indexOf("-")) : "  ";
    return { lines, insertAt: end, indent };
  }
  // An inline value, or a block that is not a list (one entry written without its `-`): read it and
  // write it out again as a block list that keeps what it held.
  const value = readInlineValue([`v: ${inline.startsWith("#") ? "" : inline}`, ...body].join("\n"));
  const items: YamlValue[] = value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];
  const rendered = items.flatMap((item) => renderItem(item, "  "));
  lines.splice(at, end - at, prefix, ...rendered);
  return { lines, insertAt: at + 1 + rendered.length, indent: "  " };
}

/** Append one block-list item (already rendered, unindented) to the top-level list `key`. */
export function appendToBlockList(text: string, key: string, itemLines: readonly string[]): string {
  const { lines, insertAt, indent } = openBlockList(splitLines(text), key);
  const block = itemLines.map((l, i) => `${indent}${i === 0 ? "- " : "  "}${l}`);
  lines.splice(insertAt, 0, ...block);
  return joinLines(lines);
}

export interface EvidenceEntry {
  covers: string;
  type: string;
  command?: string;
  result?: string;
  artifact?: string;
  commit: string;
  recorded_at: string;
}

/** The evidence entry block of §1.6, unindented. */
export function evidenceLines(e: EvidenceEntry): string[] {
  const lines = [`covers: ${yamlScalar(e.covers)}`, `type: ${yamlScalar(e.type)}`];
  if (e.command !== undefined) lines.push(`command: ${quoted(e.command)}`);
  if (e.result !== undefined) lines.push(`result: ${quoted(e.result)}`);
  if (e.artifact !== undefined) lines.push(`artifact: ${quoted(e.artifact)}`);
  lines.push(`commit: ${yamlScalar(e.commit)}`, `recorded_at: ${e.recorded_at}`);
  return lines;
}
