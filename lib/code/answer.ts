import { defaultBranch } from "../config";
import { notFound } from "../plan/errors";
import type { Plan } from "../plan/shapes";
import { processWide } from "../process-wide";
import { type IssueLinks, LinkMemory, codeFindings, linkIssues, refsFinding } from "./links";
import type { CommitGraph } from "./links";
import { readCommitGraph } from "./read-graph";
import type { CodeFinding, IssueCode, PlanCode } from "./shapes";

// plan.code's answers: the graph read from git, the links derived from it and the plan's issues.

export interface CodeQuestion {
  id?: string;
  /** The branch merges are measured on (else COCKPIT_DEFAULT_BRANCH, origin/HEAD's branch, HEAD's branch). */
  default_branch?: string;
  /** Days without a stamp or a commit before an ACTIVE issue is stalled (default 3). */
  stale_days?: number;
}

export const DEFAULT_STALE_DAYS = 3;
const NOT_GIT = "this folder is not a git repository, so there is no code to link: the answer is empty";

interface Derived {
  defaultBranch: string | null;
  links: Map<string, IssueLinks>;
  findings: Map<string, CodeFinding[]>;
  /** What holds for the repository as a whole (refs read only in part): in every answer. */
  repoFindings: CodeFinding[];
  note?: string;
}

/** Each repository's derivation memory (its branches' layouts, its commits' mentions), for the life of the process. */
const memories = processWide("code-link-memories", () => new Map<string, LinkMemory>());

function memoryOf(repo: string): LinkMemory {
  let m = memories.get(repo);
  if (!m) memories.set(repo, (m = new LinkMemory()));
  return m;
}

/** What was derived for a plan, by the branches' tips and the question: a page asking per issue derives once. */
const recent = processWide("code-link-answers", () => new WeakMap<Plan, { key: string; commits: CommitGraph["commits"]; at: number; links: Map<string, IssueLinks> }>());
/** How long derived links are reused for the same plan and the same tips (the findings are made afresh). */
const REUSE_MS = 5_000;

/** The links and the code findings of every issue of `plan`, as the repository's branches are now. */
export async function deriveCode(repo: string, plan: Plan, question: Omit<CodeQuestion, "id"> = {}, now = new Date().toISOString(), only?: string): Promise<Derived> {
  const graph = await readCommitGraph(repo, question.default_branch ?? defaultBranch());
  return linkPlan(repo, graph, plan, question, now, only);
}

/** The links and findings of `graph` for `plan`'s issues; with `only`, that issue's alone. */
function linkPlan(repo: string, graph: CommitGraph | undefined, plan: Plan, question: Omit<CodeQuestion, "id">, now: string, only?: string): Derived {
  if (!graph) return { defaultBranch: null, links: new Map(), findings: new Map(), repoFindings: [], note: NOT_GIT };
  const key = `${repo}\0${graph.defaultBranch?.name}\0${graph.defaultBranch?.tip}\0${graph.refs.map((r) => `${r.remote}/${r.name}=${r.tip}`).join("\0")}`;
  const kept = recent.get(plan);
  const isFresh = kept !== undefined && kept.key === key && kept.commits === graph.commits && Date.now() - kept.at < REUSE_MS;
  let links: Map<string, IssueLinks>;
  if (isFresh) links = kept.links;
  else {
    links = linkIssues(graph, plan.issues.map((i) => i.id), memoryOf(repo), only);
    if (only === undefined) recent.set(plan, { key, commits: graph.commits, at: Date.now(), links });
  }
  const defaultBranch = graph.defaultBranch?.name ?? null;
  const staleDays = question.stale_days ?? DEFAULT_STALE_DAYS;
  const findings = new Map<string, CodeFinding[]>();
  for (const issue of only === undefined ? plan.issues : plan.issues.filter((i) => i.id === only)) {
    const found = codeFindings(issue, links.get(issue.id), defaultBranch, now, staleDays);
    if (found.length > 0) findings.set(issue.id, found);
  }
  const repoFinding = refsFinding(graph);
  return { defaultBranch, links, findings, repoFindings: repoFinding ? [repoFinding] : [], note: graph.defaultBranch ? undefined : "no default branch: HEAD names no branch and there is no origin/HEAD; name one with --default-branch B" };
}

/**
 * plan.code: one issue's code (with `id`), or every linked issue's and every code finding. The plan
 * is asked for while git reads the commits (a command line derives it meanwhile).
 */
export async function planCode(repo: string, planOf: () => Plan, question: CodeQuestion, now = new Date().toISOString()): Promise<IssueCode | PlanCode> {
  let plan: Plan | undefined;
  const graph = await readCommitGraph(repo, question.default_branch ?? defaultBranch(), () => {
    plan = planOf();
  });
  plan ??= planOf();
  if (question.id !== undefined && !plan.issues.some((i) => i.id === question.id)) {
    const isMilestone = plan.milestones.some((m) => m.id === question.id);
    throw notFound(isMilestone ? `'${question.id}' is a milestone; code links to issues only (cockpit plan code without an id lists every linked issue)` : `no issue '${question.id}'`);
  }
  const d = linkPlan(repo, graph, plan, question, now, question.id);
  const note = d.note === undefined ? {} : { note: d.note };
  if (question.id !== undefined) {
    const l = d.links.get(question.id);
    return {
      id: question.id,
      default_branch: d.defaultBranch,
      branches: l?.branches ?? [],
      commits: l?.commits ?? [],
      authors: l?.authors ?? [],
      first_activity_at: l?.first_activity_at ?? null,
      last_activity_at: l?.last_activity_at ?? null,
      merged: l?.merged ?? null,
      findings: [...(d.findings.get(question.id) ?? []), ...d.repoFindings],
      ...note,
    };
  }
  return {
    default_branch: d.defaultBranch,
    issues: [...d.links.values()].map(({ commits: _, branchCount: __, ...l }) => ({ ...l, findings: d.findings.get(l.id) ?? [] })),
    findings: [...plan.issues.flatMap((i) => d.findings.get(i.id) ?? []), ...d.repoFindings],
    ...note,
  };
}

/** The issues whose code says someone already works on them without a start (`work_without_start`); none when git cannot tell. */
export async function workedWithoutStart(repo: string, plan: Plan): Promise<Set<string>> {
  try {
    const d = await deriveCode(repo, plan);
    return new Set([...d.findings].filter(([, found]) => found.some((f) => f.code === "work_without_start")).map(([id]) => id));
  } catch {
    return new Set();
  }
}

/**
 * The code findings of the issue a plan answer names (plan.next, plan.claim): an agent is warned
 * that someone may already be on it. Reading the code never fails the plan's answer.
 */
export async function codeFindingsOf(repo: string, plan: Plan, issueId: string | undefined): Promise<CodeFinding[]> {
  if (issueId === undefined) return [];
  try {
    const d = await deriveCode(repo, plan, {}, undefined, issueId);
    return [...(d.findings.get(issueId) ?? []), ...d.repoFindings];
  } catch {
    return [];
  }
}
