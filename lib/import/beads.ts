import { idProblem } from "../repo/write";
import { DropCounter, dateOf, entriesOf, firstOfEach, proseOf, skipBadId, stampOf } from "./common";
import { isObject, parseBoundedJson, recordTooLarge } from "./limits";
import type { ImportIssue, ImportMilestone, ParseOptions, ParsedSource, Skip, SourceFiles } from "./shapes";

// beads: the JSONL `bd export` writes (`.beads/issues.jsonl`), one issue a line. The format is read
// from beads' own types, steveyegge/beads internal/types/types.go (Issue, Dependency, Status,
// IssueType, DependencyType) and its own `.beads/issues.jsonl`.

/** The milestone of the issues no epic holds. */
export const BEADS_MILESTONE = "beads";

const KEPT = new Set([
  "id",
  "title",
  "description",
  "design",
  "acceptance_criteria",
  "notes",
  "status",
  "priority",
  "issue_type",
  "assignee",
  "created_at",
  "updated_at",
  "closed_at",
  "dependencies",
  // A tombstone's own fields: it is skipped, and says so.
  "deleted_at",
  "deleted_by",
  "delete_reason",
  "original_type",
]);

interface Line {
  id: string;
  line: number;
  issue: Record<string, unknown>;
}

interface Edge {
  from: string;
  to: string;
  type: string;
}

const priorityOf = (v: unknown) => (typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= 4 ? `p${v}` : v === undefined ? "p0" : "p2");

export function parseBeads(files: SourceFiles, options: ParseOptions): ParsedSource {
  const skipped: Skip[] = [];
  const dropped = new DropCounter();
  const lines: Line[] = [];
  let read = 0;
  for (const [name, text] of Object.entries(files)) {
    const all = text.split("\n");
    for (let n = 0; n < all.length; n++) {
      const raw = all[n].trim();
      if (raw === "") continue;
      read++;
      const at = `${name}:${n + 1}`;
      if (read > options.limits.records) {
        skipped.push({ id: at, why: `past the ${options.limits.records} records an import reads of one source` });
        continue;
      }
      const large = recordTooLarge(raw, "the line", options.limits);
      if (large) {
        skipped.push({ id: at, why: large });
        continue;
      }
      const parsed = parseBoundedJson(raw, options.limits);
      if ("problem" in parsed) {
        skipped.push({ id: at, why: `the line is not read: ${parsed.problem}` });
        continue;
      }
      const issue = parsed.value;
      if (!isObject(issue) || typeof issue.id !== "string" || issue.id.trim() === "") {
        skipped.push({ id: at, why: "the line is not a beads issue (an object with an id)" });
        continue;
      }
      const problem = idProblem(issue.id);
      if (problem) {
        skipBadId(skipped, issue.id, problem);
        continue;
      }
      if (typeof issue.title !== "string" || issue.title.trim() === "") {
        skipped.push({ id: issue.id, why: "it has no title" });
        continue;
      }
      lines.push({ id: issue.id, line: n + 1, issue });
    }
  }
  const unique = firstOfEach(lines, (l) => `line ${l.line}`, skipped);
  const live: Line[] = [];
  for (const l of unique) {
    if (l.issue.status === "tombstone") {
      const when = typeof l.issue.deleted_at === "string" ? ` ${l.issue.deleted_at}` : "";
      const why = typeof l.issue.delete_reason === "string" && l.issue.delete_reason ? `: ${l.issue.delete_reason}` : "";
      skipped.push({ id: l.id, why: `a tombstone (deleted${when}${why})` });
    } else live.push(l);
  }
  const isEpic = new Set(live.filter((l) => l.issue.issue_type === "epic").map((l) => l.id));
  const edges: Edge[] = [];
  for (const l of live) {
    const deps = l.issue.dependencies;
    if (!Array.isArray(deps)) continue;
    for (const d of deps) {
      if (!isObject(d) || typeof d.depends_on_id !== "string") {
        dropped.add("dependency entries that are not {issue_id, depends_on_id, type}", "not a beads dependency");
        continue;
      }
      const from = typeof d.issue_id === "string" && d.issue_id !== "" ? d.issue_id : l.id;
      edges.push({ from, to: d.depends_on_id, type: typeof d.type === "string" && d.type !== "" ? d.type : "blocks" });
    }
  }
  // The epic that holds an issue: its parent-child parent, followed up to an epic.
  const parentOf = new Map<string, string>();
  for (const e of edges) if (e.type === "parent-child" && !parentOf.has(e.from)) parentOf.set(e.from, e.to);
  for (const l of live) {
    // `bd create --parent` names a child `<parent>.<n>`; an export always lists the link, an older one may not.
    const dotted = /^(.+)\.\d+$/.exec(l.id);
    if (!parentOf.has(l.id) && dotted && isEpic.has(dotted[1])) parentOf.set(l.id, dotted[1]);
  }
  const epicOf = (id: string): string | undefined => {
    let at = parentOf.get(id);
    for (let hops = 0; at !== undefined && hops < 64; hops++) {
      if (isEpic.has(at)) return at;
      at = parentOf.get(at);
    }
    return undefined;
  };
  const blocks = new Map<string, string[]>();
  const milestoneDeps = new Map<string, string[]>();
  for (const e of edges) {
    if (e.type === "blocks") {
      if (isEpic.has(e.from) && isEpic.has(e.to)) push(milestoneDeps, e.from, e.to);
      else if (isEpic.has(e.from) || isEpic.has(e.to)) {
        dropped.add("blocks links between an epic and an issue", "a milestone depends on milestones and an issue on issues; an epic is a milestone here");
      } else push(blocks, e.from, e.to);
    } else if (e.type === "parent-child") {
      // An epic is a milestone, and a milestone has no parent: its own parent-child link has no place.
      if (isEpic.has(e.from)) dropped.add("parent-child links of an epic to its parent", "an epic is a milestone here, and a milestone has no parent; it stays a milestone of its own");
      else if (!isEpic.has(e.to)) dropped.add("parent-child links to a parent that is not an epic", "the child goes to the milestone of the nearest epic above it; the plan has no sub-issues");
    } else {
      dropped.add(`${e.type} links`, e.type === "related" || e.type === "discovered-from" ? "no field of an issue holds a non-blocking link" : "not a link the plan has; only blocks and parent-child are kept");
    }
  }

  const milestones: ImportMilestone[] = [];
  const issues: ImportIssue[] = [];
  let needsDefault = false;
  for (const { id, issue } of live) {
    dropped.unkept(issue, KEPT, "issue");
    if (isEpic.has(id)) {
      if (issue.status === "closed" || issue.status === "in_progress") {
        dropped.add(`epic status ${String(issue.status)}`, "a milestone's status is derived from its issues, not stored");
      }
      if (typeof issue.assignee === "string" && issue.assignee) dropped.add("epic assignee", "a milestone has no owner");
      if (proseOf(issue.notes)) dropped.add("epic notes", "a milestone has no notes field");
      milestones.push({
        id,
        sourceId: id,
        title: String(issue.title),
        priority: priorityOf(issue.priority),
        outcome: proseOf(issue.description),
        desired_state: proseOf(issue.design),
        acceptance_criteria: entriesOf(issue.acceptance_criteria),
        depends_on: milestoneDeps.get(id) ?? [],
        created_at: dateOf(issue.created_at),
      });
      continue;
    }
    const status = typeof issue.status === "string" && issue.status !== "" ? issue.status : "open";
    const epic = epicOf(id);
    if (!epic) needsDefault = true;
    const record: ImportIssue = {
      id,
      sourceId: id,
      sourceStatus: status,
      milestone: epic ?? BEADS_MILESTONE,
      title: String(issue.title),
      priority: priorityOf(issue.priority),
      owner: proseOf(issue.assignee),
      objective: proseOf(issue.description),
      desired_state: proseOf(issue.design),
      current_state: proseOf(issue.notes),
      depends_on: blocks.get(id) ?? [],
      acceptance_criteria: entriesOf(issue.acceptance_criteria),
      validation: [],
      evidence_required: [],
      created_at: dateOf(issue.created_at),
    };
    if (status === "closed") record.completed_at = stampOf(issue.closed_at) ?? stampOf(issue.updated_at) ?? options.now;
    else if (status === "in_progress" || status === "hooked") record.started_at = stampOf(issue.updated_at) ?? options.now;
    else if (status !== "open" && status !== "blocked") {
      dropped.add(`status ${status}`, "the plan has no such status; imported with no stamp, so the derivation decides READY or BLOCKED");
    }
    issues.push(record);
  }
  if (needsDefault && !isEpic.has(BEADS_MILESTONE)) {
    milestones.push({ id: BEADS_MILESTONE, title: "beads: the issues no epic holds", priority: "p2", acceptance_criteria: [], depends_on: [] });
  }
  return { milestones, issues, skipped, dropped: dropped.list(), read };
}

function push(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
