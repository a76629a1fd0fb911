"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { SignInPrompt } from "./SignInPrompt";
import { useCapability, type CapabilityOutcome } from "./useCapability";

type Status = CapabilityOutcome;

function Outcome({ status, testId }: { status: Status; testId: string }) {
  return (
    <p role="status" aria-live="polite" data-testid={testId} className={`min-h-5 text-xs ${status?.ok === false ? "text-red-700 dark:text-red-400" : "text-green-800 dark:text-green-400"}`}>
      {status?.signIn ? <SignInPrompt /> : (status?.text ?? "")}
    </p>
  );
}

const button =
  "rounded-md bg-blue-700 px-3 py-1 text-xs font-medium text-white hover:bg-blue-800 disabled:cursor-not-allowed disabled:bg-slate-300 disabled:text-slate-700";

/** Decompose a milestone into a new execution plan. */
export function CreatePlanForm({ milestones }: { milestones: { id: string; title: string }[] }) {
  const router = useRouter();
  const { pending, status, run } = useCapability();
  return (
    <form
      className="flex flex-wrap items-end gap-3 text-sm"
      data-testid="create-plan"
      onSubmit={(e) => {
        e.preventDefault();
        const f = new FormData(e.currentTarget);
        const config: Record<string, unknown> = { execution_mode: f.get("mode"), max_parallel: Number(f.get("max_parallel")), max_retries: Number(f.get("max_retries")), fail_fast: f.get("fail_fast") === "on" };
        run("plans.create", { milestone: f.get("milestone"), config }, (v) => {
          const id = v.plan_id;
          router.push(`/plans/${id}`);
          return `Created ${id}.`;
        });
      }}
    >
      <label className="flex flex-col gap-1">
        <span className="text-xs">Milestone</span>
        <select name="milestone" className="rounded border border-slate-300 bg-white px-2 py-1 dark:border-slate-700 dark:bg-slate-900">
          {milestones.map((m) => (
            <option key={m.id} value={m.id}>
              {m.title || m.id}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1">
        <span className="text-xs">Mode</span>
        <select name="mode" defaultValue="sequential" className="rounded border border-slate-300 bg-white px-2 py-1 dark:border-slate-700 dark:bg-slate-900">
          <option value="sequential">sequential</option>
          <option value="parallel">parallel</option>
        </select>
      </label>
      <label className="flex flex-col gap-1">
        <span className="text-xs">max_parallel</span>
        <input name="max_parallel" type="number" min={1} max={50} defaultValue={5} className="w-20 rounded border border-slate-300 bg-white px-2 py-1 dark:border-slate-700 dark:bg-slate-900" />
      </label>
      <label className="flex flex-col gap-1">
        <span className="text-xs">max_retries</span>
        <input name="max_retries" type="number" min={0} defaultValue={2} className="w-20 rounded border border-slate-300 bg-white px-2 py-1 dark:border-slate-700 dark:bg-slate-900" />
      </label>
      <label className="flex items-center gap-1 text-xs">
        <input name="fail_fast" type="checkbox" /> fail_fast
      </label>
      <button type="submit" disabled={pending} className={button}>
        Decompose
      </button>
      <Outcome status={status} testId="create-outcome" />
    </form>
  );
}

export function ClaimButton({ root, disabled }: { root: string; disabled?: boolean }) {
  const { pending, status, run } = useCapability();
  return (
    <div className="flex items-center gap-3">
      <button
        type="button"
        className={button}
        disabled={pending || disabled}
        data-testid="claim-next"
        onClick={() =>
          run("plans.claim", { root }, (r) => {
            return r.claimed ? `Claimed ${r.claimed.issue}: ${r.reason}` : `Nothing to claim: ${r.reason}`;
          })
        }
      >
        Claim the next child
      </button>
      <Outcome status={status} testId="claim-outcome" />
    </div>
  );
}

const CATEGORIES = ["timeout", "transient", "rate_limit", "configuration", "validation", "permission", "conflict"];

/**
 * The moves a person can make on one processing child: advance, complete (with evidence), fail.
 * Rendered for every child, so the outcome of the move that ended it (completed, or the failure
 * handler's decision) stays on screen after the refresh takes its buttons away.
 */
export function ChildActions({ child, phase, isProcessing, tokens }: { child: string; phase: string; isProcessing: boolean; tokens: string[] }) {
  const { pending, status, run } = useCapability();
  const [branch, setBranch] = useState("");
  if (!isProcessing && status === null) return null;
  const next = phase === "strategize" ? "execute" : phase === "execute" ? "apply" : undefined;
  return (
    <div className="mt-1 flex flex-col gap-2 rounded bg-slate-50 p-2 dark:bg-slate-800/50" data-testid={`child-actions-${child}`}>
      {isProcessing && (
        <div className="flex flex-wrap items-center gap-2">
          {next && (
            <>
              {next === "apply" && (
                <input
                  aria-label="Branch to merge (optional)"
                  placeholder="branch to merge (optional)"
                  value={branch}
                  onChange={(e) => setBranch(e.target.value)}
                  className="rounded border border-slate-300 bg-white px-2 py-0.5 text-xs dark:border-slate-700 dark:bg-slate-900"
                />
              )}
              <button
                type="button"
                className={button}
                disabled={pending}
                data-testid={`advance-${next}`}
                onClick={() =>
                  run("plans.advance", { child, to: next, ...(branch ? { branch } : {}) }, (r) => {
                    return r.moved ? `${r.from} → ${r.to}` : `Failed on ${r.to}: ${r.child.last_error?.message ?? ""}`;
                  })
                }
              >
                Advance to {next}
              </button>
            </>
          )}
          {phase === "apply" && (
            <form
              className="flex flex-wrap items-center gap-2"
              onSubmit={(e) => {
                e.preventDefault();
                const f = new FormData(e.currentTarget);
                const evidence = tokens.map((t) => ({ covers: t, type: "test", command: String(f.get(`cmd-${t}`) || "manual check") }));
                run("plans.complete", { child, evidence }, (v) => (v.completed ? "Completed: its issue is DONE." : "Not completed."));
              }}
            >
              {tokens.map((t) => (
                <input key={t} name={`cmd-${t}`} aria-label={`Command proving ${t}`} placeholder={`command proving ${t}`} className="w-48 rounded border border-slate-300 bg-white px-2 py-0.5 text-xs dark:border-slate-700 dark:bg-slate-900" />
              ))}
              <button type="submit" className={button} disabled={pending} data-testid="complete-child">
                Complete
              </button>
            </form>
          )}
          <form
            className="flex items-center gap-1"
            onSubmit={(e) => {
              e.preventDefault();
              const f = new FormData(e.currentTarget);
              run("plans.fail", { child, category: f.get("category"), message: String(f.get("message") || "failed by hand") }, (v) => v.decision.reason);
            }}
          >
            <select name="category" aria-label="Failure category" className="rounded border border-slate-300 bg-white px-1 py-0.5 text-xs dark:border-slate-700 dark:bg-slate-900">
              {CATEGORIES.map((c) => (
                <option key={c}>{c}</option>
              ))}
            </select>
            <input name="message" aria-label="What went wrong" placeholder="what went wrong" className="w-40 rounded border border-slate-300 bg-white px-2 py-0.5 text-xs dark:border-slate-700 dark:bg-slate-900" />
            <button type="submit" disabled={pending} className="rounded-md bg-red-700 px-3 py-1 text-xs font-medium text-white hover:bg-red-800 disabled:opacity-60" data-testid="fail-child">
              Fail
            </button>
          </form>
        </div>
      )}
      <Outcome status={status} testId="child-outcome" />
    </div>
  );
}
