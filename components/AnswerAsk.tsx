"use client";

import { useState } from "react";
import { useCapability } from "./useCapability";

/** What an ask's answer form needs of it. */
export interface AskForAnswer {
  id: string;
  issue: string;
  kind: "approve" | "choose" | "answer";
  options: string[];
}

const BUTTON = "rounded px-2 py-0.5 text-sm disabled:opacity-50";

/**
 * Answer an ask from the browser: Approve and Decline for approve, one button per option for
 * choose, a text box for answer; a comment goes with any. The asker's wait ends with the answer.
 */
export function AnswerAsk({ ask }: { ask: AskForAnswer }) {
  const [comment, setComment] = useState("");
  const [text, setText] = useState("");
  const { pending, status, run } = useCapability();
  const send = (answer: Record<string, unknown>, said: string) =>
    run("plan.answer", { id: ask.id, ...answer, ...(comment.trim() ? { comment: comment.trim() } : {}) }, () => `Answered ${ask.id} on ${ask.issue}: ${said}.`);
  if (status?.ok) {
    return (
      <p role="status" className="text-sm text-green-800 dark:text-green-300" data-testid={`answer-outcome-${ask.id}`}>
        {status.text}
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-2" data-testid={`answer-${ask.id}`}>
      {ask.kind === "answer" && (
        <>
          <label htmlFor={`text-${ask.id}`} className="text-xs text-slate-700 dark:text-slate-300">
            Your answer
          </label>
          <textarea
            id={`text-${ask.id}`}
            value={text}
            onChange={(e) => setText(e.target.value)}
            maxLength={4000}
            rows={2}
            className="rounded border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-600 dark:bg-slate-900"
            data-testid={`answer-text-${ask.id}`}
          />
        </>
      )}
      <label className="flex flex-col gap-1 text-xs text-slate-700 dark:text-slate-300">
        Comment (optional)
        <input
          value={comment}
          onChange={(e) => setComment(e.target.value)}
          maxLength={4000}
          className="rounded border border-slate-300 bg-white px-2 py-1 text-sm text-slate-900 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
          data-testid={`answer-comment-${ask.id}`}
        />
      </label>
      <div className="flex flex-wrap gap-2">
        {ask.kind === "approve" && (
          <>
            <button type="button" disabled={pending} className={`${BUTTON} bg-green-700 text-white`} onClick={() => send({ yes: true }, "yes")} data-testid={`answer-yes-${ask.id}`}>
              Approve
            </button>
            <button type="button" disabled={pending} className={`${BUTTON} bg-red-700 text-white`} onClick={() => send({ yes: false }, "no")} data-testid={`answer-no-${ask.id}`}>
              Decline
            </button>
          </>
        )}
        {ask.kind === "choose" &&
          ask.options.map((option, i) => (
            <button
              key={option}
              type="button"
              disabled={pending}
              className={`${BUTTON} border border-slate-400 bg-white text-slate-900 dark:border-slate-500 dark:bg-slate-800 dark:text-slate-100`}
              onClick={() => send({ choice: option }, option)}
              data-testid={`answer-choice-${ask.id}-${i}`}
            >
              {option}
            </button>
          ))}
        {ask.kind === "answer" && (
          <button
            type="button"
            disabled={pending || text.trim() === ""}
            className={`${BUTTON} bg-slate-800 text-white dark:bg-slate-200 dark:text-slate-900`}
            onClick={() => send({ text: text.trim() }, "sent")}
            data-testid={`answer-send-${ask.id}`}
          >
            Send answer
          </button>
        )}
      </div>
      {status && !status.ok && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300" data-testid={`answer-outcome-${ask.id}`}>
          {status.text}
        </p>
      )}
    </div>
  );
}
