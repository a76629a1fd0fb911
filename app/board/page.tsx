import Link from "@/components/Link";
import { Board, type BoardLane } from "@/components/Board";
import { BulkEdit } from "@/components/BulkEdit";
import { planModelCapability } from "@/lib/capabilities/plan-model";
import { ownersOf } from "@/lib/people/facts";
import { ISSUE_STATUSES } from "@/lib/plan/constants";
import { priorityRank } from "@/lib/plan/next-issue";
import { call, servedRepo } from "@/lib/surfaces/pages";

export const dynamic = "force-dynamic";
export const metadata = { title: "Board" };

/** Cards shown per column and lane; the rest are a link to the table. */
const PER_COLUMN = 40;
const LANES = ["owner", "milestone"] as const;

/** The issues as a board (docs/browser.md): a column per derived status, swimlanes by owner or milestone (`?lanes=`). */
export default async function BoardPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const sp = await searchParams;
  const lanesBy = LANES.find((l) => l === sp.lanes);
  const plan = await call(planModelCapability);
  const owners = ownersOf(servedRepo(), plan);
  const cards = plan.issues
    .map((i) => ({ id: i.id, title: i.title, status: i.status, owner: owners.get(i.id) ?? "", priority: i.priority, milestone: i.milestone, wave: i.wave }))
    .sort((a, b) => a.wave - b.wave || priorityRank(a.priority) - priorityRank(b.priority) || (a.id < b.id ? -1 : 1));
  const laneOf = (c: (typeof cards)[number]) => (lanesBy === "owner" ? c.owner || "(nobody)" : lanesBy === "milestone" ? c.milestone : "");
  const keys = [...new Set(cards.map(laneOf))].sort();
  const lanes: BoardLane[] = keys.map((key) => ({
    key,
    columns: Object.fromEntries(
      ISSUE_STATUSES.map((status) => {
        const here = cards.filter((c) => c.status === status && laneOf(c) === key);
        const filter = new URLSearchParams({ status, ...(lanesBy === "owner" ? { owner: key } : lanesBy === "milestone" ? { milestone: key } : {}) });
        return [status, { cards: here.slice(0, PER_COLUMN).map(({ id, title, status: s, owner, priority }) => ({ id, title, status: s, owner, priority })), more: Math.max(0, here.length - PER_COLUMN), moreHref: `/issues?${filter}` }];
      }),
    ),
  }));
  return (
    <main className="flex flex-col gap-4">
      <div className="flex flex-wrap items-baseline gap-4">
        <h1 className="text-2xl font-semibold">Board</h1>
        <nav aria-label="Swimlanes" className="flex gap-3 text-sm" data-testid="board-lanes">
          <span className="text-slate-600 dark:text-slate-400">Swimlanes:</span>
          {[undefined, ...LANES].map((l) => (
            <Link key={l ?? "none"} href={l ? `/board?lanes=${l}` : "/board"} aria-current={l === lanesBy ? "page" : undefined} className={l === lanesBy ? "font-semibold underline" : "text-blue-700 underline dark:text-blue-300"}>
              {l ?? "none"}
            </Link>
          ))}
        </nav>
      </div>
      <p className="max-w-3xl text-sm text-slate-700 dark:text-slate-300">
        Drag a card into ACTIVE to start it, into VERIFY to verify it, into DONE to finish it (or focus it and press s, v or d); you confirm, then the card shows the derived before → after.
        A move the plan forbids is refused where it lands, saying why, and writes nothing.
      </p>
      <BulkEdit
        ids={lanes.flatMap((l) => ISSUE_STATUSES.flatMap((s) => l.columns[s].cards.map((c) => c.id)))}
        people={[...new Set(cards.map((c) => c.owner).filter(Boolean))].sort()}
        priorities={cards.map((c) => c.priority)}
        milestones={plan.milestones.map((m) => m.id)}
      >
        <Board statuses={ISSUE_STATUSES} lanes={lanes} laneTitle={lanesBy} />
      </BulkEdit>
    </main>
  );
}
