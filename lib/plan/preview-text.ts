import type { PlanDiff } from "./plan-diff";
import type { PlanFinding } from "./shapes";

// A preview in words, one line per change, for the command line and the browser alike.

const finding = (f: PlanFinding) => `${f.level} ${f.code} ${f.subject}: ${f.message}`;
const or = (s: string, none: string) => s || none;

export function previewLines(p: PlanDiff): string[] {
  const lines: string[] = [];
  for (const i of p.issues) {
    const parts = [
      i.presence,
      i.status && `status ${or(i.status.from, "–")} → ${i.status.to}`,
      i.wave && `wave ${i.wave.from < 0 ? "–" : i.wave.from} → ${i.wave.to}`,
      i.milestone && `milestone ${or(i.milestone.from, "–")} → ${i.milestone.to}`,
    ].filter(Boolean);
    lines.push(`${i.id}: ${parts.join(", ")}`);
  }
  for (const m of p.milestones) {
    lines.push(`${m.id}: ${[m.presence, m.status && `status ${or(m.status.from, "–")} → ${m.status.to}`].filter(Boolean).join(", ")}`);
  }
  for (const f of p.findings.added) lines.push(`+ ${finding(f)}`);
  for (const f of p.findings.resolved) lines.push(`− resolved: ${finding(f)}`);
  if (p.next_issue) lines.push(`next issue: ${or(p.next_issue.from, "none")} → ${or(p.next_issue.to, "none")}`);
  if (p.roadmap.now) lines.push(`roadmap now: ${or(p.roadmap.now.from, "none")} → ${or(p.roadmap.now.to, "none")}`);
  if (p.roadmap.next) lines.push(`roadmap next: ${or(p.roadmap.next.from, "none")} → ${or(p.roadmap.next.to, "none")}`);
  if (p.is_empty) lines.push("nothing derived changes");
  return lines;
}
