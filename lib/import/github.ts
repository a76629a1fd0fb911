import { slugOf } from "../repo/plan-edit";
import { idProblem } from "../repo/write";
import { DropCounter, dateOf, firstOfEach, proseOf, skipBadId, stampOf } from "./common";
import { isObject, parseBoundedJson, type ImportLimits } from "./limits";
import type { ImportIssue, ImportMilestone, ParseOptions, ParsedSource, Skip, SourceFiles } from "./shapes";

// GitHub Issues: the JSON array `gh issue list --state all --limit 100000 --json
// number,title,body,state,labels,milestone,assignees,createdAt,closedAt` writes. The shapes are
// read from cli/cli: api/queries_issue.go (Issue: State OPEN/CLOSED, Milestone {number, title, …}
// or null, Labels and Assignees as node lists) and api/export_pr.go (ExportData writes the nodes
// themselves: labels [{name, …}], assignees [{login, …}]). Dependencies come from a second file,
// `[{"issue": N, "blocked_by": [N, …]}]`, as GitHub's issue-dependencies API lists them.

export const GITHUB_PREFIX = "GH";
export const GITHUB_MILESTONE = "github";
const KEPT = new Set(["number", "title", "body", "state", "milestone", "assignees", "labels", "createdAt", "closedAt"]);

const numberOf = (v: unknown): number | undefined => (typeof v === "number" && Number.isInteger(v) && v > 0 ? v : undefined);

/** The dependencies file: blocked_by per issue number, and what of it could not be read. */
function readDependencies(text: string | undefined, skipped: Skip[], limits: ImportLimits): Map<number, number[]> {
  const out = new Map<number, number[]>();
  if (text === undefined) return out;
  const parsed = parseBoundedJson(text, limits);
  if ("problem" in parsed || !Array.isArray(parsed.value)) {
    skipped.push({ id: "--dependencies", why: "problem" in parsed ? `not read: ${parsed.problem}` : 'not a list of {"issue": N, "blocked_by": [N, …]}' });
    return out;
  }
  parsed.value.forEach((entry, i) => {
    const issue = isObject(entry) ? numberOf(entry.issue) : undefined;
    if (!isObject(entry) || issue === undefined || !Array.isArray(entry.blocked_by)) {
      skipped.push({ id: `--dependencies[${i}]`, why: 'not {"issue": N, "blocked_by": [N, …]}' });
      return;
    }
    const list = out.get(issue) ?? [];
    for (const b of entry.blocked_by) {
      const n = numberOf(b) ?? (isObject(b) ? numberOf(b.number) : undefined);
      if (n !== undefined) list.push(n);
    }
    out.set(issue, list);
  });
  return out;
}

export function parseGithub(files: SourceFiles, options: ParseOptions): ParsedSource {
  const skipped: Skip[] = [];
  const dropped = new DropCounter();
  const prefix = options.prefix ?? GITHUB_PREFIX;
  const blockedBy = readDependencies(options.dependencies, skipped, options.limits);
  const milestones: ImportMilestone[] = [];
  const milestoneIds = new Map<string, string>();
  const found: (ImportIssue & { at: string })[] = [];
  let read = 0;
  let usesDefault = false;
  for (const [name, text] of Object.entries(files)) {
    const parsed = parseBoundedJson(text, options.limits);
    if ("problem" in parsed || !Array.isArray(parsed.value)) {
      read++;
      skipped.push({ id: name, why: "problem" in parsed ? `not read: ${parsed.problem}` : "not the JSON list gh issue list --json writes" });
      continue;
    }
    parsed.value.forEach((issue, i) => {
      read++;
      const at = `${name}[${i}]`;
      if (read > options.limits.records) return void skipped.push({ id: at, why: `past the ${options.limits.records} records an import reads of one source` });
      const number = isObject(issue) ? numberOf(issue.number) : undefined;
      if (!isObject(issue) || number === undefined) return void skipped.push({ id: at, why: "not a GitHub issue (an object with a number)" });
      const id = `${prefix}-${number}`;
      const problem = idProblem(id);
      if (problem) return void skipBadId(skipped, id, problem);
      if (typeof issue.title !== "string" || issue.title.trim() === "") return void skipped.push({ id, why: `#${number} has no title` });
      dropped.unkept(issue, KEPT, "issue");
      let milestone = GITHUB_MILESTONE;
      if (isObject(issue.milestone) && typeof issue.milestone.title === "string" && issue.milestone.title.trim()) {
        const title = issue.milestone.title.trim();
        const key = String(numberOf(issue.milestone.number) ?? title);
        let mid = milestoneIds.get(key);
        if (!mid) {
          mid = slugOf(title);
          if (milestones.some((m) => m.id === mid) || mid === GITHUB_MILESTONE) mid = `${mid}-${key}`;
          milestoneIds.set(key, mid);
          if (proseOf(issue.milestone.dueOn)) dropped.add("milestone.dueOn", "a milestone has no due date");
          milestones.push({ id: mid, title, priority: "p2", outcome: proseOf(issue.milestone.description), acceptance_criteria: [], depends_on: [] });
        }
        milestone = mid;
      } else usesDefault = true;
      const logins = (Array.isArray(issue.assignees) ? issue.assignees : []).map((a) => (isObject(a) && typeof a.login === "string" ? a.login : undefined)).filter((l): l is string => !!l);
      if (logins.length > 1) dropped.add("assignees past the first", "an issue has one owner", logins.length - 1);
      const labels = Array.isArray(issue.labels) ? issue.labels.length : 0;
      if (labels > 0) dropped.add("labels", "an issue has no labels; its milestone and priority are what the plan keeps", labels);
      const state = typeof issue.state === "string" ? issue.state.toUpperCase() : "OPEN";
      const record: ImportIssue & { at: string } = {
        at,
        id,
        sourceId: `#${number}`,
        sourceStatus: state,
        milestone,
        title: issue.title.trim(),
        priority: "p2",
        owner: logins[0],
        objective: proseOf(issue.body),
        depends_on: (blockedBy.get(number) ?? []).map((n) => `${prefix}-${n}`),
        acceptance_criteria: [],
        validation: [],
        evidence_required: [],
        created_at: dateOf(issue.createdAt),
      };
      if (state === "CLOSED") record.completed_at = stampOf(issue.closedAt) ?? options.now;
      found.push(record);
    });
  }
  if (usesDefault) milestones.push({ id: GITHUB_MILESTONE, title: "GitHub issues with no milestone", priority: "p2", acceptance_criteria: [], depends_on: [] });
  const issues = firstOfEach(found, (i) => i.at, skipped).map(({ at: _at, ...rest }) => rest);
  return { milestones, issues, skipped, dropped: dropped.list(), read };
}
