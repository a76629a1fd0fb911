"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { SignInPrompt } from "./SignInPrompt";
import { useCapability, type CapabilityOutcome } from "./useCapability";
import type { ActionAnswer } from "@/app/actions";

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

type Preview = Extract<ActionAnswer<"plans.create">, { dry_run: true }>;

/**
 * Decompose a milestone into a new execution plan: Preview answers what it would make (its
 * children by wave, what it skips, its integration branch), written nowhere; Decompose makes it.
 */
export function CreatePlanForm({ milestones }: { milestones: { id: string; title: string }[] }) {
  const router = useRouter();
  const { pending, status, run } = useCapability();
  const [preview, setPreview] = useState<{ input: Record<string, unknown>; answer: Preview } | null>(null);
  const inputOf = (form: HTMLFormElement) => {
    const f = new FormData(form);
    const config: Record<string, unknown> = { execution_mode: f.get("mode"), max_parallel: Number(f.get("max_parallel")), max_retries: Number(f.get("max_retries")), fail_fast: f.get("fail_fast") === "on" };
    return { milestone: f.get("milestone"), config };
  };
  return (
    <div className="flex flex-col gap-3">
      <form
        className="flex flex-wrap items-end gap-3 text-sm"
        data-testid="create-plan"
        onChange={() => setPreview(null)}
        onSubmit={(e) => {
          e.preventDefault();
          const input = inputOf(e.currentTarget);
          run(
            "plans.create",
            { ...input, dry_run: true },
            (v) => ("dry_run" in v ? `Would make ${v.children.length} children in ${v.waves} wave(s); nothing written yet.` : ""),
            (r) => setPreview(r.ok && "dry_run" in r.value ? { input, answer: r.value } : null),
          );
        }}
      >
        <label className="flex min-w-0 max-w-full flex-col gap-1">
          <span className="text-xs">Milestone</span>
          <select name="milestone" className="max-w-full rounded border border-slate-300 bg-white px-2 py-1 dark:border-slate-700 dark:bg-slate-900">
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
        <button type="submit" disabled={pending} className={button} data-testid="create-preview">
          Preview
        </button>
      </form>
      {preview && (
        <div className="flex flex-col gap-2 rounded border border-slate-200 bg-slate-50 p-2 text-xs dark:border-slate-700 dark:bg-slate-900" data-testid="create-preview-result">
          <p className="font-medium">
            It would {preview.answer.title}: {preview.answer.children.length} children in {preview.answer.waves} wave(s), {preview.answer.config.execution_mode}, max_parallel {preview.answer.config.max_parallel}.
          </p>
          <ol className="font-mono">
            {preview.answer.children.map((c) => (
              <li key={c.issue}>
                wave {c.wave} · {c.issue} · {c.status} · {c.title}
              </li>
            ))}
          </ol>
          {preview.answer.skipped.length > 0 && <p>Left out (finished): {preview.answer.skipped.map((s) => `${s.issue} (${s.status})`).join(", ")}</p>}
          <p>Integration branch: {preview.answer.integration_branch ?? "none (the repository has no commit yet)"}</p>
          <button
            type="button"
            disabled={pending}
            className={`${button} self-start`}
            data-testid="create-confirm"
            onClick={() =>
              run("plans.create", preview.input, (v) => {
                if ("dry_run" in v) return "";
                router.push(`/plans/${v.plan_id}`);
                return `Created ${v.plan_id}.`;
              })
            }
          >
            Decompose
          </button>
        </div>
      )}
      <Outcome status={status} testId="create-outcome" />
    </div>
  );
}

/** Delete a root plan with its children, its timeline and its integration branch, after a confirmation naming them. */
export function DeletePlanButton({ root, childCount, branch }: { root: string; childCount: number; branch: string | null }) {
  const router = useRouter();
  const { pending, status, run } = useCapability();
  const [asked, setAsked] = useState(false);
  const remove = (force: boolean) =>
    run(
      "plans.delete",
      { id: root, ...(force ? { force: true } : {}) },
      (v) => {
        router.push("/plans");
        return `Deleted ${v.deleted}: ${v.plans} plan(s)${v.branch ? `; branch ${v.branch.name} ${v.branch.deleted ? "deleted" : `kept (${v.branch.kept_because ?? ""})`}` : ""}.`;
      },
    );
  const busy = status?.ok === false && /being worked on/.test(status.text);
  return (
    <div className="flex flex-col gap-2 text-sm">
      {!asked ? (
        <button type="button" onClick={() => setAsked(true)} className="self-start rounded-md border border-red-700 px-3 py-1 text-xs font-medium text-red-800 dark:border-red-400 dark:text-red-300" data-testid="delete-plan">
          Delete this plan…
        </button>
      ) : (
        <div role="group" aria-label={`Delete ${root}`} className="flex flex-wrap items-center gap-2" data-testid="delete-plan-confirm">
          <span>
            Delete {root}, its {childCount} children and their timeline{branch ? `, and the branch ${branch}` : ""}? The records are not touched.
          </span>
          <button type="button" disabled={pending} onClick={() => remove(busy)} className="rounded-md bg-red-700 px-3 py-1 text-xs font-medium text-white" data-testid="delete-plan-yes">
            {busy ? "Delete anyway" : "Delete"}
          </button>
          <button type="button" onClick={() => setAsked(false)} className="rounded-md border border-slate-400 px-3 py-1 text-xs" data-testid="delete-plan-no">
            Keep it
          </button>
        </div>
      )}
      <Outcome status={status} testId="delete-outcome" />
    </div>
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
