import type { Forecast, IssueChange, PlanBurnup, PlanChanges, PlanHistory, RevisionInfo } from "../../plan/history-shapes";
import { table } from "./text";

// Readable renderings of the time answers (changes, history, burn-up, forecast).

const rev = (r: RevisionInfo) => (r.commit === null ? (r.rev === "now" ? "the files now" : `${r.rev} (before the first commit)`) : `${r.rev} (${r.commit.slice(0, 12)}, ${r.committed_at})`);
const status = (s: string | null, absent: string) => s ?? absent;

function why(c: IssueChange): string {
  const cause = c.cause;
  if (!cause) return c.from === null ? "added" : c.to === null ? "removed" : c.from === c.to ? "moved in the graph" : "";
  if (cause.kind === "move") return `${cause.move} ${cause.stamp}`;
  if (cause.kind === "unblocked") return `unblocked by ${cause.dependencies?.join(" ") || "-"}${cause.dropped ? `, dropped ${cause.dropped.join(" ")}` : ""}`;
  if (cause.kind === "blocked") return `blocked by ${cause.dependencies?.join(" ") || "-"}`;
  return cause.kind;
}

export function renderChanges(c: PlanChanges): string {
  const lines = [`changes from ${rev(c.since)} to ${rev(c.until)}`, ""];
  lines.push(
    c.issues.length === 0
      ? "no issue changed"
      : table(
          c.issues.map((i) => [i.id, `${status(i.from, "(new)")} → ${status(i.to, "(gone)")}`, `${i.wave.from ?? "-"} → ${i.wave.to ?? "-"}`, why(i), i.title]),
          ["ISSUE", "STATUS", "WAVE", "WHY", "TITLE"],
        ),
  );
  if (c.milestones.length > 0) lines.push("", table(c.milestones.map((m) => [m.id, `${status(m.from, "(new)")} → ${status(m.to, "(gone)")}`]), ["MILESTONE", "STATUS"]));
  for (const [label, list] of [["new findings", c.findings.new], ["resolved findings", c.findings.resolved]] as const) {
    if (list.length > 0) lines.push("", `${label}:`, ...list.map((f) => `  ${f.level} ${f.code} ${f.subject}: ${f.message}`));
  }
  lines.push("", `next issue: ${c.next.from ?? "none"} → ${c.next.to ?? "none"}`);
  lines.push(`roadmap now: ${c.roadmap.now.from ?? "none"} → ${c.roadmap.now.to ?? "none"}; next: ${c.roadmap.next.from ?? "none"} → ${c.roadmap.next.to ?? "none"}`);
  return lines.join("\n");
}

export function renderHistory(h: PlanHistory): string {
  if (h.entries.length === 0) return `${h.kind} ${h.id} (${h.path}): ${h.truncated ? "every entry left out (--limit 0)" : "no commit changed it"}`;
  const rows = h.entries.map((e) => [e.uncommitted ? "(not committed)" : e.commit!.slice(0, 12), e.time, e.status ?? "(absent)", e.author, e.message]);
  return [`${h.kind} ${h.id} (${h.path})`, table(rows, ["COMMIT", "TIME", "STATUS", "AUTHOR", "MESSAGE"]), ...(h.truncated ? ["(older entries left out; raise --limit)"] : [])].join("\n");
}

export function renderBurnup(b: PlanBurnup): string {
  return [`burn-up of ${b.milestone}`, table(b.points.map((p) => [p.date, String(p.scope), String(p.started), String(p.done), p.commit?.slice(0, 12) ?? "-"]), ["DATE", "SCOPE", "STARTED", "DONE", "COMMIT"])].join("\n");
}

export function renderForecast(f: Forecast): string {
  const lines = [`forecast of ${f.milestone}: ${f.message}`];
  if (f.dates) lines.push(`50%: ${f.dates.p50}   85%: ${f.dates.p85}   95%: ${f.dates.p95}`);
  lines.push(
    `window ${f.window.from} … ${f.window.to}: ${f.completions} completion(s) (${f.needed} needed); remaining ${f.remaining} issue(s) in ${f.remaining_waves} wave(s); ${f.cycle_times.length} cycle time(s); ${f.trials} trials, seed ${f.seed}`,
    `daily: ${f.daily.map((d) => d.done).join(" ")}`,
  );
  return lines.join("\n");
}
