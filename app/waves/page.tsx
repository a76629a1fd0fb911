import { planCodeOf } from "@/lib/code/shapes";
import { planCodeCapability } from "@/lib/capabilities/plan-code";
import { planModelCapability } from "@/lib/capabilities/plan-model";
import { WavesGraph } from "@/components/waves/WavesGraph";
import { codeMarksOf } from "@/lib/code/marks";
import { call, servedRepo } from "@/lib/surfaces/pages";
import { BulkEdit } from "@/components/BulkEdit";
import { ownersOf } from "@/lib/people/facts";

export const dynamic = "force-dynamic";
export const metadata = { title: "Waves" };

export default async function WavesPage() {
  const [plan, code] = await Promise.all([call(planModelCapability), call(planCodeCapability).then(planCodeOf)]);
  const owners = ownersOf(servedRepo(), plan);
  return (
    <main className="flex flex-col gap-2">
      <h1 className="text-2xl font-semibold">Waves</h1>
      <details className="text-sm text-slate-700 dark:text-slate-300">
        <summary className="cursor-pointer">How to read and drive the graph</summary>
        <p className="mt-1">
          One column per wave, one lane per milestone: an issue enters a wave once everything it depends on has left the earlier ones. Finished
          work is folded into a chip per cell; open a chip to see it. Select an issue to see what it waits on and what finishing it unblocks.
          Keys: Tab and the arrows move between issues, Space selects, Enter opens (or opens a chip or a lane), / searches; with the graph
          itself focused, the arrows pan and + and - zoom. The address bar carries the view (milestone, statuses, lanes, search, selection,
          position): copy it to share it.
        </p>
        <p className="mt-1">
          Editing: drag from an issue&apos;s right handle onto another issue, and that issue then depends on (waits on) the first, as the
          arrows run. Select an arrow (click it, or Tab to it and press Enter) and press Delete to remove that dependency. Nothing is written
          until you confirm the preview of what it changes; the last edit of the tab can be undone. The issue page edits depends_on too.
        </p>
      </details>
      {/* The list view selects issues for a change of them all (the table's bar). */}
      <BulkEdit
        ids={plan.issues.map((i) => i.id)}
        people={[...new Set(owners.values())].filter(Boolean).sort()}
        priorities={plan.issues.map((i) => i.priority)}
        milestones={plan.milestones.map((m) => m.id)}
      >
        <WavesGraph initialPlan={plan} codeMarks={codeMarksOf(code)} />
      </BulkEdit>
    </main>
  );
}
