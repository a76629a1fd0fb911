import Link from "@/components/Link";
import { defaultSince, lastWeekSince } from "@/lib/standup/standup";

// Where the standup starts: yesterday (the previous working day), last week, a date or a revision.
// Plain GET forms: the page resolves what was asked to a commit and pins it in the URL.

export function SincePicker({ until, stuck, view }: { until?: string; stuck?: string; view?: "people" | "change" }) {
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
  return (
    <nav aria-label="Standup since" className="flex flex-wrap items-end gap-4 text-sm" data-testid="since-picker">
      <Link href={keep(defaultSince(today))} className="text-blue-700 underline dark:text-blue-300">
        Since yesterday
      </Link>
      <Link href={keep(lastWeekSince(today))} className="text-blue-700 underline dark:text-blue-300">
        Since last week
      </Link>
      <form action="/standup" method="get" className="flex items-end gap-2">
        <label className="flex flex-col">
          <span>Since the start of a day</span>
          <input type="date" name="from" required className={field} />
        </label>
        {hidden}
        <button type="submit" className={button}>
          Show
        </button>
      </form>
      <form action="/standup" method="get" className="flex items-end gap-2">
        <label className="flex flex-col">
          <span>Since a revision</span>
          <input type="text" name="since" required placeholder="HEAD~3, a sha, a tag" className={`${field} font-mono`} />
        </label>
        {hidden}
        <button type="submit" className={button}>
          Show
        </button>
      </form>
    </nav>
  );
}
