import type { PlanStandup, StandupLists } from "../../people/shapes";
import type { RevisionInfo } from "../../plan/history-shapes";

// plan.standup in words: one block per person, then the issues nobody has.

const rev = (r: RevisionInfo) => (r.commit === null ? (r.rev === "now" ? "now" : `${r.rev} (before the first commit)`) : `${r.rev} (${r.commit.slice(0, 12)}, ${r.committed_at})`);

function listLines(l: StandupLists): string[] {
  const out: string[] = [];
  // The issue's linked commits in the window end its line, whatever the list.
  const code = (i: { code?: { commits: number; authors: string[] } }) => (i.code ? `  (${i.code.commits} commit${i.code.commits === 1 ? "" : "s"} by ${i.code.authors.join(", ")})` : "");
  const line = (label: string, items: { id: string; title: string; code?: { commits: number; authors: string[] } }[], extra: (i: never) => string = () => "") => {
    for (const i of items) out.push(`  ${label.padEnd(8)} ${i.id}  ${i.title}${extra(i as never)}${code(i)}`);
  };
  line("done", l.done);
  line("landed", l.landed, (i: { merged: { commit: string; at: string } }) => `  merged by ${i.merged.commit.slice(0, 12)} at ${i.merged.at}`);
  line("started", l.started);
  const stuck = (i: { stuck_days: number | null }) => (i.stuck_days === null ? "" : `  (stuck ${i.stuck_days} days)`);
  line("verify", l.verify, stuck);
  line("active", l.active, stuck);
  line("blocked", l.blocked, (i: { blocked_by: { entry: string; owner: string | null }[] }) =>
    i.blocked_by.length === 0 ? "" : `  by ${i.blocked_by.map((b) => (b.owner ? `${b.entry} (${b.owner})` : b.entry)).join(", ")}`,
  );
  return out;
}

export function renderStandup(s: PlanStandup): string {
  const lines = [`standup since ${rev(s.since)} until ${rev(s.until)}`];
  for (const p of s.people) {
    const body = listLines(p);
    lines.push("", `${p.person}: ${p.commits} linked commit${p.commits === 1 ? "" : "s"}`, ...(body.length ? body : ["  nothing to say"]));
  }
  const nobody = listLines(s.unowned);
  if (nobody.length > 0) lines.push("", "nobody's:", ...nobody);
  const findings = [
    ...s.findings.new.map((f) => `  new ${f.level} ${f.code} ${f.subject}: ${f.message}`),
    ...s.findings.resolved.map((f) => `  resolved ${f.level} ${f.code} ${f.subject}: ${f.message}`),
    ...s.findings.code.map((f) => `  code ${f.level} ${f.code} ${f.subject}: ${f.message}`),
  ];
  if (findings.length > 0) lines.push("", "findings:", ...findings);
  const fromTo = (c: { from: string | null; to: string | null }) => (c.from === c.to ? `${c.to ?? "none"} (unchanged)` : `${c.from ?? "none"} → ${c.to ?? "none"}`);
  lines.push("", `next: ${s.next.from ?? "none"} → ${s.next.to ?? "none"}`, `roadmap now: ${fromTo(s.roadmap.now)}`, `roadmap next: ${fromTo(s.roadmap.next)}`);
  return lines.join("\n") + "\n";
}
