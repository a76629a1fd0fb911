// Byte-exact edits on a real corpus (tests/fixtures/majordomus, copied to a temporary folder): one
// field of every record is edited, one edit at a time, and the file is diffed line by line. Only
// the lines of the edited field may change; every other byte stays. The records that do not parse
// are refused with a reason, never rewritten.

import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { SCHEMA_ORDER, type EditableKind } from "@/lib/plan/edit-fields";
import { RecordEditError, editRecordText, type FieldEdit } from "@/lib/plan/record-edit";
import { parseYaml, type YamlMap } from "@/lib/plan/yaml";

const FIXTURE = fileURLToPath(new URL("../fixtures/majordomus", import.meta.url));
const copy = mkdtempSync(join(tmpdir(), "cockpit-edit-corpus-"));
cpSync(FIXTURE, copy, { recursive: true });
afterAll(() => rmSync(copy, { recursive: true, force: true }));

const FOLDERS: [EditableKind, string][] = [
  ["issue", ".ai/repo/project/issues"],
  ["milestone", ".ai/repo/project/milestones"],
];

function records(): { kind: EditableKind; path: string }[] {
  return FOLDERS.flatMap(([kind, dir]) =>
    readdirSync(join(copy, dir))
      .filter((n) => n.endsWith(".yaml"))
      .sort()
      .map((n) => ({ kind, path: join(copy, dir, n) })),
  );
}

const lines = (t: string) => t.split("\n");

/** The line range [from, to) of top-level `field` in the text (the key line to the next top-level line). */
function fieldLines(text: string, field: string): [number, number] | undefined {
  const ls = lines(text);
  const from = ls.findIndex((l) => l.startsWith(`${field}:`));
  if (from < 0) return undefined;
  let to = from + 1;
  while (to < ls.length && (ls[to].startsWith(" ") || ls[to].startsWith("-") || ls[to] === "")) to++;
  while (to > from + 1 && ls[to - 1] === "") to--;
  return [from, to];
}

/** The changed lines: [start, endBefore) in `a` and [start, endAfter) in `b`, after the common prefix and suffix. */
function changedRegion(a: string, b: string): { start: number; endA: number; endB: number } {
  const la = lines(a);
  const lb = lines(b);
  let start = 0;
  while (start < la.length && start < lb.length && la[start] === lb[start]) start++;
  let endA = la.length;
  let endB = lb.length;
  while (endA > start && endB > start && la[endA - 1] === lb[endB - 1]) {
    endA--;
    endB--;
  }
  return { start, endA, endB };
}

function within(region: [number, number], range: [number, number] | undefined): boolean {
  if (region[0] === region[1]) return true;
  return range !== undefined && region[0] >= range[0] && region[1] <= range[1];
}

/** The edits tried on each record: a scalar set, a list add and remove, an unset, a new key. */
function editsFor(kind: EditableKind, map: YamlMap): FieldEdit[] {
  const edits: FieldEdit[] = [{ op: "set", field: "title", value: `${String(map.get("title") ?? "")} (edited: "quoted", #not a comment)` }];
  edits.push({ op: "set", field: "priority", value: map.get("priority") === "p2" ? "p3" : "p2" });
  edits.push({ op: "add", field: "depends_on", value: kind === "issue" ? "I9999" : "m-new" });
  const deps = map.get("depends_on");
  if (Array.isArray(deps) && typeof deps[0] === "string") edits.push({ op: "remove", field: "depends_on", value: deps[0] });
  const scope = map.get("scope");
  if (Array.isArray(scope) && typeof scope[scope.length - 1] === "string") edits.push({ op: "remove", field: "scope", value: scope[scope.length - 1] as string });
  edits.push({ op: "add", field: "scope", value: "src/new: path" });
  if (map.has("risk")) edits.push({ op: "unset", field: "risk" });
  if (!map.has("owner") && kind === "issue") edits.push({ op: "set", field: "owner", value: "lead" });
  if (!map.has("version") && kind === "milestone") edits.push({ op: "set", field: "version", value: "1.0" });
  return edits;
}

describe("format-preserving edits on the real corpus", () => {
  const all = records();
  const parseable = all.filter((r) => parseYaml(readFileSync(r.path, "utf8")).ok);

  it("finds every record of the corpus (333 issues, 65 milestones), six of which do not parse", () => {
    expect(all.length).toBe(398);
    expect(all.length - parseable.length).toBe(6);
  });

  it("refuses to edit the six records that do not parse, saying so, and leaves them untouched", () => {
    for (const r of all.filter((x) => !parseable.includes(x))) {
      const before = readFileSync(r.path, "utf8");
      expect(() => editRecordText(before, { op: "set", field: "title", value: "x" }, SCHEMA_ORDER[r.kind])).toThrow(RecordEditError);
      expect(() => editRecordText(before, { op: "set", field: "title", value: "x" })).toThrow(/does not parse.*fix the file by hand/);
      expect(readFileSync(r.path, "utf8")).toBe(before);
    }
  });

  it("changes only the edited field's lines of every record, one edit at a time, on disk", () => {
    let edits = 0;
    for (const r of parseable) {
      const original = readFileSync(r.path, "utf8");
      const map = (parseYaml(original) as { ok: true; value: YamlMap }).value;
      for (const edit of editsFor(r.kind, map)) {
        const after = editRecordText(original, edit, SCHEMA_ORDER[r.kind]);
        writeFileSync(r.path, after);
        const written = readFileSync(r.path, "utf8");
        const { start, endA, endB } = changedRegion(original, written);
        const where = `${r.path.slice(copy.length)} ${JSON.stringify(edit)}`;
        expect(endA > start || endB > start, where).toBe(true);
        expect(within([start, endA], fieldLines(original, edit.field)), where).toBe(true);
        expect(within([start, endB], fieldLines(written, edit.field)), where).toBe(true);
        // Every other field reads exactly as before.
        const now = (parseYaml(written) as { ok: true; value: YamlMap }).value;
        for (const [k, v] of map) if (k !== edit.field) expect(JSON.stringify(now.get(k) ?? null), `${where} ${k}`).toBe(JSON.stringify(v));
        expect(written.endsWith("\n")).toBe(original.endsWith("\n"));
        writeFileSync(r.path, original);
        edits++;
      }
    }
    expect(edits).toBeGreaterThan(parseable.length * 4);
  });
});
