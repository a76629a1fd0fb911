"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState, useTransition } from "react";
import { runCapability, type ActionAnswer } from "@/app/actions";
import { controlProblem } from "@/lib/plan/control-chars";
import { SignInPrompt } from "./SignInPrompt";

/** How long a commit's confirmation stays on screen (it stays for a push that needs the person). */
const CONFIRMATION_MS = 6000;

/** The message's first line, as the server would write it: what the field opens on. */
const subjectOf = (message: string) => message.split("\n")[0];

/**
 * The header's count of uncommitted record changes: opening it lists them with the moves and edits
 * behind them (a dry run of plan.commit) and the commit's first line, editable (empty: the one
 * generated); Commit commits the records' folder and pushes, Cancel closes it with nothing done.
 */
export function CommitPanel({ count }: { count: number }) {
  const router = useRouter();
  const [busy, start] = useTransition();
  const [listing, setListing] = useState<ActionAnswer<"plan.commit"> | null>(null);
  const [subject, setSubject] = useState("");
  const [outcome, setOutcome] = useState("");
  const [lasting, setLasting] = useState(false);
  const [mustSignIn, setMustSignIn] = useState(false);
  // A confirmation goes away by itself; a refusal or a push to finish stays until the next try.
  useEffect(() => {
    if (!outcome || lasting) return;
    const t = setTimeout(() => setOutcome(""), CONFIRMATION_MS);
    return () => clearTimeout(t);
  }, [outcome, lasting]);
  const problem = controlProblem("the message", subject, false);
  const close = () => {
    setListing(null);
    setOutcome("");
  };
  const run = (dryRun: boolean, pullRebase = false) =>
    start(async () => {
      const typed = subject.trim();
      const message = !dryRun && listing && typed && typed !== subjectOf(listing.message) ? { message: typed } : {};
      const r = await runCapability("plan.commit", { ...(dryRun ? { dry_run: true } : {}), ...(pullRebase ? { pull_rebase: true } : {}), ...message });
      setMustSignIn(!r.ok && r.error.code === "unauthorized");
      if (!r.ok) {
        setLasting(true);
        setOutcome(`Refused: ${r.error.message}`);
        return;
      }
      const a = r.value;
      if (dryRun) {
        setListing(a);
        setSubject(subjectOf(a.message));
        setOutcome("");
        return;
      }
      setListing(null);
      const what = a.committed ? `Committed ${a.count} change(s) as ${a.commit?.slice(0, 12)}.` : "Nothing new to commit.";
      setLasting(a.push !== undefined && a.push.status !== "pushed");
      setOutcome(`${what}${a.push ? ` Push: ${a.push.status}. ${a.push.message}` : ""}`);
      router.refresh();
    });
  return (
    <div className="relative text-sm">
      {count > 0 && (
        <button
          type="button"
          data-testid="uncommitted"
          aria-expanded={listing !== null}
          aria-controls="commit-panel"
          disabled={busy}
          onClick={() => (listing ? close() : run(true))}
          className="rounded border border-amber-400 bg-amber-50 px-2 py-1 text-amber-900 dark:bg-amber-950 dark:text-amber-200"
        >
          {count} uncommitted
        </button>
      )}
      <div className="absolute left-0 z-10 mt-1 flex w-[min(28rem,calc(100vw-2rem))] flex-col gap-1 sm:left-auto sm:right-0">
        {listing && (
          <form
            id="commit-panel"
            data-testid="uncommitted-list"
            aria-label="Commit the changed records"
            onSubmit={(e) => {
              e.preventDefault();
              if (!problem) run(false);
            }}
            onKeyDown={(e) => {
              if (e.key === "Escape") close();
            }}
            className="flex flex-col gap-2 rounded border border-slate-300 bg-white p-3 shadow dark:border-slate-700 dark:bg-slate-900"
          >
            <ul className="text-xs">
              {listing.files.map((f) => (
                <li key={f.path}>
                  <span className="font-mono">{f.record || f.path}</span> ({f.status}){f.events.length ? `: ${f.events.map((e) => e.summary).join("; ")}` : ""}
                </li>
              ))}
            </ul>
            <label htmlFor="commit-message" className="text-xs font-medium">
              Message (first line; empty: the one generated)
            </label>
            <input
              id="commit-message"
              data-testid="commit-message"
              value={subject}
              maxLength={500}
              placeholder={subjectOf(listing.message)}
              aria-invalid={problem !== undefined}
              aria-describedby={problem ? "commit-message-problem" : undefined}
              onChange={(e) => setSubject(e.target.value)}
              className="rounded border border-slate-300 bg-white px-2 py-1 font-mono text-xs dark:border-slate-600 dark:bg-slate-950"
            />
            {problem && (
              <p id="commit-message-problem" data-testid="commit-message-problem" className="text-xs text-red-700 dark:text-red-400">
                Refused: {problem}
              </p>
            )}
            <div className="flex gap-2">
              <button type="submit" data-testid="commit-confirm" disabled={busy || problem !== undefined} className="rounded-md bg-blue-700 px-3 py-1.5 font-medium text-white disabled:opacity-60">
                Commit {listing.count} change(s)
              </button>
              <button type="button" data-testid="commit-cancel" onClick={close} className="rounded-md border border-slate-300 px-3 py-1.5 dark:border-slate-600">
                Cancel
              </button>
            </div>
          </form>
        )}
      </div>
      {/* The outcome stays at the foot of the window, where it covers none of the header's buttons. */}
      <p role="status" aria-live="polite" data-testid="commit-outcome" className={`fixed bottom-4 right-4 z-40 max-w-[min(28rem,calc(100vw-2rem))] text-xs ${outcome || mustSignIn ? "rounded border border-slate-300 bg-white p-2 shadow dark:border-slate-700 dark:bg-slate-900" : ""}`}>
        {mustSignIn ? <SignInPrompt /> : outcome}
        {outcome.includes("Push: behind") && (
          <button type="button" data-testid="commit-pull-rebase" disabled={busy} onClick={() => run(false, true)} className="ml-2 underline">
            Pull --rebase and push
          </button>
        )}
      </p>
    </div>
  );
}
