import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { importPlan } from "@/lib/import/import";
import { LIMITS, MAX_FILE_BYTES, MAX_FILES, MAX_FOLDER_DEPTH, MAX_JSON_DEPTH, MAX_RECORDS, MAX_RECORD_BYTES, MAX_SOURCE_BYTES, type ImportLimits } from "@/lib/import/limits";
import { readSource } from "@/lib/import/read-source";
import type { ImportFormat, SourceFiles } from "@/lib/import/shapes";
import { loadPlan } from "@/lib/repo";
import { newRepo, removeTempDirs } from "../support/history";

// The bounds a source is read within (lib/import/limits.ts), each crossed by a source just past it.
// The bounds are tens of MiB and tens of thousands of records: the tests give the readers smaller
// ones (the same code, the limit injected) rather than write sources of that size.

const folders: string[] = [];
afterAll(() => {
  for (const f of folders) rmSync(f, { recursive: true, force: true });
  removeTempDirs();
});

const small = (over: Partial<ImportLimits>): ImportLimits => ({ ...LIMITS, ...over });

/** A source of `n` well-formed records (issues or tasks) in each format's own shape. */
const SOURCE: Record<ImportFormat, (n: number) => SourceFiles> = {
  beads: (n) => ({ "issues.jsonl": Array.from({ length: n }, (_, k) => JSON.stringify({ id: `b-${k + 1}`, title: `Issue ${k + 1}`, status: "open", issue_type: "task" })).join("\n") }),
  backlog: (n) =>
    Object.fromEntries(Array.from({ length: n }, (_, k) => [`tasks/task-${k + 1} - T.md`, `---\nid: task-${k + 1}\ntitle: Task ${k + 1}\nstatus: To Do\n---\n`])),
  taskmaster: (n) => ({ "tasks.json": JSON.stringify({ master: { tasks: Array.from({ length: n }, (_, k) => ({ id: k + 1, title: `Task ${k + 1}`, status: "pending", dependencies: [] })) } }) }),
  github: (n) => ({ "issues.json": JSON.stringify(Array.from({ length: n }, (_, k) => ({ number: k + 1, title: `Issue ${k + 1}`, state: "OPEN" }))) }),
};

describe("the bounds are what docs/import.md says", () => {
  it("64 MiB a source, 32 MiB a file, 20,000 files, 50,000 records, 1 MiB a record, 64 deep in JSON, 8 folders deep", () => {
    expect(LIMITS).toEqual({ sourceBytes: MAX_SOURCE_BYTES, fileBytes: MAX_FILE_BYTES, files: MAX_FILES, records: MAX_RECORDS, recordBytes: MAX_RECORD_BYTES, jsonDepth: MAX_JSON_DEPTH, folderDepth: MAX_FOLDER_DEPTH });
    expect([MAX_SOURCE_BYTES, MAX_FILE_BYTES, MAX_FILES, MAX_RECORDS, MAX_RECORD_BYTES, MAX_JSON_DEPTH, MAX_FOLDER_DEPTH]).toEqual([64 * 1024 * 1024, 32 * 1024 * 1024, 20_000, 50_000, 1024 * 1024, 64, 8]);
  });
});

describe.each(Object.keys(SOURCE) as ImportFormat[])("%s past a bound", (format) => {
  it("past the count of records: the records beyond it are named skips, the ones within imported", async () => {
    const repo = newRepo();
    const r = await importPlan(repo, { format, source: "s", files: SOURCE[format](3) }, { limits: { records: 2 } });
    expect(r.created.issues).toHaveLength(2);
    expect(r.skipped).toEqual([{ id: expect.any(String), why: "past the 2 records an import reads of one source" }]);
    expect(r.created.issues.length + r.skipped.length).toBe(3);
  });

  it("just within the count of records: every record imported", async () => {
    const r = await importPlan(newRepo(), { format, source: "s", files: SOURCE[format](3) }, { limits: { records: 3 } });
    expect([r.created.issues.length, r.skipped]).toEqual([3, []]);
  });

  it("past the bytes of one file, of the whole source, or its count of files: refused before anything is written, naming the bound", async () => {
    const repo = newRepo();
    const files = SOURCE[format](3);
    const bytes = Object.values(files).reduce((n, t) => n + Buffer.byteLength(t), 0);
    const largest = Math.max(...Object.values(files).map((t) => Buffer.byteLength(t)));
    await expect(importPlan(repo, { format, source: "s", files }, { limits: { fileBytes: largest - 1 } })).rejects.toThrow(`more than the ${largest - 1} an import reads of one file`);
    await expect(importPlan(repo, { format, source: "s", files }, { limits: { sourceBytes: bytes - 1 } })).rejects.toThrow(`the source is ${bytes} bytes, more than the ${bytes - 1} an import reads`);
    const count = Object.keys(files).length;
    await expect(importPlan(repo, { format, source: "s", files }, { limits: { files: count - 1 } })).rejects.toThrow(`the source holds ${count} files, more than the ${count - 1} an import reads`);
    expect(loadPlan(repo).issues).toEqual([]);
    // At the bounds exactly, the same source imports.
    const at = await importPlan(repo, { format, source: "s", files }, { limits: { fileBytes: largest, sourceBytes: bytes, files: count } });
    expect(at.created.issues).toHaveLength(3);
  });
});

describe("one record past its bound, or malformed: a named skip, the rest imported", () => {
  it("beads: a line over the bytes of a record (counted in UTF-8 bytes, not characters)", async () => {
    const wide = JSON.stringify({ id: "b-2", title: "ü".repeat(100), status: "open", issue_type: "task" });
    expect(wide.length).toBeLessThan(200);
    const r = await importPlan(newRepo(), { format: "beads", source: "s", files: { "x.jsonl": [SOURCE.beads(1)["issues.jsonl"], wide, '{"id":"b-3","title":"fine"}'].join("\n") } }, { limits: { recordBytes: 200 } });
    expect(r.created.issues).toEqual(["b-1", "b-3"]);
    expect(r.skipped).toEqual([{ id: "x.jsonl:2", why: `the line is ${Buffer.byteLength(wide)} bytes, more than the 200 an import reads of one record` }]);
  });

  it("backlog: a task file over the bytes of a record, and one whose front matter does not parse", async () => {
    const files = { ...SOURCE.backlog(2), "tasks/task-3 - Long.md": `---\nid: task-3\ntitle: Long\n---\n\n${"x".repeat(300)}\n`, "tasks/task-4 - Bad.md": "---\nid: task-4\ntitle: [unclosed\n---\n" };
    const r = await importPlan(newRepo(), { format: "backlog", source: "s", files }, { limits: { recordBytes: 200 } });
    expect(r.created.issues).toEqual(["task-1", "task-2"]);
    expect(r.skipped).toEqual([
      { id: "tasks/task-3 - Long.md", why: expect.stringMatching(/^the file is \d+ bytes, more than the 200 an import reads of one record$/) },
      { id: "tasks/task-4 - Bad.md", why: expect.stringMatching(/does not parse/) },
    ]);
  });

  it("taskmaster and github: a file nesting past the JSON depth is a named skip of that file; the other file is imported", async () => {
    const deep = JSON.stringify({ master: { tasks: [{ id: 1, title: "deep", details: [[[["x"]]]] }] } });
    const t = await importPlan(newRepo(), { format: "taskmaster", source: "s", files: { "a.json": deep, ...SOURCE.taskmaster(1) } }, { limits: { jsonDepth: 6 } });
    expect(t.created.issues).toEqual(["TM-1"]);
    expect(t.skipped).toEqual([{ id: "a.json", why: "not read: it nests 8 deep, more than the 6 an import reads" }]);
    const g = await importPlan(newRepo(), { format: "github", source: "s", files: { "a.json": "[{", ...SOURCE.github(1) } });
    expect(g.created.issues).toEqual(["GH-1"]);
    expect(g.skipped).toEqual([{ id: "a.json", why: expect.stringMatching(/^not read: it is not JSON/) }]);
  });

  it("github: a dependencies file nesting past the JSON depth is named, the issues imported", async () => {
    const r = await importPlan(newRepo(), { format: "github", source: "s", files: SOURCE.github(2), dependencies: JSON.stringify([{ issue: 2, blocked_by: [[[1]]] }]) }, { limits: { jsonDepth: 3 } });
    expect(r.created.issues).toEqual(["GH-1", "GH-2"]);
    expect(r.skipped).toEqual([{ id: "--dependencies", why: "not read: it nests 5 deep, more than the 3 an import reads" }]);
    await expect(importPlan(newRepo(), { format: "github", source: "s", files: SOURCE.github(1), dependencies: "[]  " }, { limits: { fileBytes: 3 } })).rejects.toThrow(
      "the dependencies file is more than the 3 bytes an import reads of one file",
    );
  });
});

describe("reading a source from disk within the bounds", () => {
  const folder = () => {
    const f = mkdtempSync(join(tmpdir(), "cockpit-import-bounds-"));
    folders.push(f);
    return f;
  };
  /** A Backlog.md folder of `n` task files. */
  const backlog = (n: number) => {
    const root = join(folder(), "backlog");
    mkdirSync(join(root, "tasks"), { recursive: true });
    writeFileSync(join(root, "config.yml"), 'task_prefix: "task"\n');
    for (const [path, text] of Object.entries(SOURCE.backlog(n))) writeFileSync(join(root, path), text);
    return root;
  };

  it("a file past the bytes of one file is refused, naming it; at the bound it is read", () => {
    const path = join(folder(), "issues.jsonl");
    writeFileSync(path, "x".repeat(100));
    expect(() => readSource("beads", path, small({ fileBytes: 99 }))).toThrow(`${path} is 100 bytes, more than the 99 an import reads of one file`);
    expect(readSource("beads", path, small({ fileBytes: 100 }))).toEqual({ "issues.jsonl": "x".repeat(100) });
  });

  it("a Backlog.md folder past the count of files, or the bytes of the source, is refused", () => {
    const root = backlog(3);
    expect(Object.keys(readSource("backlog", root, small({ files: 4 })))).toHaveLength(4);
    expect(() => readSource("backlog", root, small({ files: 3 }))).toThrow(`${root} holds more than the 3 files an import reads`);
    expect(() => readSource("backlog", root, small({ sourceBytes: 100 }))).toThrow(`${root} holds more than the 100 bytes an import reads`);
  });

  it("a Backlog.md folder nesting past the depth is refused; docs/ and decisions/, which the import does not read, are not walked", () => {
    const root = backlog(1);
    const deepDocs = join(root, "docs", "a", "b", "c");
    mkdirSync(deepDocs, { recursive: true });
    writeFileSync(join(deepDocs, "doc-1.md"), "# a document\n");
    mkdirSync(join(root, "decisions"));
    writeFileSync(join(root, "decisions", "decision-1.md"), "---\nid: decision-1\n---\n");
    expect(Object.keys(readSource("backlog", root, small({ folderDepth: 2 }))).sort()).toEqual(["config.yml", "tasks/task-1 - T.md"]);
    mkdirSync(join(root, "tasks", "a", "b"), { recursive: true });
    expect(() => readSource("backlog", root, small({ folderDepth: 2 }))).toThrow(`${join(root, "tasks", "a", "b")} is more than 2 folders deep; a Backlog.md folder is not`);
    expect(Object.keys(readSource("backlog", root, small({ folderDepth: 3 })))).toHaveLength(2);
  });

  it("a link inside the folder is not followed, and a link given as the source is refused", () => {
    const root = backlog(1);
    const outside = join(folder(), "secret.md");
    writeFileSync(outside, "---\nid: task-9\ntitle: outside\n---\n");
    symlinkSync(outside, join(root, "tasks", "task-9 - Link.md"));
    expect(Object.keys(readSource("backlog", root)).sort()).toEqual(["config.yml", "tasks/task-1 - T.md"]);
    const link = join(folder(), "issues.jsonl");
    symlinkSync(outside, link);
    expect(() => readSource("beads", link)).toThrow(/is a link/);
  });
});
