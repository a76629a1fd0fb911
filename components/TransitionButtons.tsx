"use client";

import { newIdempotencyKey } from "./idempotency-key";
import { useRef, useState } from "react";
import Link from "./Link";
import { MoveShortcuts } from "./MoveShortcuts";
import { SignInPrompt } from "./SignInPrompt";
import { useCapability } from "./useCapability";
import type { ActionAnswer } from "@/app/actions";

export type MoveName = "start" | "verify" | "done";

export interface MoveOption {
  move: MoveName;
  /** Why the guard refuses it now; undefined when it would pass. */
  refusal?: string;
}

/** What a move answered, as the page keeps it to show and to undo. */
export type MoveAnswer = ActionAnswer<"plan.transition">;

const LABEL: Record<MoveName, string> = { start: "Start", verify: "Verify", done: "Done" };

const newKey = newIdempotencyKey;

/**
 * Start / verify / done for one issue. A click asks the server, and every button stays disabled
 * until it answers; the panel then shows the move as the server derived it (`from → to`), the
 * next issue as a link, and Undo, announced to screen readers. `frozen`: the move is made here,
 * the buttons stay disabled until the person moves on. `status`: the issue's status now, given on
 * the issue page, where `s`, `v` and `d` open each move's confirmation.
 */
export function TransitionButtons({
  issue,
  options,
  onMoved,
  onUndone,
  frozen = false,
  status,
}: {
  issue: string;
  options: MoveOption[];
  status?: string;
  onMoved?: (a: MoveAnswer) => void;
  onUndone?: (to: string) => void;
  frozen?: boolean;
}) {
  const { pending, outcome, run, moved, undo, undoing, undone } = useMove(issue, onMoved, onUndone);

  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap gap-2">
        {options.map((o) => (
          <div key={o.move} className="flex flex-col">
            <button
              type="button"
              data-testid={`move-${o.move}`}
              disabled={pending || frozen || o.refusal !== undefined}
              aria-describedby={o.refusal ? `why-${o.move}` : undefined}
              onClick={() => run(o.move)}
              className="rounded-md bg-blue-700 px-4 py-1.5 text-sm font-medium text-white shadow hover:bg-blue-800 disabled:cursor-not-allowed disabled:bg-slate-300 disabled:text-slate-700 dark:disabled:bg-slate-700 dark:disabled:text-slate-300"
            >
              {pending ? "…" : LABEL[o.move]}
            </button>
          </div>
        ))}
      </div>
      <ul className="text-xs text-slate-600 dark:text-slate-400">
        {options
          .filter((o) => o.refusal && !frozen)
          .map((o) => (
            <li key={o.move} id={`why-${o.move}`}>
              {LABEL[o.move]}: {o.refusal}
            </li>
          ))}
      </ul>
      <MoveOutcome outcome={outcome} next={moved ? moved.next_ready ?? null : undefined} />
      {moved?.ledger_id !== undefined && (
        <button
          type="button"
          data-testid="move-undo"
          disabled={undoing}
          onClick={undo}
          className="self-start rounded-md border border-slate-400 px-3 py-1 text-sm font-medium hover:bg-slate-100 disabled:cursor-not-allowed disabled:opacity-60 dark:border-slate-500 dark:hover:bg-slate-800"
        >
          {undoing ? "Undoing…" : `Undo ${LABEL[moveOf(moved)]}`}
        </button>
      )}
      <UndoOutcome outcome={!moved || undone?.ok === false ? undone : null} />
      {status !== undefined && <MoveShortcuts issue={issue} status={status} options={options} disabled={pending || frozen} onConfirm={run} />}
    </div>
  );
}

const moveOf = (a: MoveAnswer): MoveName => (a.to === "ACTIVE" ? "start" : a.to === "VERIFY" ? "verify" : "done");

/** The move of one issue as the server makes it, in words, and its undo. */
function useMove(issue: string, onMoved?: (a: MoveAnswer) => void, onUndone?: (to: string) => void) {
  const { pending, status: outcome, run: runCapability } = useCapability();
  const undoCall = useCapability();
  const keys = useRef(new Map<string, string>());
  const [moved, setMoved] = useState<MoveAnswer | null>(null);
  const [undone, setUndone] = useState(false);
  const keyOf = (what: string) => {
    if (!keys.current.has(what)) keys.current.set(what, newKey());
    return keys.current.get(what)!;
  };
  const run = (move: MoveName) => {
    const what = `${issue}\0${move}`;
    runCapability(
      "plan.transition",
      { issue, transition: move, idempotency_key: keyOf(what) },
      (v) => `${issue}: ${v.from} → ${v.to}.`,
      (r) => {
        // A refusal may pass once its cause is fixed: the next click is a new request.
        if (!r.ok) return void keys.current.delete(what);
        const a = { ...r.value, issue };
        setMoved(a);
        setUndone(false);
        onMoved?.(a);
      },
    );
  };
  const undo = () => {
    if (moved?.ledger_id === undefined) return;
    const id = moved.ledger_id;
    undoCall.run(
      "plan.undo",
      { ledger_id: id, idempotency_key: keyOf(`undo\0${id}`) },
      (v) => `Undone: ${v.record} ${v.from} → ${v.to}.`,
      (r) => {
        if (!r.ok) return;
        // The record is as it was: the same move again is a new move.
        keys.current.clear();
        setMoved(null);
        setUndone(true);
        onUndone?.(r.value.to);
      },
    );
  };
  return { pending, outcome: undone ? null : outcome, run, moved, undo, undoing: undoCall.pending, undone: undoCall.status };
}

function MoveOutcome({ outcome, next, testId = "move-outcome" }: { outcome: ReturnType<typeof useCapability>["status"]; next?: string | null; testId?: string }) {
  return (
    <p
      aria-live="polite"
      role="status"
      data-testid={testId}
      className={`min-h-5 text-sm font-medium ${outcome?.ok === false ? "text-red-700 dark:text-red-400" : "text-green-800 dark:text-green-400"}`}
    >
      {outcome?.signIn ? <SignInPrompt /> : (outcome?.text ?? "")}
      {outcome?.ok && next !== undefined && (
        <>
          {" "}
          {next === null ? (
            "Next issue: none."
          ) : (
            <Link href={`/issues/${encodeURIComponent(next)}`} data-testid="move-next" className="text-blue-700 underline underline-offset-2 dark:text-blue-300">
              Next: {next} →
            </Link>
          )}
        </>
      )}
    </p>
  );
}

function UndoOutcome({ outcome }: { outcome: ReturnType<typeof useCapability>["status"] }) {
  return (
    <p aria-live="polite" role="status" data-testid="undo-outcome" className={`text-sm font-medium ${outcome?.ok === false ? "text-red-700 dark:text-red-400" : "text-green-800 dark:text-green-400"}`}>
      {outcome?.signIn ? <SignInPrompt /> : (outcome?.text ?? "")}
    </p>
  );
}

export interface Suggestion extends MoveOption {
  /** The status now, and the one the move leads to. */
  from: string;
  to: string;
  /** Why the code suggests it (the finding's message). */
  why: string;
}

/**
 * A move the code suggests: the button opens the move's confirmation, before → after and why, and
 * only the confirmation's click makes it (the same move as the buttons above).
 */
export function SuggestedMove({ issue, suggestion }: { issue: string; suggestion: Suggestion }) {
  const { pending, outcome, run } = useMove(issue);
  const [isOpen, setOpen] = useState(false);
  const { move, from, to, why, refusal } = suggestion;
  return (
    <div className="flex flex-col gap-2" data-testid="suggested-move">
      <button
        type="button"
        data-testid={`suggested-${move}`}
        disabled={pending || refusal !== undefined}
        aria-expanded={isOpen}
        aria-controls="suggested-confirm"
        onClick={() => setOpen(true)}
        className="self-start rounded-md border border-amber-500 bg-amber-50 px-3 py-1.5 text-sm font-medium text-amber-950 hover:bg-amber-100 disabled:cursor-not-allowed disabled:opacity-60 dark:bg-amber-950 dark:text-amber-50 dark:hover:bg-amber-900"
      >
        Suggested by the code: {LABEL[move]}
      </button>
      {refusal && <p className="text-xs text-slate-600 dark:text-slate-400">{LABEL[move]}: {refusal}</p>}
      {isOpen && (
        <div id="suggested-confirm" role="group" aria-label={`Confirm ${LABEL[move]}`} className="flex flex-col gap-2 rounded-md border border-slate-300 p-3 text-sm dark:border-slate-600" data-testid="suggested-confirm">
          <p className="font-medium" data-testid="suggested-before-after">
            {issue}: {from} → {to}
          </p>
          <p className="text-xs text-slate-700 dark:text-slate-300">{why}</p>
          <div className="flex gap-2">
            <button
              type="button"
              data-testid="suggested-confirm-button"
              disabled={pending}
              onClick={() => {
                run(move);
                setOpen(false);
              }}
              className="rounded-md bg-blue-700 px-4 py-1.5 text-sm font-medium text-white shadow hover:bg-blue-800 disabled:bg-slate-300"
            >
              {LABEL[move]} {issue}
            </button>
            <button type="button" data-testid="suggested-cancel" onClick={() => setOpen(false)} className="rounded-md border border-slate-300 px-4 py-1.5 text-sm dark:border-slate-600">
              Cancel
            </button>
          </div>
        </div>
      )}
      <MoveOutcome outcome={outcome} testId="suggested-outcome" />
    </div>
  );
}
