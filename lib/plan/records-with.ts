import { createHash } from "node:crypto";
import type { EditableKind } from "./edit-fields";
import { issueFromMap, milestoneFromMap, unknownKeys, type PlanRecords } from "./records";
import { compareBytes } from "./text";
import { parseYaml, type YamlMap } from "./yaml";

/** A record's version: the content hash of its file's bytes (16 hex digits of SHA-256). */
export function recordVersion(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex").slice(0, 16);
}

/** The mapping a record's text holds, or why it is not one. */
export function readRecordMap(text: string): { map?: YamlMap; problem?: string } {
  const read = parseYaml(text);
  if (!read.ok) return { problem: `does not parse: ${read.problem.reason}` };
  if (!(read.value instanceof Map)) return { problem: "is not a YAML mapping" };
  return { map: read.value };
}

/**
 * The records as the loader would read them with one file's text replaced (or added): the record
 * is built as the loader builds it, with its schema finding, and kept in file-name order. The text
 * must be a mapping that declares the file's id (edits and new records are checked before).
 */
export function recordsWithText(records: PlanRecords, kind: EditableKind, id: string, text: string): PlanRecords {
  const { map, problem } = readRecordMap(text);
  if (!map) throw new Error(`${id}: the new text ${problem}`);
  const unknown = unknownKeys(kind, map);
  const loadFindings = records.loadFindings.filter((f) => !(f.code === "schema" && f.subject === id));
  if (unknown.length > 0) loadFindings.push({ level: "FAIL", code: "schema", subject: id, message: `unknown keys: ${unknown.join(" ")}` });
  const byName = (a: { id: string }, b: { id: string }) => compareBytes(`${a.id}.yaml`, `${b.id}.yaml`);
  if (kind === "issue") {
    const record = issueFromMap(id, map);
    const issues = records.issues.some((r) => r.id === id)
      ? records.issues.map((r) => (r.id === id ? record : r))
      : [...records.issues, record].sort(byName);
    return { ...records, issues, loadFindings };
  }
  const record = milestoneFromMap(id, map);
  const milestones = records.milestones.some((r) => r.id === id)
    ? records.milestones.map((r) => (r.id === id ? record : r))
    : [...records.milestones, record].sort(byName);
  return { ...records, milestones, loadFindings };
}
