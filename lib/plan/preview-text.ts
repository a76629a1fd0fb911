import type { PlanDiff } from "./plan-diff";
import type { PlanFinding } from "./shapes";

// A preview in words, one line per change, for the command line and the browser alike.

const finding = (f: PlanFinding) => `${f.level} ${f.code} ${f.subject}: ${f.message}`;
const shown = (s: string | number | null, none: string) => (s === null || s === "" ? none : String(s));
const arrow = (what: string, c: { from: string | number | null; to: string | number | null }, none = "–") =>
  c.from === c.to ? undefined : `${what} ${shown(c.from, none)} → ${shown(c.to, none)}`;

export function previewLines(p: PlanDiff): string[] {
  const lines: string[] = [];
  for (const i of p.issues) {
    const presence = i.from === null ? "added" : i.to === null ? "removed" : undefined;
    const parts =
      presence === "removed"
        ? [presence]
        : [
            presence,
            arrow("status", i),
            arrow("wave", i.wave),
            arrow("milestone", { from: i.milestone_from, to: i.milestone }),
          ].filter(Boolean);
    lines.push(`${i.id}: ${parts.join(", ")}`);
  }
  for (const m of p.milestones) {
    const presence = m.from === null ? "added" : m.to === null ? "removed" : undefined;
    lines.push(`${m.id}: ${(presence === "removed" ? [presence] : [presence, arrow("status", m)]).filter(Boolean).join(", ")}`);
  }
  for (const f of p.findings.new) lines.push(`+ ${finding(f)}`);
  for (const f of p.findings.resolved) lines.push(`− resolved: ${finding(f)}`);
  const next = arrow("next issue:", p.next, "none");
  if (next) lines.push(next);
  const now = arrow("roadmap now:", p.roadmap.now, "none");
  if (now) lines.push(now);
  const after = arrow("roadmap next:", p.roadmap.next, "none");
  if (after) lines.push(after);
  if (p.is_empty) lines.push("nothing derived changes");
  return lines;
}
