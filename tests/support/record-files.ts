// The text of plan records as files hold them (project.yaml, milestones/<id>.yaml,
// issues/<id>.yaml): what the repositories of the tests and the bench's generated plans write.
import { MOVES, sealOf, type Move } from "../../lib/plan/seal";

export const PROJECT = ".ai/repo/project";
export const ISSUES = `${PROJECT}/issues`;
export const MILESTONES = `${PROJECT}/milestones`;

/** A YAML flow list: `[a, b]`. */
export const flow = (items: readonly string[]) => `[${items.join(", ")}]`;

/** A stamp after SEALED_FROM that `state: "DONE"` issues carry. */
export const DONE_AT = "2026-10-15T10:00:00Z";

/** The project header record. */
export function projectYaml(name = "Test", repository = "tests/plan"): string {
  return `schema_version: 1\nname: ${name}\nrepository: ${repository}\ndefault_branch: main\n`;
}

/** A stamp and its seal (§1.7), as two record lines. */
export function sealedStampLines(move: Move, id: string, stamp: string): string[] {
  const { field, seal, event } = MOVES[move];
  return [`${field}: ${stamp}`, `${seal}: ${sealOf(event, id, stamp)}`];
}

export interface IssueSpec {
  id: string;
  milestone?: string;
  priority?: string;
  /** Default `[src/<id>]`. */
  scope?: string[];
  depends_on?: string[];
  evidence_required?: string[];
  cancelled?: boolean;
  /** Written DONE (sealed stamps at DONE_AT and evidence covering every required token) or cancelled. */
  state?: "DONE" | "CANCELLED";
  /** Raw lines appended after the generated ones (stamps, seals, evidence, …). */
  extra?: string;
  /** Default `Issue <id>`. */
  title?: string;
  /** Stamps of a history's issue (historyIssueYaml), sealed unless `unsealed`. */
  started_at?: string;
  verified_at?: string;
  completed_at?: string;
  /** Stamps written without their seal (a `stamp_without_event` finding, and no effect on status). */
  unsealed?: boolean;
}

/**
 * The short issue record the generated histories write (tests/support/history.ts): id, milestone,
 * title, dependencies, one evidence requirement, and its stamps; evidence covering the requirement
 * once completed.
 */
export function historyIssueYaml(i: IssueSpec): string {
  const lines = [
    `id: ${i.id}`,
    `milestone: ${i.milestone ?? "M1"}`,
    `title: ${i.title ?? `Issue ${i.id}`}`,
    "priority: p1",
    "profile: implementation",
    `depends_on: ${flow(i.depends_on ?? [])}`,
    "evidence_required: [proof]",
  ];
  if (i.cancelled) lines.push("cancelled: true");
  for (const [move, at] of [["start", i.started_at], ["verify", i.verified_at], ["done", i.completed_at]] as const) {
    if (!at) continue;
    const [stamp, seal] = sealedStampLines(move, i.id, at);
    lines.push(stamp);
    if (!i.unsealed) lines.push(seal);
  }
  if (i.completed_at) lines.push("evidence:", "  - covers: proof", "    type: test", "    command: npm test");
  return lines.join("\n") + "\n";
}

export interface MilestoneSpec {
  id: string;
  order?: number;
  depends_on?: string[];
  evidence_required?: string[];
  extra?: string;
}

/** A complete issue record: block evidence goes last. */
export function issueYaml(s: IssueSpec): string {
  const evidence = s.evidence_required ?? ["proof"];
  const lines = [
    `id: ${s.id}`,
    `milestone: ${s.milestone ?? "M1"}`,
    `title: ${s.title ?? `Issue ${s.id}`}`,
    `slug: ${s.id.toLowerCase()}`,
    `priority: ${s.priority ?? "p1"}`,
    "profile: implementation",
    `objective: Objective of ${s.id}`,
    `scope: ${flow(s.scope ?? [`src/${s.id}`])}`,
    `depends_on: ${flow(s.depends_on ?? [])}`,
    "acceptance_criteria: [it works]",
    'validation: ["true"]',
    `evidence_required: ${flow(evidence)}`,
  ];
  if (s.cancelled || s.state === "CANCELLED") lines.push("cancelled: true");
  if (s.state === "DONE") lines.push(...sealedStampLines("start", s.id, DONE_AT), ...sealedStampLines("done", s.id, DONE_AT));
  lines.push("created_at: 2026-10-01");
  if (s.state === "DONE" && evidence.length > 0) {
    lines.push("evidence:");
    for (const t of evidence) lines.push(`  - covers: ${t}`, "    type: test", '    command: "true"');
  }
  return lines.join("\n") + "\n" + (s.extra ?? "");
}

/** A complete milestone record: order 1, no evidence required, no dependencies unless given. */
export function milestoneYaml(s: MilestoneSpec): string {
  const lines = [
    `id: ${s.id}`,
    `title: Milestone ${s.id}`,
    `slug: ${s.id.toLowerCase()}`,
    `order: ${s.order ?? 1}`,
    "priority: p1",
    "problem: a problem",
    "outcome: an outcome",
    "acceptance_criteria: [done]",
    "validation: [check]",
    `evidence_required: ${flow(s.evidence_required ?? [])}`,
    `depends_on: ${flow(s.depends_on ?? [])}`,
  ];
  return lines.join("\n") + "\n" + (s.extra ?? "");
}
