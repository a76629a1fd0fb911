"use client";

import Link from "@/components/Link";
import type { GraphItem, LaneLayout } from "@/lib/graph/lanes";
import type { PlanIssue } from "@/lib/plan/shapes";
import { UnsealedMark } from "@/components/UnsealedMark";
import { RowCheck } from "@/components/BulkEdit";

/**
 * The graph as a list, by wave: shown instead of the graph, and always there for screen readers.
 * `unsealed`: the issues whose stamps do not count, marked as the graph's nodes are.
 */
export function WavesList({
  layout,
  itemById,
  byId,
  isShown,
  unsealed,
}: {
  layout: LaneLayout;
  itemById: ReadonlyMap<string, GraphItem>;
  byId: ReadonlyMap<string, PlanIssue>;
  isShown: boolean;
  unsealed: ReadonlySet<string>;
}) {
  return (
    <section aria-label="Issues by wave, as a list" className={isShown ? "" : "sr-only"} data-testid="waves-list">
      {/* The waves below are its h3s: the outline goes h1, h2, h3 without a gap. */}
      <h2 className="mb-2 font-semibold">Issues by wave</h2>
      {layout.columns.map((c) => (
        <div key={String(c.key)} id={c.key === "cycle" ? "cycle" : `wave-${c.key}`} className="mb-3">
          <h3 className="text-sm font-semibold">{c.label}</h3>
          <ul className="ml-4 list-disc text-sm">
            {c.ids.map((id) => {
              const it = itemById.get(id);
              if (it?.kind === "chip") return <li key={id}>{it.ids.length} finished: {it.ids.join(", ")}</li>;
              const i = byId.get(id)!;
              return (
                <li key={id} data-bulk-id={id}>
                  {isShown && (
                    <>
                      <RowCheck id={id} />{" "}
                    </>
                  )}
                  <Link href={`/issues/${encodeURIComponent(id)}`} className="font-mono text-blue-700 underline dark:text-blue-300">
                    {id}
                  </Link>{" "}
                  {i.status}
                  {unsealed.has(id) && (
                    <>
                      {" "}
                      <UnsealedMark id={id} />
                    </>
                  )}{" "}
                  — {i.title}
                  {i.blocked_by.length > 0 && <> (waits on {i.blocked_by.join(", ")})</>}
                </li>
              );
            })}
          </ul>
        </div>
      ))}
    </section>
  );
}
