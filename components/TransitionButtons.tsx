"use client";

import { useState } from "react";
import { SignInPrompt } from "./SignInPrompt";
import { useCapability } from "./useCapability";

export type MoveName = "start" | "verify" | "done";

export interface MoveOption {
  move: MoveName;
  /** Why the guard refuses it now; undefined when it would pass. */
  refusal?: string;
}

const LABEL: Record<MoveName, string> = { start: "Start", verify: "Verify", done: "Done" };

/**
 * Start / verify / done for one issue. A click asks the server; the panel then shows the move as
 * the server derived it (`from → to`) and the next issue, announced to screen readers.
 */
export function TransitionButtons({ issue, options }: { issue: string; options: MoveOption[] }) {
  const { pending, outcome, run } = useMove(issue);

  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap gap-2">
        {options.map((o) => (
          <div key={o.move} className="flex flex-col">
            <button
              type="button"
              data-testid={`move-${o.move}`}
              disabled={pending || o.refusal !== undefined}
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
          .filter((o) => o.refusal)
          .map((o) => (
            <li key={o.move} id={`why-${o.move}`}>
              {LABEL[o.move]}: {o.refusal}
            </li>
          ))}
      </ul>
      <MoveOutcome outcome={outcome} />
    </div>
  );
}

/** The move of one issue as the server makes it, in words: `from → to` and the next issue. */
function useMove(issue: string) {
  const { pending, status: outcome, run: runCapability } = useCapability();
  const run = (move: MoveName) =>
    runCapability("plan.transition", { issue, transition: move }, (value) => {
      const v = value as { from: string; to: string; next_ready?: string };
      return `${issue}: ${v.from} → ${v.to}. Next issue: ${v.next_ready ?? "none"}.`;
    });
  return { pending, outcome, run };
}

function MoveOutcome({ outcome, testId = "move-outcome" }: { outcome: ReturnType<typeof useCapability>["status"]; testId?: string }) {
  return (
    <p
      aria-live="polite"
      role="status"
      data-testid={testId}
      className={`min-h-5 text-sm font-medium ${outcome?.ok === false ? "text-red-700 dark:text-red-400" : "text-green-800 dark:text-green-400"}`}
    >
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
