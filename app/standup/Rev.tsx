import type { RevisionInfo } from "@/lib/standup/standup";

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** An ISO time as "Mon 30 Nov 2026, 16:20 UTC". */
export function dayAndTime(iso: string): string {
  const d = new Date(iso);
  const hm = `${String(d.getUTCHours()).padStart(2, "0")}:${String(d.getUTCMinutes()).padStart(2, "0")}`;
  return `${DAYS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${hm} UTC`;
}

/** One end of the standup's window: the commit's date and subject, its sha small beside them. */
export function Rev({ r, small = true }: { r: RevisionInfo; small?: boolean }) {
  if (!r.commit) return <strong>the empty plan</strong>;
  const subject = r.subject;
  return (
    <span data-testid="standup-rev">
      <strong>{r.committed_at ? dayAndTime(r.committed_at) : "a commit with no time"}</strong>
      {subject && <> “{subject}”</>}{" "}
      <span className={small ? "text-xs text-slate-600 dark:text-slate-400" : "text-slate-600 dark:text-slate-400"} title={r.commit}>
        (commit <code>{r.commit.slice(0, 10)}</code>)
      </span>
    </span>
  );
}
