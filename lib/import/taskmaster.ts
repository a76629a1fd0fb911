import { idProblem } from "../repo/write";
import { DropCounter, entriesOf, firstOfEach, proseOf, skipBadId } from "./common";
import { isObject, parseBoundedJson } from "./limits";
import type { ImportIssue, ImportMilestone, ParseOptions, ParsedSource, Skip, SourceFiles } from "./shapes";

// Task Master: `.taskmaster/tasks/tasks.json`, tagged (`{"<tag>": {"tasks": […], "metadata": {…}}}`)
// or legacy (`{"tasks": […]}`). The format is read from eyaltoledano/claude-task-master: its own
// .taskmaster/tasks/tasks.json (task and subtask fields) and scripts/modules/dependency-manager.js
// (a subtask's numeric dependency names a sibling subtask, `"3.2"` a subtask of task 3).

export const TASKMASTER_PREFIX = "TM";
const KEPT = new Set(["id", "title", "description", "details", "testStrategy", "status", "dependencies", "priority", "subtasks", "acceptanceCriteria"]);
const PRIORITY = new Map([["critical", "p0"], ["high", "p1"], ["medium", "p2"], ["low", "p3"]]);

interface Tag {
  name: string;
  tasks: unknown[];
  metadata?: Record<string, unknown>;
}

function tagsOf(value: unknown): Tag[] | undefined {
  if (!isObject(value)) return undefined;
  if (Array.isArray(value.tasks)) return [{ name: "master", tasks: value.tasks, metadata: isObject(value.metadata) ? value.metadata : undefined }];
  const tags: Tag[] = [];
  for (const [name, tag] of Object.entries(value)) {
    if (isObject(tag) && Array.isArray(tag.tasks)) tags.push({ name, tasks: tag.tasks, metadata: isObject(tag.metadata) ? tag.metadata : undefined });
  }
  return tags.length > 0 ? tags : undefined;
}

export function parseTaskmaster(files: SourceFiles, options: ParseOptions): ParsedSource {
  const skipped: Skip[] = [];
  const dropped = new DropCounter();
  const prefix = options.prefix ?? TASKMASTER_PREFIX;
  const milestones: ImportMilestone[] = [];
  const issues: ImportIssue[] = [];
  let read = 0;
  for (const [name, text] of Object.entries(files)) {
    const parsed = parseBoundedJson(text, options.limits);
    if ("problem" in parsed) {
      read++;
      skipped.push({ id: name, why: `not read: ${parsed.problem}` });
      continue;
    }
    const tags = tagsOf(parsed.value);
    if (!tags) {
      read++;
      skipped.push({ id: name, why: 'not a Task Master tasks file: neither {"tasks": […]} nor {"<tag>": {"tasks": […]}}' });
      continue;
    }
    for (const tag of tags) {
      // Task ids are per tag; the master tag keeps `TM-<id>`, another tag's ids carry its name.
      const base = tag.name === "master" || tags.length === 1 ? prefix : `${prefix}-${tag.name}`;
      const milestone = tag.name;
      const tagProblem = idProblem(milestone);
      if (tagProblem) {
        read += tag.tasks.length;
        for (let i = 0; i < tag.tasks.length; i++) skipped.push({ id: `${tag.name}[${i}]`, why: `its tag cannot name a milestone (${tagProblem})` });
        continue;
      }
      if (tag.metadata) dropped.unkept(tag.metadata, new Set(["description"]), "tag metadata");
      milestones.push({
        id: milestone,
        sourceId: tag.name,
        title: proseOf(tag.metadata?.description) ?? `Task Master tag ${tag.name}`,
        priority: "p2",
        acceptance_criteria: [],
        depends_on: [],
      });
      const idOf = (task: string | number) => `${base}-${task}`;
      const found: ImportIssue[] = [];
      tag.tasks.forEach((task, index) => {
        read++;
        if (read > options.limits.records) return void skipped.push({ id: `${tag.name}[${index}]`, why: `past the ${options.limits.records} records an import reads of one source` });
        const made = taskOf(task, `${tag.name}[${index}]`, undefined, idOf, milestone, skipped, dropped, options.now);
        if (!made) return;
        found.push(made);
        const subtasks = isObject(task) && Array.isArray(task.subtasks) ? task.subtasks : [];
        subtasks.forEach((sub, n) => {
          read++;
          if (read > options.limits.records) return void skipped.push({ id: `${made.sourceId}.subtasks[${n}]`, why: `past the ${options.limits.records} records an import reads of one source` });
          const child = taskOf(sub, `${made.sourceId}.subtasks[${n}]`, made.sourceId, idOf, milestone, skipped, dropped, options.now);
          if (child) found.push(child);
        });
      });
      issues.push(...firstOfEach(found, (i) => `tag ${tag.name}, task ${i.sourceId}`, skipped));
    }
  }
  return { milestones, issues, skipped, dropped: dropped.list(), read };
}

const idText = (v: unknown): string | undefined => (typeof v === "number" && Number.isInteger(v) ? String(v) : typeof v === "string" && /^\d+(\.\d+)?$/.test(v.trim()) ? v.trim() : undefined);

function taskOf(
  task: unknown,
  where: string,
  parent: string | undefined,
  idOf: (id: string) => string,
  milestone: string,
  skipped: Skip[],
  dropped: DropCounter,
  now: string,
): ImportIssue | undefined {
  const own = isObject(task) ? idText(task.id) : undefined;
  if (!isObject(task) || own === undefined || (parent !== undefined && own.includes("."))) {
    skipped.push({ id: where, why: "not a Task Master task (an object with a numeric id)" });
    return undefined;
  }
  const sourceId = parent === undefined ? own : `${parent}.${own}`;
  const id = idOf(sourceId);
  const problem = idProblem(id);
  if (problem) {
    skipBadId(skipped, id, problem);
    return undefined;
  }
  if (typeof task.title !== "string" || task.title.trim() === "") {
    skipped.push({ id, why: `task ${sourceId} has no title` });
    return undefined;
  }
  dropped.unkept(task, KEPT, parent === undefined ? "task" : "subtask");
  const depends_on: string[] = [];
  for (const d of Array.isArray(task.dependencies) ? task.dependencies : []) {
    // dependency-manager.js: within a subtask a number is a sibling; "3.2" is subtask 2 of task 3.
    if (parent !== undefined && typeof d === "number") depends_on.push(idOf(`${parent}.${d}`));
    else {
      const text = idText(d);
      if (text !== undefined) depends_on.push(idOf(text));
      else dropped.add("dependencies that are not task ids", "a dependency names a task by its number");
    }
  }
  const status = typeof task.status === "string" && task.status !== "" ? task.status : "pending";
  const record: ImportIssue = {
    id,
    sourceId,
    sourceStatus: status,
    milestone,
    title: task.title.trim(),
    priority: (typeof task.priority === "string" ? PRIORITY.get(task.priority.toLowerCase()) : undefined) ?? "p2",
    objective: proseOf(task.description),
    desired_state: proseOf(task.details),
    depends_on,
    acceptance_criteria: entriesOf(task.acceptanceCriteria),
    validation: proseOf(task.testStrategy) ? [proseOf(task.testStrategy)!] : [],
    evidence_required: [],
  };
  // Task Master keeps no times: a stamp it implies is the time of the import.
  if (status === "done") record.completed_at = now;
  else if (status === "in-progress" || status === "review") record.started_at = now;
  else if (status === "cancelled") record.cancelled = true;
  else if (status === "deferred") dropped.add("status deferred", "the plan has no deferred; imported with no stamp, so the derivation decides READY or BLOCKED");
  else if (status !== "pending" && status !== "blocked") dropped.add(`status ${status}`, "not a Task Master status the plan maps; imported with no stamp");
  return record;
}
