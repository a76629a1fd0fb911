"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { runCapability } from "@/app/actions";
import { SignInPrompt } from "./SignInPrompt";

interface CommitAnswer {
  committed: boolean;
  count: number;
  commit?: string;
  files: { path: string; record: string; status: string; events: { summary: string }[] }[];
  push?: { status: string; message: string };
}

/**
 * The header's count of uncommitted record changes: opening it lists them with the moves and edits
 * behind them (a dry run of plan.commit); a confirm commits the records' folder and pushes.
 */
export function CommitPanel({ count }: { count: number }) {
  const router = useRouter();
  const [busy, start] = useTransition();
  const [listing, setListing] = useState<CommitAnswer | null>(null);
  const [outcome, setOutcome] = useState("");
  const [mustSignIn, setMustSignIn] = useState(false);
  if (count === 0 && !outcome) return null;
  const run = (dryRun: boolean, pullRebase = false) =>
    start(async () => {
      const r = await runCapability("plan.commit", { ...(dryRun ? { dry_run: true } : {}), ...(pullRebase ? { pull_rebase: true } : {}) });
      setMustSignIn(!r.ok && r.error.code === "unauthorized");
      if (!r.ok) {
        setOutcome(`Refused: ${r.error.message}`);
        return;
      }
      const a = r.value as CommitAnswer;
      if (dryRun) setListing(a);
      else {
        setListing(null);
        const what = a.committed ? `Committed ${a.count} change(s) as ${a.commit?.slice(0, 12)}.` : "Nothing new to commit.";
        setOutcome(`${what}${a.push ? ` Push: ${a.push.status}. ${a.push.message}` : ""}`);
        router.refresh();
      }
    });
  return (
    <div className="relative text-sm">
      <button type="button" data-testid="uncommitted" disabled={busy} onClick={() => (listing ? setListing(null) : run(true))} className="rounded border border-amber-400 bg-amber-50 px-2 py-1 text-amber-900 dark:bg-amber-950 dark:text-amber-200">
        {count} uncommitted
      </button>
      {listing && (
        <div data-testid="uncommitted-list" className="absolute right-0 z-10 mt-1 w-[28rem] rounded border border-slate-300 bg-white p-3 shadow dark:border-slate-700 dark:bg-slate-900">
          <ul className="mb-2 text-xs">
            {listing.files.map((f) => (
              <li key={f.path}>
                <span className="font-mono">{f.record || f.path}</span> ({f.status}){f.events.length ? `: ${f.events.map((e) => e.summary).join("; ")}` : ""}
              </li>
            ))}
          </ul>
          <button type="button" data-testid="commit-confirm" disabled={busy} onClick={() => run(false)} className="rounded-md bg-blue-700 px-3 py-1.5 font-medium text-white disabled:opacity-60">
            Commit {listing.count} change(s)
          </button>
        </div>
      )}
      <p role="status" aria-live="polite" data-testid="commit-outcome" className="absolute right-0 mt-1 w-[28rem] text-xs">
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
