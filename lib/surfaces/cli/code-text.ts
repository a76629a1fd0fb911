import type { CodeBranch, CodeFinding, IssueCode, PlanCode } from "../../code/shapes";

// `cockpit plan code` for a person: the branches, the commits and the code findings.

const when = (iso: string | null) => (iso === null ? "never" : iso.replace("T", " ").replace(/:\d\d(\.\d+)?Z$/, " UTC"));
const branchLabel = (b: CodeBranch) => (b.remote === null ? b.name : `${b.remote}/${b.name}`);

function branchLine(b: CodeBranch): string {
  return `  ${branchLabel(b)}  ${b.tip.slice(0, 7)}  ${b.ahead} ahead, ${b.behind} behind${b.merged ? ", merged" : ""}  (last commit ${when(b.last_commit_at)})`;
}

function findingLines(findings: readonly CodeFinding[]): string[] {
  return findings.map((f) => `${f.level} ${f.code} ${f.subject}: ${f.message}`);
}

export function renderCode(answer: IssueCode | PlanCode): string {
  const lines: string[] = [];
  if (answer.note) lines.push(answer.note);
  if ("id" in answer) {
    lines.push(`${answer.id} on ${answer.default_branch ?? "no default branch"}: ${answer.merged ? `merged in ${answer.merged.commit.slice(0, 7)} (${when(answer.merged.at)})` : "not merged"}`);
    lines.push(`branches (${answer.branches.length}):`, ...answer.branches.map(branchLine));
    lines.push(`commits (${answer.commits.length}), by ${answer.authors.join(", ") || "nobody"}:`);
    for (const c of answer.commits) lines.push(`  ${c.sha.slice(0, 7)}  ${when(c.authored_at)}  ${c.author}  ${c.subject}${c.on_default ? "" : "  (not on the default branch)"}`);
    lines.push(...findingLines(answer.findings));
    return lines.join("\n");
  }
  lines.push(`default branch: ${answer.default_branch ?? "none"}; ${answer.issues.length} issue(s) with linked code`);
  for (const i of answer.issues) {
    const branches = i.branches.map(branchLabel).join(", ") || "no branch";
    lines.push(`${i.id}  ${i.merged ? `merged ${i.merged.commit.slice(0, 7)}` : "not merged"}  last ${when(i.last_activity_at)}  ${branches}  ${i.authors.join(", ")}`);
  }
  lines.push(...findingLines(answer.findings));
  return lines.join("\n");
}
