import { cpSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { importPlan, type ImportRequest } from "@/lib/import/import";
import { readSource } from "@/lib/import/read-source";
import type { ImportFormat, ImportResult } from "@/lib/import/shapes";
import { ISSUES_DIR, LEDGER_FILE, MILESTONES_DIR } from "@/lib/plan/constants";
import { loadPlan } from "@/lib/repo";
import { sealOf } from "@/lib/plan/seal";
import { hashRepo } from "../surfaces/helpers";
import { newRepo, removeTempDirs } from "../support/history";

// plan.import over real repositories: each format's fixture (in the tool's own format, with its
// warts) imported, the written records read back by the loader, and the answer checked against it.

const FIXTURES = join(__dirname, "..", "fixtures", "import");
const CORPUS = join(__dirname, "..", "fixtures", "majordomus");
const NOW = "2026-12-02T10:00:00Z";

afterAll(removeTempDirs);

const SOURCES: Record<ImportFormat, { path: string; dependencies?: string }> = {
  beads: { path: join(FIXTURES, "beads", "issues.jsonl") },
  backlog: { path: join(FIXTURES, "backlog") },
  taskmaster: { path: join(FIXTURES, "taskmaster") },
  github: { path: join(FIXTURES, "github", "issues.json"), dependencies: join(FIXTURES, "github", "dependencies.json") },
};

function request(format: ImportFormat, extra: Partial<ImportRequest> = {}): ImportRequest {
  const s = SOURCES[format];
  return {
    format,
    source: format,
    files: readSource(format, s.path),
    ...(s.dependencies ? { dependencies: readFileSync(s.dependencies, "utf8") } : {}),
    ...extra,
  };
}

const run = (repo: string, r: ImportRequest) => importPlan(repo, r, { now: () => NOW });

function ledgerLines(repo: string): Record<string, string>[] {
  try {
    return readFileSync(join(repo, LEDGER_FILE), "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l));
  } catch {
    return [];
  }
}

/** The source's own dependency edges between records the import created, as the test reads the fixture. */
function sourceEdges(format: ImportFormat): [string, string][] {
  if (format === "beads") {
    const edges: [string, string][] = [];
    for (const line of readFileSync(SOURCES.beads.path, "utf8").split("\n")) {
      try {
        const i = JSON.parse(line);
        for (const d of i.dependencies ?? []) if (d.type === "blocks") edges.push([d.issue_id, d.depends_on_id]);
      } catch {
        /* the malformed line */
      }
    }
    return edges;
  }
  if (format === "github") {
    const deps = JSON.parse(readFileSync(SOURCES.github.dependencies!, "utf8")) as { issue: number; blocked_by: number[] }[];
    return deps.flatMap((d) => d.blocked_by.map((b) => [`GH-${d.issue}`, `GH-${b}`] as [string, string]));
  }
  if (format === "taskmaster") {
    const tags = JSON.parse(readFileSync(join(SOURCES.taskmaster.path, ".taskmaster", "tasks", "tasks.json"), "utf8"));
    const edges: [string, string][] = [];
    for (const t of tags.master.tasks) {
      for (const d of t.dependencies ?? []) edges.push([`TM-${t.id}`, `TM-${d}`]);
      for (const s of t.subtasks ?? []) for (const d of s.dependencies ?? []) edges.push([`TM-${t.id}.${s.id}`, typeof d === "number" ? `TM-${t.id}.${d}` : `TM-${d}`]);
    }
    return edges;
  }
  // Backlog.md: BACK-200 names task-208 (the same task as BACK-208) and a task that does not exist.
  return [
    ["BACK-200", "BACK-208"],
    ["back-210", "BACK-200"],
    ["BACK-200.1", "BACK-208"],
  ];
}

/**
 * The source's own records, counted from its files as the tool writes them (never from the parser's
 * `read`), and the ids of those that are milestones (beads epics, Backlog.md milestone files).
 */
function sourceRecords(format: ImportFormat): { count: number; milestones: Set<string> } {
  const milestones = new Set<string>();
  if (format === "beads") {
    const lines = readFileSync(SOURCES.beads.path, "utf8").split("\n").filter((l) => l.trim() !== "");
    for (const line of lines) {
      try {
        const i = JSON.parse(line);
        if (i.issue_type === "epic") milestones.add(i.id);
      } catch {
        /* the malformed line: a record all the same */
      }
    }
    return { count: lines.length, milestones };
  }
  if (format === "backlog") {
    const root = join(SOURCES.backlog.path, "backlog");
    const files = readdirSync(root, { recursive: true, encoding: "utf8" }).filter((p) => p.endsWith(".md"));
    for (const p of files.filter((p) => /^(archive\/)?milestones\//.test(p))) milestones.add(/^id: (.+)$/m.exec(readFileSync(join(root, p), "utf8"))![1]);
    return { count: files.length, milestones };
  }
  if (format === "taskmaster") {
    const tags = JSON.parse(readFileSync(join(SOURCES.taskmaster.path, ".taskmaster", "tasks", "tasks.json"), "utf8")) as Record<string, { tasks: { subtasks?: unknown[] }[] }>;
    return { count: Object.values(tags).reduce((n, t) => n + t.tasks.reduce((k, task) => k + 1 + (task.subtasks?.length ?? 0), 0), 0), milestones };
  }
  return { count: (JSON.parse(readFileSync(SOURCES.github.path, "utf8")) as unknown[]).length, milestones };
}

/** Per format, how each source status derives (the documented mapping), for the fixture's issues. */
const DOCUMENTED: Record<ImportFormat, Record<string, string[]>> = {
  beads: { closed: ["DONE"], in_progress: ["ACTIVE"], open: ["READY", "BLOCKED"], blocked: ["READY", "BLOCKED"], deferred: ["READY", "BLOCKED"] },
  backlog: { "In Progress": ["ACTIVE"], "Done (completed/)": ["DONE"], "To Do": ["READY", "BLOCKED"], "To Do (archive/)": ["CANCELLED"] },
  taskmaster: { done: ["DONE"], "in-progress": ["ACTIVE"], review: ["ACTIVE"], cancelled: ["CANCELLED"], deferred: ["READY", "BLOCKED"], pending: ["READY", "BLOCKED"] },
  github: { CLOSED: ["DONE"], OPEN: ["READY", "BLOCKED"] },
};

describe.each(Object.keys(SOURCES) as ImportFormat[])("importing %s into a new repository", (format) => {
  let repo: string;
  let result: ImportResult;
  it("writes milestone and issue records the loader reads, and answers with them", async () => {
    repo = newRepo(`cockpit-import-${format}-`);
    result = await run(repo, request(format));
    const plan = loadPlan(repo);
    expect(result.created.issues.length).toBeGreaterThan(0);
    expect(plan.issues.map((i) => i.id).sort()).toEqual([...result.created.issues].sort());
    expect(plan.milestones.map((m) => m.id).sort()).toEqual([...result.created.milestones].sort());
    // Every record the import wrote parses: no load finding.
    expect(plan.findings.filter((f) => f.code === "schema" || (f.code as string) === "parse")).toEqual([]);
  });

  it("keeps every source dependency between imported issues as a depends_on edge", () => {
    const plan = loadPlan(repo);
    const ids = new Set(plan.issues.map((i) => i.id));
    const edges = sourceEdges(format).filter(([a, b]) => ids.has(a) && ids.has(b));
    expect(edges.length).toBeGreaterThan(0);
    for (const [from, to] of edges) expect(plan.issues.find((i) => i.id === from)!.depends_on, `${from} → ${to}`).toContain(to);
  });

  it("maps every source status as documented", () => {
    const plan = loadPlan(repo);
    for (const [from, to] of Object.entries(result.mapped)) {
      expect(DOCUMENTED[format][from], `source status ${from}`).toBeDefined();
      for (const status of Object.keys(to)) expect(DOCUMENTED[format][from]).toContain(status);
    }
    const counted = Object.values(result.mapped).reduce((n, row) => n + Object.values(row).reduce((a, b) => a + b, 0), 0);
    expect(counted).toBe(result.created.issues.length);
    // The answer's derived statuses are the plan's.
    for (const i of plan.issues) expect(Object.values(result.mapped).some((row) => (row[i.status] ?? 0) > 0)).toBe(true);
  });

  it("counts every source record once: created (of the source's own records) + skipped = the source's count", () => {
    const source = sourceRecords(format);
    const own = result.created.milestones.filter((id) => source.milestones.has(id)).length;
    expect(result.created.issues.length + own + result.skipped.length).toBe(source.count);
    expect(result.read).toBe(source.count);
  });

  it("seals the stamps it makes, so closed work derives DONE without evidence, and writes one plan_imported line a record", () => {
    const plan = loadPlan(repo);
    expect(plan.findings.filter((f) => f.code === "stamp_without_event")).toEqual([]);
    for (const id of result.created.issues) {
      const text = readFileSync(join(repo, ISSUES_DIR, `${id}.yaml`), "utf8");
      const stamp = /^completed_at: (\S+)$/m.exec(text)?.[1];
      if (stamp) {
        expect(text).toContain(`completed_event: ${sealOf("plan_done", id, stamp)}`);
        expect(plan.issues.find((i) => i.id === id)!.status).toBe("DONE");
      }
      expect(text).toMatch(/^evidence_required: \[\]$/m);
    }
    const lines = ledgerLines(repo);
    expect(lines.filter((l) => l.event === "plan_imported").map((l) => l.record).sort()).toEqual([...result.created.milestones, ...result.created.issues].sort());
    expect(lines.every((l) => l.source === `${format}:${format}` && typeof l.source_id === "string")).toBe(true);
  });

  it("names the findings the records cause exactly as validate gives them", () => {
    expect(result.findings).toEqual(loadPlan(repo).findings);
  });

  it("a second import of the same source creates nothing and says so", async () => {
    const before = hashRepo(repo);
    const again = await run(repo, request(format));
    expect(again.created).toEqual({ milestones: [], issues: [] });
    expect(again.summary).toMatch(/^nothing created/);
    for (const id of result.created.issues) expect(again.skipped).toContainEqual({ id, why: expect.stringMatching(/already in the plan/) });
    expect(hashRepo(repo)).toBe(before);
  });
});

describe("the warts of each format", () => {
  it("beads: epics become milestones keeping their ids, tombstones and a malformed line are named skips, links with no place are dropped", async () => {
    const repo = newRepo();
    const r = await run(repo, request("beads"));
    expect(r.created.milestones).toEqual(["bd-7mh", "bd-hlsw", "bd-7mh.9", "beads"]);
    expect(loadPlan(repo).issues.find((i) => i.id === "bd-7mh.6")).toMatchObject({ milestone: "bd-7mh", status: "ACTIVE", title: "Import the edges back — ünïcödé ✓" });
    expect(r.skipped).toContainEqual({ id: "bd-d148", why: expect.stringMatching(/tombstone/) });
    expect(r.skipped).toContainEqual({ id: "issues.jsonl:9", why: expect.stringMatching(/not JSON/) });
    expect(r.dropped).toContainEqual(expect.objectContaining({ what: "related links", count: 1 }));
    expect(r.dropped).toContainEqual(expect.objectContaining({ what: "discovered-from links", count: 1 }));
    // A sub-epic is a milestone of its own: its link to the epic above it is named, not lost.
    expect(r.dropped).toContainEqual(expect.objectContaining({ what: "parent-child links of an epic to its parent", count: 1 }));
    expect(r.findings).toContainEqual(expect.objectContaining({ code: "empty_milestone", subject: "bd-7mh.9" }));
    // beads takes bd-KWRO and bd-kwro for two issues; their record files are one on macOS or Windows.
    expect(r.skipped).toContainEqual({ id: "bd-KWRO", why: expect.stringMatching(/differs from bd-kwro's only in case.*bd-kwro is kept/) });
    // The dangling dependency and the epic with no children are findings, not refusals.
    expect(r.findings).toContainEqual(expect.objectContaining({ code: "unknown_dependency", subject: "bd-kwro" }));
    expect(r.findings).toContainEqual(expect.objectContaining({ code: "empty_milestone", subject: "bd-hlsw" }));
    const text = readFileSync(join(repo, ISSUES_DIR, "bd-7mh.1.yaml"), "utf8");
    expect(text).toMatch(/^priority: p1$/m);
    expect(text).toMatch(/^owner: yegge$/m);
    expect(text).toContain('acceptance_criteria:\n  - "blocks edges are exported"\n  - "parent-child edges are exported"\n');
  });

  it("backlog: ids as written, dependencies matched across prefix and case, completed, archived, drafts and duplicates", async () => {
    const repo = newRepo();
    const r = await run(repo, request("backlog"));
    const plan = loadPlan(repo);
    const issue = (id: string) => plan.issues.find((i) => i.id === id)!;
    expect(issue("BACK-200")).toMatchObject({ status: "ACTIVE", milestone: "m-1", depends_on: ["BACK-208", "back-199"] });
    expect(issue("BACK-208")).toMatchObject({ status: "DONE", milestone: "m-1" });
    expect(issue("BACK-150")).toMatchObject({ status: "CANCELLED", milestone: "m-0" });
    // archive/milestones/: no longer active in Backlog.md, cancelled in the plan; its tasks still join it.
    expect(plan.milestones.find((m) => m.id === "m-0")).toMatchObject({ status: "CANCELLED", title: "Prototype" });
    expect(plan.milestones.find((m) => m.id === "m-1")?.status).not.toBe("CANCELLED");
    expect(r.dropped).toContainEqual(expect.objectContaining({ what: "milestone.due_date", count: 1 }));
    // A subtask (BACK-200.1, parent_task_id BACK-200) is an issue of its own; the link is named.
    expect(issue("BACK-200.1")).toMatchObject({ milestone: "m-1", depends_on: ["BACK-208"] });
    expect(r.dropped).toContainEqual(expect.objectContaining({ what: "parent_task_id (a subtask's parent)", count: 1 }));
    expect(r.dropped).toContainEqual(expect.objectContaining({ what: "subtasks (a task's list of its subtasks)", count: 1 }));
    expect(r.skipped).toContainEqual({ id: "DRAFT-3", why: expect.stringMatching(/draft/) });
    expect(r.skipped).toContainEqual({ id: "BACK-210", why: expect.stringMatching(/second record with the id BACK-210, which the source takes for back-210 .*Same-id/) });
    expect(r.skipped).toContainEqual({ id: "tasks/back-211 - Broken.md", why: expect.stringMatching(/does not parse/) });
    const text = readFileSync(join(repo, ISSUES_DIR, "BACK-200.yaml"), "utf8");
    expect(text).toContain('acceptance_criteria:\n  - "Every task file is read"\n  - "Drafts are named, not imported"\n');
    expect(text).toContain('validation:\n  - "bun test passes"\n');
    expect(text).toMatch(/^owner: codex$/m);
  });

  it("taskmaster: each tag a milestone, subtasks TM-<id>.<n> with their own dependencies, a legacy file too", async () => {
    const repo = newRepo();
    const r = await run(repo, request("taskmaster", { prefix: "TM" }));
    const plan = loadPlan(repo);
    expect(r.created.milestones).toEqual(["master", "feature-kanban", "experiment"]);
    // A tag with no task is a milestone with no issue: a finding, not a refusal.
    expect(r.findings).toContainEqual(expect.objectContaining({ code: "empty_milestone", subject: "experiment" }));
    expect(plan.issues.find((i) => i.id === "TM-2.2")).toMatchObject({ depends_on: ["TM-2.1", "TM-1"], status: "ACTIVE" });
    expect(plan.issues.find((i) => i.id === "TM-feature-kanban-1")?.milestone).toBe("feature-kanban");
    expect(r.dropped).toContainEqual(expect.objectContaining({ what: "status deferred", count: 1 }));
    expect(r.skipped).toContainEqual({ id: "master[4]", why: expect.stringMatching(/numeric id/) });
    const legacy = newRepo();
    const l = await importPlan(legacy, { format: "taskmaster", source: "tasks.json", files: readSource("taskmaster", join(FIXTURES, "taskmaster-legacy")), prefix: "OLD" });
    expect(l.created).toEqual({ milestones: ["master"], issues: ["OLD-1", "OLD-2"] });
  });

  it("github: milestones by title, the rest in one milestone, CLOSED derives DONE, --dependencies become depends_on", async () => {
    const repo = newRepo();
    const r = await run(repo, request("github", { prefix: "WEB" }));
    const plan = loadPlan(repo);
    expect(r.created.milestones).toEqual(["v1-0-first", "github"]);
    expect(plan.issues.find((i) => i.id === "WEB-7")?.status).toBe("DONE");
    expect(plan.issues.find((i) => i.id === "WEB-12")).toMatchObject({ depends_on: ["WEB-7"], status: "READY" });
    expect(r.findings).toContainEqual(expect.objectContaining({ code: "unknown_dependency", subject: "WEB-15" }));
    expect(r.skipped).toContainEqual({ id: "issues.json[3]", why: expect.stringMatching(/number/) });
  });
});

describe("into an existing plan", () => {
  it("adds records beside the plan's, skips an id it already has without touching it, and names it", async () => {
    const repo = newRepo();
    cpSync(CORPUS, repo, { recursive: true });
    const existing = readdirSync(join(repo, ISSUES_DIR))[0].slice(0, -5);
    const mine = `{"id":"${existing}","title":"would overwrite","status":"open","issue_type":"task"}\n{"id":"bd-new","title":"new","status":"open","issue_type":"task"}\n`;
    const before = readFileSync(join(repo, ISSUES_DIR, `${existing}.yaml`), "utf8");
    const r = await importPlan(repo, { format: "beads", source: "mine.jsonl", files: { "mine.jsonl": mine } });
    expect(r.created.issues).toEqual(["bd-new"]);
    expect(r.skipped).toEqual([{ id: existing, why: expect.stringMatching(/already in the plan.*never overwrites/) }]);
    expect(readFileSync(join(repo, ISSUES_DIR, `${existing}.yaml`), "utf8")).toBe(before);
    // The findings are only the new records': the corpus's own are not repeated.
    expect(r.findings.every((f) => f.subject === "bd-new" || f.subject === "beads")).toBe(true);
  });
});

describe("dry run and malformed input", () => {
  it("a dry run answers the same and writes nothing, byte for byte", async () => {
    const repo = newRepo();
    cpSync(CORPUS, repo, { recursive: true });
    const before = hashRepo(repo);
    const dry = await run(repo, request("beads", { dry_run: true }));
    expect(hashRepo(repo)).toBe(before);
    const real = await run(repo, request("beads"));
    expect({ ...dry, dry_run: false, summary: "" }).toEqual({ ...real, summary: "" });
  });

  it("a malformed line, file or task is a named skip, never an abort of the rest", async () => {
    const repo = newRepo();
    const deep = "[".repeat(200) + "]".repeat(200);
    const r = await importPlan(repo, { format: "beads", source: "x", files: { "x.jsonl": `not json\n${deep}\n42\n{"id":"a/b","title":"t"}\n{"id":"ok-1","title":"fine"}\n` } });
    expect(r.created.issues).toEqual(["ok-1"]);
    expect(r.skipped.map((s) => s.id)).toEqual(["x.jsonl:1", "x.jsonl:2", "x.jsonl:3", "a/b"]);
    expect(r.skipped[1].why).toMatch(/nests 200 deep/);
    const g = await importPlan(repo, { format: "github", source: "g", files: { "g.json": "{" } });
    expect(g).toMatchObject({ created: { issues: [] }, skipped: [{ id: "g.json", why: expect.stringMatching(/not JSON/) }] });
  });

  it("refuses a prefix for a format that keeps its ids, and a source past the bounds", async () => {
    const repo = newRepo();
    await expect(importPlan(repo, { format: "beads", source: "x", files: { x: "" }, prefix: "P" })).rejects.toThrow(/kept as the source writes them/);
    await expect(importPlan(repo, { format: "github", source: "x", files: {} })).rejects.toThrow(/holds no file/);
    await expect(importPlan(repo, { format: "github", source: "x", files: { x: "[]" }, prefix: "G H" })).rejects.toThrow(/not a prefix/);
  });

  it("a text that spans lines reads back exactly, with unicode", async () => {
    const repo = newRepo();
    const description = "Line one — ü\n\n  indented ✓\nlast: with a colon";
    const r = await importPlan(repo, { format: "beads", source: "x", files: { "x.jsonl": JSON.stringify({ id: "u-1", title: "“quoted” title: yes", description, status: "open", issue_type: "task" }) } });
    expect(r.created.issues).toEqual(["u-1"]);
    const text = readFileSync(join(repo, ISSUES_DIR, "u-1.yaml"), "utf8");
    const { parseYaml } = await import("@/lib/plan/yaml");
    const parsed = parseYaml(text);
    expect(parsed.ok && parsed.value instanceof Map && [parsed.value.get("objective"), parsed.value.get("title")]).toEqual([description, "“quoted” title: yes"]);
    writeFileSync(join(repo, "probe"), "");
    expect(readdirSync(join(repo, MILESTONES_DIR))).toEqual(["beads.yaml"]);
  });
});
