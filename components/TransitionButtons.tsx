"use client";

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
  const { pending, status: outcome, run: runCapability } = useCapability();
  const run = (move: MoveName) =>
    runCapability("plan.transition", { issue, transition: move }, (value) => {
      const v = value as { from: string; to: string; next_ready?: string };
      return `${issue}: ${v.from} → ${v.to}. Next issue: ${v.next_ready ?? "none"}.`;
    });

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
      <p
        aria-live="polite"
        role="status"
        data-testid="move-outcome"
        className={`min-h-5 text-sm font-medium ${outcome?.ok === false ? "text-red-700 dark:text-red-400" : "text-green-800 dark:text-green-400"}`}
      >
        {outcome?.signIn ? <SignInPrompt /> : (outcome?.text ?? "")}
      </p>
    </div>
  );
}
