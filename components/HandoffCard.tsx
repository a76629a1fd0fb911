import { Card } from "./Card";
import type { Handoff } from "@/lib/coordination/handoff";

/** What the last holder left (docs/agents.md): shown above the timeline, the next holder's first read. */
export function HandoffCard({ handoff }: { handoff: Handoff }) {
  return (
    <Card title={`Handoff from ${handoff.from}`}>
      <div className="flex flex-col gap-2 text-sm" data-testid="handoff">
        <p>
          Its session {handoff.how === "expired" ? "went silent: the lease ended" : handoff.how} at <span className="font-mono text-xs">{handoff.at}</span>.
        </p>
        <p data-testid="handoff-note">{handoff.note ? <>&ldquo;{handoff.note}&rdquo;</> : <span className="text-slate-600 dark:text-slate-400">It left no note.</span>}</p>
        <p>
          Branch: <span className="font-mono text-xs">{handoff.branch ?? "none linked"}</span>
        </p>
        {handoff.commits.length > 0 && (
          <ul className="font-mono text-xs">
            {handoff.commits.map((c) => (
              <li key={c.sha}>
                {c.sha.slice(0, 8)} {c.subject}
              </li>
            ))}
          </ul>
        )}
      </div>
    </Card>
  );
}
