import { slugOf } from "../repo/plan-edit";
import { idProblem } from "../repo/write";
import { parseYaml, type YamlMap, type YamlValue } from "../plan/yaml";
import { DropCounter, dateOf, firstOfEach, proseOf, skipBadId, stampOf } from "./common";
import { recordTooLarge } from "./limits";
import type { ImportIssue, ImportMilestone, ParseOptions, ParsedSource, Skip, SourceFiles } from "./shapes";

// Backlog.md: a `backlog/` folder of Markdown task files with YAML front matter. The format is read
// from MrLesk/Backlog.md: src/markdown/parser.ts (front matter, the `@user` fix-up),
// src/markdown/structured-sections.ts (the AC/DOD/SECTION markers), src/utils/task-path.ts and
// src/utils/prefix-config.ts (how ids match: `task-208` is `TASK-208`, the body compared numerically,
// under config.yml's `task_prefix`), and its own backlog/ folder (config.yml, completed/, milestones/).

// `parent_task_id` and `subtasks` are named on their own (a subtask is an issue of its own here).
const KEPT = new Set(["id", "title", "status", "assignee", "created_date", "updated_date", "milestone", "dependencies", "priority", "parent_task_id", "subtasks"]);
/** A milestone file's front matter as Backlog.md writes it (src/file-system/operations.ts, serializeMilestoneContent). */
const MILESTONE_KEPT = new Set(["id", "title"]);
const PRIORITY = new Map([["high", "p1"], ["medium", "p2"], ["low", "p3"]]);

type Place = "tasks" | "completed" | "archive" | "drafts" | "milestones" | "archived-milestones" | "config" | "other";

/** Which part of a Backlog.md folder a path is in (the folder's own name, `backlog/`, may lead). */
export function placeOf(path: string): Place {
  const parts = path.replace(/\\/g, "/").split("/").filter(Boolean);
  if (parts[0] === "backlog" || parts[0] === ".backlog") parts.shift();
  if (parts.length === 1 && parts[0] === "config.yml") return "config";
  if (!parts[parts.length - 1]?.endsWith(".md")) return "other";
  const [top, sub] = parts;
  if (top === "tasks" || top === "completed" || top === "drafts" || top === "milestones") return top;
  if (top === "archive") return sub === "drafts" ? "drafts" : sub === "milestones" ? "archived-milestones" : "archive";
  return "other";
}

const ORDER: Record<Place, number> = { tasks: 0, completed: 1, archive: 2, drafts: 3, milestones: 4, "archived-milestones": 5, config: 6, other: 7 };

/** Backlog.md's own fix-up before YAML: `assignee: @name` is quoted, `[@a, @b]` too. */
function fixFrontMatter(text: string): string {
  return text
    .split(/\r?\n/)
    .map((line) => {
      const m = /^(\s*(?:assignee|reporter):\s*)(.*)$/.exec(line);
      if (!m) return line;
      const value = m[2].trim();
      const flow = /^\[(.*)\]\s*$/.exec(value);
      if (flow) {
        const items = flow[1].split(",").map((s) => s.trim()).filter(Boolean);
        return `${m[1]}[${items.map((i) => (i.startsWith("@") ? JSON.stringify(i) : i)).join(", ")}]`;
      }
      if (value && !/^["'[-]/.test(value)) return `${m[1]}${JSON.stringify(value)}`;
      return line;
    })
    .join("\n");
}

/** A Markdown file's front matter (a mapping) and its body, or why it is not read. */
function splitFile(text: string): { front: YamlMap; body: string } | { problem: string } {
  const m = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text.replace(/^\uFEFF/, ""));
  if (!m) return { problem: "it has no front matter (--- … ---)" };
  const parsed = parseYaml(fixFrontMatter(m[1]));
  if (!parsed.ok) return { problem: `its front matter does not parse (${parsed.problem.reason})` };
  if (!(parsed.value instanceof Map)) return { problem: "its front matter is not a mapping" };
  return { front: parsed.value, body: text.slice(m[0].length).replace(/\r\n/g, "\n") };
}

const str = (v: YamlValue | undefined): string | undefined => (typeof v === "string" && v.trim() !== "" ? v.trim() : undefined);
const strs = (v: YamlValue | undefined): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === "string" && x.trim() !== "").map((x) => x.trim()) : typeof v === "string" && v.trim() ? [v.trim()] : [];

/** The checklist between a section's markers (`<!-- AC:BEGIN -->`), or, without markers, under its heading. */
function checklist(body: string, heading: string, marker: string): { text: string; checked: boolean }[] {
  const marked = new RegExp(`<!-- ${marker}:BEGIN -->\\s*\\n([\\s\\S]*?)<!-- ${marker}:END -->`, "i").exec(body);
  const block = marked?.[1] ?? new RegExp(`(?:^|\\n)## ${heading}\\s*\\n([\\s\\S]*?)(?=\\n## |$)`, "i").exec(body)?.[1] ?? "";
  const out: { text: string; checked: boolean }[] = [];
  for (const line of block.split("\n")) {
    const item = /^\s*- \[([ xX])\]\s+(?:#\d+\s+)?(.*\S)\s*$/.exec(line);
    if (item) out.push({ text: item[2], checked: item[1] !== " " });
  }
  return out;
}

/** A section's text between its markers (`<!-- SECTION:DESCRIPTION:BEGIN -->`), or under its heading. */
function section(body: string, heading: string, marker: string): string | undefined {
  const marked = new RegExp(`<!-- SECTION:${marker}:BEGIN -->\\s*\\n?([\\s\\S]*?)<!-- SECTION:${marker}:END -->`, "i").exec(body);
  const text = marked?.[1] ?? new RegExp(`(?:^|\\n)## ${heading}\\s*\\n([\\s\\S]*?)(?=\\n## |$)`, "i").exec(body)?.[1];
  return proseOf(text);
}

/** A task id's body under the configured prefix (`task-5.2` → `5.2`), as Backlog.md reads one. */
function idBody(id: string, prefix: string): string | undefined {
  const escaped = prefix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`^(?:${escaped}-)?([0-9]+(?:\\.[0-9]+)*)$`, "i").exec(id.trim())?.[1];
}

/**
 * The key two ids that Backlog.md takes as the same task share: the numeric body under the
 * configured prefix or any other (`task-208` from before a prefix change is `BACK-208`), compared
 * numerically (`task-01` is `TASK-1`); other ids by their lowercased text.
 */
export function taskKey(id: string, prefix: string): string {
  const body = idBody(id, prefix) ?? /^[A-Za-z]+-([0-9]+(?:\.[0-9]+)*)$/.exec(id.trim())?.[1];
  if (body !== undefined) return body.split(".").map((s) => String(Number.parseInt(s, 10))).join(".");
  return `=${id.trim().toLowerCase()}`;
}

interface TaskFile {
  id: string;
  path: string;
  place: Place;
  front: YamlMap;
  body: string;
}

export function parseBacklog(files: SourceFiles, options: ParseOptions): ParsedSource {
  const skipped: Skip[] = [];
  const dropped = new DropCounter();
  let prefix = "task";
  let project = "backlog";
  const paths = Object.keys(files).sort((a, b) => ORDER[placeOf(a)] - ORDER[placeOf(b)] || (a < b ? -1 : a > b ? 1 : 0));
  const config = paths.find((p) => placeOf(p) === "config");
  if (config) {
    const parsed = parseYaml(files[config]);
    if (parsed.ok && parsed.value instanceof Map) {
      prefix = str(parsed.value.get("task_prefix")) ?? prefix;
      project = str(parsed.value.get("project_name")) ?? project;
    } else skipped.push({ id: config, why: "config.yml does not parse; the task prefix is taken as 'task'" });
  }
  let read = 0;
  const tasks: TaskFile[] = [];
  const milestoneFiles: TaskFile[] = [];
  for (const path of paths) {
    const place = placeOf(path);
    if (place === "config" || place === "other") continue;
    read++;
    if (read > options.limits.records) {
      skipped.push({ id: path, why: `past the ${options.limits.records} records an import reads of one source` });
      continue;
    }
    const large = recordTooLarge(files[path], "the file", options.limits);
    if (large) {
      skipped.push({ id: path, why: large });
      continue;
    }
    const split = splitFile(files[path]);
    if ("problem" in split) {
      skipped.push({ id: path, why: `not read: ${split.problem}` });
      continue;
    }
    const id = str(split.front.get("id"));
    if (!id) {
      skipped.push({ id: path, why: "its front matter names no id" });
      continue;
    }
    if (place === "drafts") {
      skipped.push({ id, why: `a draft (${path}); drafts are not part of the plan` });
      continue;
    }
    const problem = idProblem(id);
    if (problem) {
      skipBadId(skipped, id, problem);
      continue;
    }
    (place === "milestones" || place === "archived-milestones" ? milestoneFiles : tasks).push({ id, path, place, front: split.front, body: split.body });
  }

  const milestones: ImportMilestone[] = [];
  const byName = new Map<string, string>();
  for (const m of firstOfEach(milestoneFiles, (f) => f.path, skipped)) {
    dropped.unkept(Object.fromEntries(m.front), MILESTONE_KEPT, "milestone");
    const title = str(m.front.get("title")) ?? m.id;
    milestones.push({
      id: m.id,
      sourceId: m.id,
      title,
      priority: "p2",
      outcome: section(m.body, "Description", "DESCRIPTION") ?? proseOf(m.body),
      acceptance_criteria: [],
      depends_on: [],
      // Backlog.md archives a milestone that is no longer active (archiveMilestone moves its file to
      // archive/milestones/, and only milestones/ is listed as active): the plan's word for it is
      // cancelled, as for an archived task. Its tasks still name it and join it.
      ...(m.place === "archived-milestones" ? { cancelled: true } : {}),
    });
    byName.set(m.id.toLowerCase(), m.id);
    byName.set(title.toLowerCase(), m.id);
  }
  const defaultMilestone = slugOf(project);
  const milestoneFor = (name: string | undefined): string => {
    if (!name) return defaultMilestone;
    const known = byName.get(name.toLowerCase());
    if (known) return known;
    // A milestone named only in tasks: made here, named by its slug.
    const id = idProblem(name) ? slugOf(name) : name;
    byName.set(name.toLowerCase(), id);
    milestones.push({ id, title: name, priority: "p2", acceptance_criteria: [], depends_on: [] });
    return id;
  };

  // Backlog.md takes `back-210` and `BACK-210` for one task: so does the import.
  const unique = firstOfEach(tasks, (t) => t.path, skipped, (t) => taskKey(t.id, prefix));
  const idOfKey = new Map<string, string>();
  for (const t of unique) if (!idOfKey.has(taskKey(t.id, prefix))) idOfKey.set(taskKey(t.id, prefix), t.id);
  const issues: ImportIssue[] = [];
  let usesDefault = false;
  for (const t of unique) {
    const f = t.front;
    const plain: Record<string, unknown> = Object.fromEntries(f);
    dropped.unkept(plain, KEPT, "task");
    if (str(f.get("parent_task_id"))) dropped.add("parent_task_id (a subtask's parent)", "the plan has no sub-issues: a subtask is an issue of its own, with its own milestone and dependencies");
    if (strs(f.get("subtasks")).length > 0) dropped.add("subtasks (a task's list of its subtasks)", "the plan has no sub-issues: each subtask is an issue of its own", strs(f.get("subtasks")).length);
    const title = str(f.get("title"));
    if (!title) {
      skipped.push({ id: t.id, why: `it has no title (${t.path})` });
      continue;
    }
    const status = str(f.get("status")) ?? "";
    const isDone = t.place === "completed" || status.toLowerCase() === "done";
    const owners = strs(f.get("assignee")).map((a) => a.replace(/^@/, ""));
    if (owners.length > 1) dropped.add("assignees past the first", "an issue has one owner", owners.length - 1);
    const criteria = checklist(t.body, "Acceptance Criteria", "AC");
    const checkedCriteria = criteria.filter((c) => c.checked).length;
    if (checkedCriteria > 0) dropped.add("acceptance criteria checked marks", "a criterion is a text; whether it was ticked is not kept", checkedCriteria);
    const done = checklist(t.body, "Definition of Done", "DOD");
    if (/<!-- COMMENTS:BEGIN -->|\n## Comments\s*\n/i.test(t.body)) dropped.add("task comments", "no field of an issue holds a conversation");
    const priorityWord = str(f.get("priority"))?.toLowerCase();
    const milestoneName = str(f.get("milestone"));
    if (!milestoneName) usesDefault = true;
    const record: ImportIssue = {
      id: t.id,
      sourceId: t.id,
      sourceStatus: t.place === "completed" ? `${status || "(none)"} (completed/)` : t.place === "archive" ? `${status || "(none)"} (archive/)` : status || "(none)",
      milestone: milestoneFor(milestoneName),
      title,
      priority: PRIORITY.get(priorityWord ?? "") ?? "p2",
      owner: owners[0],
      objective: section(t.body, "Description", "DESCRIPTION"),
      desired_state: section(t.body, "Implementation Plan", "PLAN"),
      current_state: section(t.body, "Implementation Notes", "NOTES"),
      completion: section(t.body, "Final Summary", "FINAL_SUMMARY"),
      depends_on: strs(f.get("dependencies")).map((d) => idOfKey.get(taskKey(d, prefix)) ?? d),
      acceptance_criteria: criteria.map((c) => c.text),
      validation: done.map((c) => c.text),
      evidence_required: [],
      created_at: dateOf(str(f.get("created_date"))),
    };
    const when = stampOf(str(f.get("updated_date"))) ?? stampOf(str(f.get("created_date"))) ?? options.now;
    if (t.place === "archive") record.cancelled = true;
    else if (isDone) record.completed_at = when;
    else if (status.toLowerCase() === "in progress") record.started_at = when;
    issues.push(record);
  }
  if (usesDefault && !milestones.some((m) => m.id === defaultMilestone)) {
    milestones.push({ id: defaultMilestone, title: `${project}: the tasks with no milestone`, priority: "p2", acceptance_criteria: [], depends_on: [] });
  }
  return { milestones, issues, skipped, dropped: dropped.list(), read };
}
