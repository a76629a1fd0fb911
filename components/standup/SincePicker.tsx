import Link from "@/components/Link";
import { defaultSince, lastWeekSince } from "@/lib/standup/standup";
import { PendingMark } from "./PendingMark";

// Where the standup starts: yesterday (the previous working day), last week, a date or a revision.
// Plain GET forms: the page resolves what was asked to a commit and pins it in the URL. The range
// shown is highlighted, and the day or revision asked stays in its field.

export type SinceRange = "yesterday" | "week" | "day" | "revision";

const ACTIVE = "rounded bg-slate-800 px-2 py-1 font-semibold text-white no-underline dark:bg-slate-200 dark:text-slate-900";
const IDLE = "px-2 py-1 text-blue-700 underline dark:text-blue-300";

export function SincePicker({ until, stuck, view, range, from, since }: { until?: string; stuck?: string; view?: "people" | "change"; range?: SinceRange; from?: string; since?: string }) {
  const today = new Date().toISOString().slice(0, 10);
  const keep = (since: string) => {
    const q = new URLSearchParams({ since });
    if (until) q.set("until", until);
    if (stuck) q.set("stuck", stuck);
    if (view === "change") q.set("view", "change");
    return `/standup?${q}`;
  };
  const hidden = (
    <>
      {until && <input type="hidden" name="until" value={until} />}
      {stuck && <input type="hidden" name="stuck" value={stuck} />}
      {view === "change" && <input type="hidden" name="view" value="change" />}
    </>
  );
  const field = "rounded border border-slate-300 bg-white px-2 py-1 dark:border-slate-600 dark:bg-slate-900";
  const button = "rounded bg-slate-800 px-2 py-1 text-white hover:bg-slate-700 dark:bg-slate-200 dark:text-slate-900";
  const form = (isActive: boolean) =>
    `flex items-end gap-2 rounded px-2 py-1 ${isActive ? "bg-slate-200 ring-2 ring-slate-800 dark:bg-slate-800 dark:ring-slate-200" : ""}`;
  const quick = (key: "yesterday" | "week", label: string, rev: string) => (
    <Link href={keep(rev)} className={range === key ? ACTIVE : IDLE} aria-current={range === key ? "true" : undefined} data-testid={`since-${key}`}>
      {label}
      <PendingMark />
    </Link>
  );
  return (
    <nav aria-label="Standup since" className="flex flex-wrap items-end gap-4 text-sm" data-testid="since-picker">
      {quick("yesterday", "Since yesterday", defaultSince(today))}
      {quick("week", "Since last week", lastWeekSince(today))}
      <form action="/standup" method="get" className={form(range === "day")} data-testid="since-day" aria-current={range === "day" ? "true" : undefined}>
        <label className="flex flex-col">
          <span>Since the start of a day</span>
          <input type="date" name="from" required defaultValue={range === "day" ? from : undefined} className={field} />
        </label>
        {hidden}
        <button type="submit" className={button}>
          Show
        </button>
      </form>
      <form action="/standup" method="get" className={form(range === "revision")} data-testid="since-revision" aria-current={range === "revision" ? "true" : undefined}>
        <label className="flex flex-col">
          <span>Since a revision</span>
          <input
            type="text"
            name="since"
            required
            placeholder="HEAD~3, a sha, a tag"
            defaultValue={range === "revision" && since && !/^\d{4}-\d{2}-\d{2}/.test(since) ? since.slice(0, 12) : undefined}
            className={`${field} font-mono`}
          />
        </label>
        {hidden}
        <button type="submit" className={button}>
          Show
        </button>
      </form>
    </nav>
  );
}
