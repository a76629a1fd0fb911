"use client";

import { useCallback, useRef, useState } from "react";
import { Dialog } from "./Dialog";
import { useShortcutKey } from "./useShortcutKey";

type MoveName = "start" | "verify" | "done";
interface MoveOption {
  move: MoveName;
  refusal?: string;
}

const KEY_MOVES: Record<string, MoveName> = { s: "start", v: "verify", d: "done" };
const KEYS = Object.keys(KEY_MOVES);
const LABEL: Record<MoveName, string> = { start: "Start", verify: "Verify", done: "Done" };
/** The dialog's question: "Start BK-020?", "Mark BK-020 done?". */
const ASK: Record<MoveName, (id: string) => string> = { start: (id) => `Start ${id}`, verify: (id) => `Send ${id} to verify`, done: (id) => `Mark ${id} done` };
const AFTER: Record<MoveName, string> = { start: "ACTIVE", verify: "VERIFY", done: "DONE" };

/**
 * `s`, `v` and `d` on an issue page: each opens the move's confirmation (before → after); Enter
 * makes the move, Escape cancels. A move the guard refuses opens the refusal instead, and nothing
 * is sent.
 */
export function MoveShortcuts({ issue, status, options, disabled, onConfirm }: { issue: string; status: string; options: MoveOption[]; disabled: boolean; onConfirm: (move: MoveName) => void }) {
  const [asked, setAsked] = useState<MoveOption | null>(null);
  const confirm = useRef<HTMLButtonElement>(null);
  useShortcutKey(KEYS, (key) => {
    const option = options.find((o) => o.move === KEY_MOVES[key]);
    if (option) setAsked(option);
  }, !disabled);
  const close = useCallback(() => setAsked(null), []);
  const focus = useCallback(() => confirm.current?.focus(), []);
  const move = asked?.move;
  const refused = asked?.refusal;
  const go = () => {
    if (move && !refused) onConfirm(move);
    close();
  };
  return (
    <Dialog open={asked !== null} onClose={close} onShown={focus} labelledBy="move-shortcut-title" testId="move-shortcut-dialog" width="w-[min(30rem,calc(100vw-2rem))]">
      {move && (
        <div
          className="flex flex-col gap-3 p-5"
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              go();
            }
          }}
        >
          <h2 id="move-shortcut-title" className="text-lg font-semibold">
            {refused ? `${ASK[move](issue)}: refused` : `${ASK[move](issue)}?`}
          </h2>
          {refused ? (
            <p data-testid="move-shortcut-refusal" className="text-sm">
              {refused}
            </p>
          ) : (
            <p data-testid="move-shortcut-before-after" className="font-mono text-sm">
              {issue}: {status} → {AFTER[move]}
            </p>
          )}
          <div className="flex gap-2">
            <button
              ref={confirm}
              type="button"
              data-testid="move-shortcut-confirm"
              onClick={go}
              className="rounded-md bg-blue-700 px-4 py-1.5 text-sm font-medium text-white shadow hover:bg-blue-800"
            >
              {refused ? "Close" : `${LABEL[move]} ${issue}`}
            </button>
            {!refused && (
              <button type="button" data-testid="move-shortcut-cancel" onClick={close} className="rounded-md border border-slate-300 px-4 py-1.5 text-sm dark:border-slate-600">
                Cancel
              </button>
            )}
          </div>
          <p className="text-xs text-slate-600 dark:text-slate-400">{refused ? "Enter or Esc closes this." : "Enter confirms, Esc cancels."}</p>
        </div>
      )}
    </Dialog>
  );
}
