import { CST, Parser } from "yaml";
import { parseYaml, type YamlValue } from "./yaml";

// Edits of one field of a record's text at the YAML concrete syntax tree (the `yaml` package's CST):
// the tree locates the field, `CST.setScalarValue` and `CST.stringify` write the new value, and the
// text is spliced there. Every other byte (comments, key order, quoting, blank lines) is kept.

export type FieldEdit =
  | { op: "set"; field: string; value: string; plain?: boolean }
  | { op: "unset"; field: string }
  | { op: "add"; field: string; value: string }
  | { op: "remove"; field: string; value: string };

/** An edit that cannot be made to this text; the message says why and what to do. */
export class RecordEditError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RecordEditError";
  }
}

type Item = CST.CollectionItem;

interface Located {
  text: string;
  map: CST.BlockMap;
}

/** The text's one document, a block mapping at column 0, or why it cannot be edited in place. */
function locate(text: string): Located {
  const read = parseYaml(text);
  if (!read.ok) {
    const at = read.problem.line !== undefined ? ` at line ${read.problem.line}` : "";
    throw new RecordEditError(`the record does not parse${at} (${read.problem.reason}); fix the file by hand first`);
  }
  if (!(read.value instanceof Map)) throw new RecordEditError("the record is not a YAML mapping; fix the file by hand first");
  const tokens = [...new Parser().parse(text)];
  const docs = tokens.filter((t): t is CST.Document => t.type === "document");
  if (docs.length !== 1 || tokens.some((t) => t.type === "error")) {
    throw new RecordEditError("the record is not one YAML document; fix the file by hand first");
  }
  const value = docs[0].value;
  if (value?.type !== "block-map" || value.indent !== 0) {
    throw new RecordEditError("the record is not a block mapping at column 0; it is not edited in place");
  }
  if (tokens.map((t) => CST.stringify(t)).join("") !== text) throw new RecordEditError("the record's syntax tree does not give back its text");
  return { text, map: value };
}

function keyOf(item: Item): string | undefined {
  if (!item.key || !CST.isScalar(item.key)) return undefined;
  return CST.resolveAsScalar(item.key)?.value;
}

function firstToken(item: Item): CST.Token | CST.SourceToken {
  const t = item.start[0] ?? item.key ?? item.sep?.[0] ?? item.value;
  if (!t) throw new RecordEditError("an empty mapping entry cannot be located");
  return t;
}

/** The span [start, end) of a token or an item in the text, checked against its own source. */
function spanOf(text: string, node: CST.Token | Item, start: number): [number, number] {
  const source = CST.stringify(node as CST.Token);
  if (text.slice(start, start + source.length) !== source) throw new RecordEditError("the record's syntax tree is out of step with its text");
  return [start, start + source.length];
}

function tokenSpan(text: string, token: CST.Token): [number, number] {
  return spanOf(text, token, token.offset);
}

function itemSpan(text: string, item: Item): [number, number] {
  return spanOf(text, item, firstToken(item).offset);
}

function splice(text: string, start: number, end: number, insert: string): string {
  return text.slice(0, start) + insert + text.slice(end);
}

/** The value of `field` in the text as the plan reads it. */
function readField(text: string, field: string): YamlValue | undefined {
  const read = parseYaml(text);
  return read.ok && read.value instanceof Map ? read.value.get(field) : undefined;
}

function findItem(map: CST.BlockMap, field: string): Item | undefined {
  return map.items.find((i) => keyOf(i) === field);
}

/** Text that a YAML reader would take for a boolean, a null or a number when plain: written quoted. */
const LOOKS_TYPED = /^(?:true|True|TRUE|false|False|FALSE|yes|Yes|YES|no|No|NO|on|On|ON|off|Off|OFF|null|Null|NULL|~|[-+]?[0-9][0-9a-fA-FxobeE_.:+-]*|[-+]?\.[0-9].*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;

type ScalarStyle = "PLAIN" | "QUOTE_DOUBLE" | "QUOTE_SINGLE" | "BLOCK_LITERAL" | "BLOCK_FOLDED";

const isScalarToken = (t: CST.Token | undefined): t is CST.FlowScalar | CST.BlockScalar => t !== undefined && CST.isScalar(t);

/**
 * A scalar token's source for `value`, in the style `like` has (plain, quoted or block), falling
 * back to double quotes when that style would read back as something else.
 */
function scalarSource(like: CST.FlowScalar | CST.BlockScalar | undefined, value: string, plain: boolean, check: (source: string) => boolean): string {
  const base: CST.FlowScalar = { type: "scalar", offset: 0, indent: 0, source: "" };
  const attempt = (type: ScalarStyle) => {
    const token = structuredClone(like ?? base) as CST.Token;
    CST.setScalarValue(token, value, { afterKey: true, type });
    return CST.stringify(token);
  };
  const styles: ScalarStyle[] = [];
  const kind = like?.type ?? "scalar";
  if (kind === "single-quoted-scalar") styles.push("QUOTE_SINGLE");
  else if (kind === "double-quoted-scalar") styles.push("QUOTE_DOUBLE");
  else if (kind === "block-scalar") styles.push((like as CST.BlockScalar).props.some((p) => CST.stringify(p).startsWith(">")) ? "BLOCK_FOLDED" : "BLOCK_LITERAL");
  else if (plain || (!value.includes("\n") && !LOOKS_TYPED.test(value))) styles.push("PLAIN");
  styles.push("QUOTE_DOUBLE");
  for (const style of styles) {
    const source = attempt(style);
    if (check(source)) return source;
  }
  // One double-quoted line with every newline escaped (JSON's string is YAML's): a prose entry of
  // a list, whose folded lines the styles above do not indent under its `- `, reads back whole.
  const oneLine = JSON.stringify(value);
  if (check(oneLine)) return oneLine;
  throw new RecordEditError(`the value ${JSON.stringify(value)} cannot be written so that it reads back unchanged`);
}

/** Where a new top-level key goes: after the last present key that comes before it in `order`, else before the first. */
function insertionPoint(located: Located, field: string, order: readonly string[]): { at: number; newlineFirst: boolean } {
  const { text, map } = located;
  const rank = (k: string | undefined) => (k === undefined ? -1 : order.indexOf(k));
  const mine = rank(field) < 0 ? order.length : rank(field);
  let after: Item | undefined;
  for (const item of map.items) {
    const r = rank(keyOf(item));
    if (r >= 0 && r < mine) after = item;
  }
  if (!after && mine >= order.length) after = map.items[map.items.length - 1];
  if (!after) {
    const first = map.items[0];
    const at = first?.key ? first.key.offset : text.length;
    return { at, newlineFirst: at > 0 && text[at - 1] !== "\n" };
  }
  const [, end] = itemSpan(text, after);
  return { at: end, newlineFirst: end > 0 && text[end - 1] !== "\n" };
}

/** Insert `key: …` lines (given without a final newline) as a new top-level entry. */
function insertEntry(located: Located, field: string, lines: string, order: readonly string[]): string {
  const { text } = located;
  const { at, newlineFirst } = insertionPoint(located, field, order);
  // A file without a final newline keeps having none.
  if (newlineFirst) return splice(text, at, at, `\n${lines}`);
  return splice(text, at, at, `${lines}\n`);
}

/** A read value as plain JSON text (mappings keep their order), for comparing two reads. */
function same(a: YamlValue | undefined, b: YamlValue | undefined): boolean {
  const plain = (v: YamlValue | undefined): unknown =>
    v instanceof Map ? [...v.entries()].map(([k, x]) => [k, plain(x)]) : Array.isArray(v) ? v.map(plain) : v;
  return JSON.stringify(plain(a)) === JSON.stringify(plain(b));
}

function describeList(value: YamlValue | undefined): string {
  if (!Array.isArray(value) || value.length === 0) return "it is empty";
  return `it holds ${value.map((v) => (typeof v === "string" ? v : JSON.stringify(v))).join(", ")}`;
}

function lineStart(text: string, at: number): number {
  return text.lastIndexOf("\n", at - 1) + 1;
}

/**
 * Apply one edit to a record's text. `order` is the key order new keys follow (the schema's). The
 * result is checked by reading it back: the edited field has the new value and every other field
 * reads as before; anything else is an error, never a silent change.
 */
export function editRecordText(text: string, edit: FieldEdit, order: readonly string[] = []): string {
  const located = locate(text);
  const out = applyEdit(located, edit, order);
  checkResult(text, out, edit);
  return out;
}

/** Several edits in sequence, each on the text the previous one left. */
export function editRecordTextAll(text: string, edits: readonly FieldEdit[], order: readonly string[] = []): string {
  return edits.reduce((t, e) => editRecordText(t, e, order), text);
}

function applyEdit(located: Located, edit: FieldEdit, order: readonly string[]): string {
  const { text, map } = located;
  const item = findItem(map, edit.field);
  const check = (field: string, expected: YamlValue) => (source: string) => {
    const read = readField(`${field}: ${source}`, field);
    return same(read, expected);
  };
  switch (edit.op) {
    case "set": {
      if (!item) {
        const source = scalarSource(undefined, edit.value, edit.plain === true, check(edit.field, edit.value));
        return insertEntry(located, edit.field, `${edit.field}: ${source}`, order);
      }
      if (item.value && !isScalarToken(item.value)) {
        throw new RecordEditError(`${edit.field} holds a ${item.value.type === "block-map" ? "mapping" : "list"}, not a single value`);
      }
      const like = item.value;
      const source = scalarSource(like, edit.value, edit.plain === true, check(edit.field, edit.value));
      if (like) {
        // setScalarValue keeps the token's trailing comment and newline, so the whole span is replaced.
        const [start, end] = tokenSpan(text, like);
        return splice(text, start, end, source);
      }
      // `key:` with nothing after it.
      const ind = item.sep?.find((t) => t.type === "map-value-ind");
      if (!ind) throw new RecordEditError(`${edit.field} has no ':' to write after`);
      return splice(text, ind.offset + 1, ind.offset + 1, ` ${source.replace(/\n$/, "")}`);
    }
    case "unset": {
      if (!item) return text;
      const [itemStart, end] = itemSpan(text, item);
      let start = item.key ? item.key.offset : itemStart;
      if (end === text.length && !text.endsWith("\n") && start > 0) start -= 1;
      return splice(text, start, end, "");
    }
    case "add":
      return addToList(located, item, edit.field, edit.value, order);
    case "remove":
      return removeFromList(located, item, edit.field, edit.value);
  }
}

function listItemSource(field: string, value: string): string {
  const check = (source: string) => {
    const read = readField(`${field}:\n  - ${source}`, field);
    return Array.isArray(read) && read.length === 1 && read[0] === value;
  };
  return scalarSource(undefined, value, false, check).replace(/\n$/, "");
}

function flowItemSource(field: string, value: string): string {
  const check = (source: string) => {
    const read = readField(`${field}: [${source}]`, field);
    return Array.isArray(read) && read.length === 1 && read[0] === value;
  };
  const token: CST.FlowScalar = { type: "scalar", offset: 0, indent: 0, source: "" };
  for (const type of LOOKS_TYPED.test(value) ? (["QUOTE_DOUBLE"] as const) : (["PLAIN", "QUOTE_DOUBLE"] as const)) {
    const t = structuredClone(token);
    CST.setScalarValue(t, value, { inFlow: true, type });
    const source = CST.stringify(t);
    if (check(source)) return source;
  }
  throw new RecordEditError(`the value ${JSON.stringify(value)} cannot be written in a flow list`);
}

function addToList(located: Located, item: Item | undefined, field: string, value: string, order: readonly string[]): string {
  const { text } = located;
  const entry = listItemSource(field, value);
  if (!item) return insertEntry(located, field, `${field}:\n  - ${entry}`, order);
  const v = item.value;
  if (!v || (isScalarToken(v) && CST.resolveAsScalar(v)?.value === "" && v.type === "scalar" && /^(~|null|Null|NULL)?$/.test(v.source))) {
    // `key:` or `key: null`: becomes a block list.
    const ind = item.sep?.find((t) => t.type === "map-value-ind");
    if (!ind) throw new RecordEditError(`${field} has no ':' to write after`);
    const end = v ? v.offset + v.source.length : ind.offset + 1;
    return splice(text, ind.offset + 1, end, `\n  - ${entry}`);
  }
  if (v.type === "block-seq") {
    const last = v.items[v.items.length - 1];
    const [, end] = itemSpan(text, last);
    const dash = last.start.find((t) => t.type === "seq-item-ind");
    const indent = dash ? text.slice(lineStart(text, dash.offset), dash.offset) : "  ";
    if (!/^[ ]*$/.test(indent)) throw new RecordEditError(`${field}'s entries do not each start a line; edit it by hand`);
    if (end === text.length && !text.endsWith("\n")) return splice(text, end, end, `\n${indent}- ${entry}`);
    return splice(text, end, end, `${indent}- ${entry}\n`);
  }
  if (v.type === "flow-collection" && v.start.source === "[") {
    const close = v.end.find((t) => t.type === "flow-seq-end");
    if (!close) throw new RecordEditError(`${field}'s flow list is not closed`);
    const flow = flowItemSource(field, value);
    const values = v.items.filter((i) => i.value);
    const trailingComma = v.items.length > 0 && v.items[v.items.length - 1].value === undefined;
    const sep = values.length === 0 || trailingComma ? "" : ", ";
    // Insert right after the last entry (before any space or newline that precedes the `]`).
    const lastValue = values[values.length - 1]?.value;
    const at = lastValue && !trailingComma ? tokenEndBeforeTrailing(text, lastValue) : close.offset;
    return splice(text, at, at, `${sep}${flow}`);
  }
  throw new RecordEditError(`${field} holds a single value, not a list; edit it by hand`);
}

/** The end of a token's own source, before the spaces and newlines that follow it. */
function tokenEndBeforeTrailing(text: string, token: CST.Token): number {
  if (CST.isScalar(token) && token.type !== "block-scalar") return token.offset + token.source.length;
  const [, end] = tokenSpan(text, token);
  let e = end;
  while (e > token.offset && /\s/.test(text[e - 1])) e--;
  return e;
}

function removeFromList(located: Located, item: Item | undefined, field: string, value: string): string {
  const { text } = located;
  const current = readField(text, field);
  const absent = () => new RecordEditError(`'${value}' is not in ${field} (${describeList(current)})`);
  if (!item?.value) throw absent();
  const v = item.value;
  const matches = (i: Item) => i.value !== undefined && isScalarToken(i.value) && CST.resolveAsScalar(i.value)?.value === value;
  if (v.type === "block-seq") {
    const at = v.items.findIndex(matches);
    if (at < 0) throw absent();
    if (v.items.length === 1) {
      // The last entry: the list is written as `[]`, which keeps the key (a required field stays).
      const ind = item.sep?.find((t) => t.type === "map-value-ind");
      if (!ind) throw absent();
      const [, end] = itemSpan(text, item);
      const tail = end === text.length && !text.endsWith("\n") ? "" : "\n";
      return splice(text, ind.offset + 1, end, ` []${tail}`);
    }
    const entry = v.items[at];
    const dash = entry.start.find((t) => t.type === "seq-item-ind");
    if (!dash) throw absent();
    let start = lineStart(text, dash.offset);
    let [, end] = itemSpan(text, entry);
    if (end === text.length && !text.endsWith("\n")) start -= 1;
    // Comments and blank lines above the entry stay (they may speak of the next one).
    const leading = entry.start.filter((t) => t.type === "comment" || t.type === "newline");
    if (leading.length > 0) start = Math.max(start, lineStart(text, dash.offset));
    end = Math.max(end, start);
    return splice(text, start, end, "");
  }
  if (v.type === "flow-collection" && v.start.source === "[") {
    const entries = v.items.filter((i) => i.value !== undefined);
    const at = entries.findIndex(matches);
    if (at < 0) throw absent();
    const entry = entries[at].value!;
    const entryEnd = tokenEndBeforeTrailing(text, entry);
    if (entries.length === 1) return splice(text, v.start.offset + 1, v.end.find((t) => t.type === "flow-seq-end")!.offset, "");
    if (at === 0) {
      // Up to the next entry, so its separator goes with this one.
      const next = entries[1].value!;
      return splice(text, entry.offset, next.offset, "");
    }
    const prev = entries[at - 1].value!;
    return splice(text, tokenEndBeforeTrailing(text, prev), entryEnd, "");
  }
  throw absent();
}

/** The read-back check: the edited field changed as asked, every other field reads as before. */
function checkResult(before: string, after: string, edit: FieldEdit): void {
  const a = parseYaml(before);
  const b = parseYaml(after);
  if (!a.ok || !(a.value instanceof Map)) return;
  if (!b.ok || !(b.value instanceof Map)) {
    throw new RecordEditError(`the edit of ${edit.field} would leave a record that does not parse; edit it by hand`);
  }
  const keys = new Set([...a.value.keys(), ...b.value.keys()]);
  for (const k of keys) {
    if (k === edit.field) continue;
    if (!same(a.value.get(k), b.value.get(k))) {
      throw new RecordEditError(`the edit of ${edit.field} would also change ${k}; edit it by hand`);
    }
  }
  const was = a.value.get(edit.field);
  const now = b.value.get(edit.field);
  const list = (v: YamlValue | undefined) => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);
  let expected: YamlValue | undefined;
  if (edit.op === "set") expected = edit.value;
  else if (edit.op === "unset") expected = undefined;
  else if (edit.op === "add") expected = [...list(was), edit.value];
  else {
    const l = [...list(was)];
    l.splice(l.indexOf(edit.value), 1);
    expected = l;
  }
  if (!same(now, expected)) {
    throw new RecordEditError(`the edit of ${edit.field} does not read back as asked; edit it by hand`);
  }
}
