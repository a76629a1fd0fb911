import Link from "@/components/Link";
import { Card } from "@/components/Card";
import { SECTION_TITLES, type SectionKey, groupChanges, type PlanChanges } from "@/lib/standup/standup";

// The overview's "since yesterday": how many issues changed, by new status, each count a link to
// the standup that lists them.

const SHOWN: SectionKey[] = ["done", "verify", "started", "ready", "blocked", "added", "cancelled", "removed"];

export function SinceYesterday({ changes, href }: { changes: PlanChanges; href: string }) {
  const groups = groupChanges(changes.issues);
  const shown = SHOWN.filter((k) => groups[k].length > 0);
  return (
    <Card title="Since yesterday">
      <div className="flex flex-wrap items-center gap-3 text-sm" data-testid="since-yesterday">
        {shown.length === 0 ? (
          <p>No issue changed since the start of the previous working day.</p>
        ) : (
          <ul className="flex flex-wrap gap-2">
            {shown.map((k) => (
              <li key={k}>
                <Link href={`${href}#section-${k}`} className="flex items-center gap-3 rounded border border-slate-200 px-3 py-1 hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-800" data-testid={`since-yesterday-${k}`}>
                  <span>{SECTION_TITLES[k]}</span>
                  <span className="font-semibold tabular-nums">{groups[k].length}</span>
                </Link>
              </li>
            ))}
          </ul>
        )}
        <Link href={href} className="text-blue-700 underline dark:text-blue-300">
          Open the standup
        </Link>
      </div>
    </Card>
  );
}
