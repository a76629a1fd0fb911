"use client";

import Link from "@/components/Link";
import { useState } from "react";
import { RowCheck } from "./BulkEdit";
import { IssueLink } from "./IssueLink";
import { StatusBadge } from "./StatusBadge";
import { useCapability } from "./useCapability";
import { newIdempotencyKey } from "./idempotency-key";

export interface BoardCard {
  id: string;
  title: string;
  status: string;
  owner: string;
  priority: string;
}

export interface BoardLane {
  key: string;
  /** Cards by status column, each at most the page's limit; `more` counts the rest. */
  columns: Record<string, { cards: BoardCard[]; more: number; moreHref: string }>;
}

type Move = "start" | "verify" | "done";

/** The move a drop into a column asks for: into ACTIVE starts, into VERIFY verifies, into DONE finishes; any other column is no move. */
const MOVE_INTO: Record<string, Move | undefined> = { ACTIVE: "start", VERIFY: "verify", DONE: "done" };
/** The keys of an issue page, on a focused card. */
const KEY_MOVE: Record<string, Move> = { s: "start", v: "verify", d: "done" };
const TARGET: Record<Move, string> = { start: "ACTIVE", verify: "VERIFY", done: "DONE" };

/** Why a drop into `column` is no move, in words. */
function noMove(column: string): string {
  if (column === "BLOCKED") return "nothing moves an issue into BLOCKED: it is derived from what the issue waits on";
  if (column === "READY") return "nothing moves an issue back to READY: undo its start instead (Activity)";
  return `nothing moves an issue into ${column}: a card moves into ACTIVE (start), VERIFY (verify) or DONE (done)`;
}

/**
 * The board's columns and cards (docs/browser.md, /board): drag a card into ACTIVE, VERIFY or DONE
 * (or press s, v or d on a focused card) to ask for that move; it is confirmed first, then the
 * server's derived before → after is shown on the card. A drop the model forbids is refused where
 * it lands, saying why, and writes nothing.
 */
export function Board({ statuses, lanes, laneTitle }: { statuses: readonly string[]; lanes: BoardLane[]; laneTitle?: string }) {
  const [dragged, setDragged] = useState<BoardCard | null>(null);
  const [asked, setAsked] = useState<{ card: BoardCard; move: Move } | null>(null);
  const [said, setSaid] = useState<{ card: string; text: string; ok: boolean } | null>(null);
  const [over, setOver] = useState<string | null>(null);
  const { pending, run } = useCapability();

  const ask = (card: BoardCard, column: string) => {
    setOver(null);
    if (card.status === column) return;
    const move = MOVE_INTO[column];
    if (!move) {
      setAsked(null);
      setSaid({ card: card.id, ok: false, text: `Refused: ${noMove(column)}. Nothing was written.` });
      return;
    }
    setSaid(null);
    setAsked({ card, move });
  };
  const confirm = () => {
    if (!asked) return;
    const { card, move } = asked;
    setAsked(null);
    run("plan.transition", { issue: card.id, transition: move, idempotency_key: newIdempotencyKey() }, (v) => `${card.id}: ${v.from} → ${v.to}.`, (r) =>
      setSaid({ card: card.id, ok: r.ok, text: r.ok ? `${card.id}: ${r.value.from} → ${r.value.to}.` : `Refused: ${r.error.message} Nothing was written.` }),
    );
  };

  return (
    <div className="flex flex-col gap-4">
      {asked && (
        <div role="dialog" aria-label={`Confirm ${asked.move} of ${asked.card.id}`} className="flex flex-wrap items-center gap-3 rounded border border-blue-400 bg-blue-50 p-2 text-sm dark:border-blue-600 dark:bg-blue-950" data-testid="board-confirm">
          <span data-testid="board-confirm-text">
            {asked.move} {asked.card.id}: {asked.card.status} → {TARGET[asked.move]}?
          </span>
          <button type="button" autoFocus disabled={pending} onClick={confirm} className="rounded bg-blue-700 px-2 py-0.5 text-white" data-testid="board-confirm-yes">
            Confirm
          </button>
          <button type="button" onClick={() => setAsked(null)} className="rounded border border-slate-400 px-2 py-0.5" data-testid="board-confirm-no">
            Cancel
          </button>
        </div>
      )}
      {said && (
        <p role={said.ok ? "status" : "alert"} className={`text-sm ${said.ok ? "text-green-800 dark:text-green-300" : "text-red-700 dark:text-red-300"}`} data-testid="board-outcome">
          {said.text}
        </p>
      )}
      {lanes.map((lane) => (
        <section key={lane.key || "all"} aria-label={lane.key ? `${laneTitle} ${lane.key}` : "Board"} data-testid={`board-lane-${lane.key || "all"}`}>
          {lane.key && <h2 className="mb-2 text-base font-semibold">{lane.key}</h2>}
          <div className="grid grid-flow-col auto-cols-[minmax(14rem,1fr)] gap-3 overflow-x-auto pb-2">
            {statuses.map((status) => {
              const column = lane.columns[status];
              const here = `${lane.key}\0${status}`;
              return (
                <div
                  key={status}
                  className={`flex min-h-24 flex-col gap-2 rounded-lg border p-2 ${over === here ? "border-blue-500 bg-blue-50 dark:bg-blue-950" : "border-slate-200 bg-slate-100 dark:border-slate-800 dark:bg-slate-900"}`}
                  onDragOver={(e) => {
                    e.preventDefault();
                    e.dataTransfer.dropEffect = "move";
                    setOver(here);
                  }}
                  onDragLeave={() => setOver((o) => (o === here ? null : o))}
                  onDrop={(e) => {
                    e.preventDefault();
                    const id = e.dataTransfer.getData("text/plain");
                    const card = dragged ?? lanes.flatMap((l) => Object.values(l.columns).flatMap((c) => c.cards)).find((c) => c.id === id);
                    if (card) ask(card, status);
                    setDragged(null);
                  }}
                  data-testid={`board-column-${lane.key || "all"}-${status}`}
                >
                  <h3 className="flex items-center justify-between text-xs font-semibold">
                    <StatusBadge status={status} kind="issue" />
                    <span className="tabular-nums text-slate-600 dark:text-slate-400">{column.cards.length + column.more}</span>
                  </h3>
                  {column.cards.map((card) => (
                    <article
                      key={card.id}
                      draggable
                      tabIndex={0}
                      onDragStart={(e) => {
                        e.dataTransfer.setData("text/plain", card.id);
                        e.dataTransfer.effectAllowed = "move";
                        setDragged(card);
                      }}
                      onKeyDown={(e) => {
                        const move = KEY_MOVE[e.key];
                        if (!move || e.ctrlKey || e.metaKey || e.altKey) return;
                        e.preventDefault();
                        ask(card, TARGET[move]);
                      }}
                      aria-label={`${card.id} ${card.title}, ${card.status}: drag into another column, or press s, v or d`}
                      className="cursor-grab rounded border border-slate-300 bg-white p-2 text-sm shadow-sm focus:outline focus:outline-2 focus:outline-blue-600 dark:border-slate-700 dark:bg-slate-800"
                      data-testid={`board-card-${card.id}`}
                      data-bulk-id={card.id}
                    >
                      <div className="flex items-baseline justify-between gap-2">
                        <span className="flex items-center gap-1.5">
                          <RowCheck id={card.id} />
                          <IssueLink id={card.id} />
                        </span>
                        <span className="text-xs text-slate-600 dark:text-slate-400">{card.priority}</span>
                      </div>
                      <p className="mt-1 break-words">{card.title}</p>
                      {card.owner && <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">{card.owner}</p>}
                      {said?.card === card.id && <p className={`mt-1 text-xs ${said.ok ? "text-green-800 dark:text-green-300" : "text-red-700 dark:text-red-300"}`}>{said.text}</p>}
                    </article>
                  ))}
                  {column.more > 0 && (
                    <Link href={column.moreHref} className="text-xs text-blue-700 underline dark:text-blue-300">
                      +{column.more} more in the table
                    </Link>
                  )}
                </div>
              );
            })}
          </div>
        </section>
      ))}
    </div>
  );
}
