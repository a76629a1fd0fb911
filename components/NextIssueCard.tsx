"use client";

import { useState, type ReactNode } from "react";
import { IssueLink } from "./IssueLink";
import { StatusBadge } from "./StatusBadge";
import { TransitionButtons, type MoveAnswer } from "./TransitionButtons";

export interface NextIssueView {
  id: string;
  title: string;
  status: string;
  wave: number;
  priority: string;
  milestone: string;
}

/**
 * The overview's next issue with its Start, and `children`: notes about the issue as the page found
 * it. Once started, the card keeps the issue it moved, with the outcome, the next issue as a link and
 * Undo, until the person moves on: a second click never lands on an issue that came in under the
 * pointer; the notes show while its status is the one they were written for.
 */
export function NextIssueCard({ next, children }: { next: NextIssueView; children?: ReactNode }) {
  const [held, setHeld] = useState<{ next: NextIssueView; children?: ReactNode; status: string; frozen: boolean } | null>(null);
  const shown = held?.next ?? next;
  return (
    <div className="flex flex-col gap-2" data-testid="next-issue">
      <div className="flex items-center gap-2">
        <IssueLink id={shown.id} />
        <StatusBadge status={held?.status ?? shown.status} />
      </div>
      <p className="font-medium">{shown.title}</p>
      <p className="text-xs text-slate-600 dark:text-slate-400">
        wave {shown.wave} · {shown.priority || "no priority"} · milestone {shown.milestone}
      </p>
      {/* The notes are about the issue as the page found it ("never started, yet worked on"): gone once it moved, back if undone. */}
      {held ? held.status === held.next.status && held.children : children}
      <TransitionButtons
        key={shown.id}
        issue={shown.id}
        options={[{ move: "start" }]}
        frozen={held?.frozen ?? false}
        onMoved={(a: MoveAnswer) => setHeld({ next: held?.next ?? next, children: held ? held.children : children, status: a.to, frozen: true })}
        // Undone: the card keeps the issue, as it is again, with its Start, until the person moves on.
        onUndone={(to) => setHeld((h) => h && { ...h, status: to, frozen: false })}
      />
      {held && (
        <button
          type="button"
          data-testid="next-issue-dismiss"
          onClick={() => setHeld(null)}
          className="self-start text-xs text-blue-700 underline underline-offset-2 dark:text-blue-300"
        >
          Show the next issue here
        </button>
      )}
    </div>
  );
}
