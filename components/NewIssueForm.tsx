"use client";

import Link from "@/components/Link";
import { useRouter } from "next/navigation";
import { useRef, useState, useTransition } from "react";
import { runCapability, type ActionAnswer } from "@/app/actions";
import { EditPreview } from "./EditPreview";
import { PeopleList } from "./PeopleList";
import { SignInPrompt } from "./SignInPrompt";
import { newIdempotencyKey } from "./idempotency-key";

/** A new issue of one milestone: preview (its id, what it changes, whether it would be refused), then confirm. */
export function NewIssueForm({ milestone }: { milestone: string }) {
  const router = useRouter();
  const [busy, start] = useTransition();
  const [input, setInput] = useState<Record<string, unknown> | null>(null);
  const [answer, setAnswer] = useState<ActionAnswer<"plan.create"> | null>(null);
  const [error, setError] = useState("");
  const [mustSignIn, setMustSignIn] = useState(false);
  const [ownerTyped, setOwnerTyped] = useState("");
  const formRef = useRef<HTMLFormElement>(null);

  const send = (body: Record<string, unknown>, dryRun: boolean) =>
    start(async () => {
      setError("");
      setMustSignIn(false);
      const r = await runCapability("plan.create", { ...body, ...(dryRun ? { dry_run: true } : {}) });
      if (!r.ok) {
        setError(`Refused: ${r.error.message}`);
        setMustSignIn(r.error.code === "unauthorized");
        // A refusal may pass once its cause is fixed: the next confirm is a new request.
        if (!dryRun) setInput({ ...body, idempotency_key: newIdempotencyKey() });
        return;
      }
      setAnswer(r.value);
      if (dryRun) return;
      // Created: the form is empty again, so a second click cannot make a duplicate.
      formRef.current?.reset();
      setInput(null);
      router.refresh();
    });

  const control = "rounded border border-slate-300 bg-white px-2 py-1 dark:border-slate-700 dark:bg-slate-900";
  return (
    <div className="flex flex-col gap-2 text-sm" data-testid="new-issue">
      <form
        ref={formRef}
        className="grid grid-cols-[minmax(0,10rem)_minmax(0,1fr)] items-center gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          const form = new FormData(e.currentTarget);
          const text = (k: string) => String(form.get(k) ?? "").trim();
          const add: Record<string, string[]> = {};
          for (const k of ["acceptance_criteria", "validation", "scope", "evidence_required", "depends_on"]) if (text(k)) add[k] = [text(k)];
          const body = {
            kind: "issue",
            milestone,
            title: text("title"),
            set: Object.fromEntries((["priority", "objective", "owner"] as const).filter((k) => text(k)).map((k) => [k, text(k)])),
            ...(Object.keys(add).length ? { add } : {}),
          };
          // The confirm carries a key of its own: sent twice, it creates one issue.
          setInput({ ...body, idempotency_key: newIdempotencyKey() });
          setAnswer(null);
          send(body, true);
        }}
      >
        <label htmlFor="ni-title">Title</label>
        <input id="ni-title" name="title" required className={control} />
        <label htmlFor="ni-priority">Priority</label>
        <select id="ni-priority" name="priority" defaultValue="p2" className={control}>
          {["p0", "p1", "p2", "p3"].map((p) => (
            <option key={p}>{p}</option>
          ))}
        </select>
        <label htmlFor="ni-objective">Objective</label>
        <input id="ni-objective" name="objective" className={control} placeholder="what is true once it is done" />
        <label htmlFor="ni-owner">Owner</label>
        <input id="ni-owner" name="owner" className={control} list="ni-people" autoComplete="off" onChange={(e) => setOwnerTyped(e.target.value)} />
        <PeopleList id="ni-people" typed={ownerTyped} />
        <label htmlFor="ni-ac">Acceptance criterion</label>
        <input id="ni-ac" name="acceptance_criteria" className={control} />
        <label htmlFor="ni-validation">Validation command</label>
        <input id="ni-validation" name="validation" className={`${control} font-mono`} />
        <label htmlFor="ni-evidence">Evidence required</label>
        <input id="ni-evidence" name="evidence_required" className={`${control} font-mono`} />
        <label htmlFor="ni-scope">Scope</label>
        <input id="ni-scope" name="scope" className={`${control} font-mono`} />
        <label htmlFor="ni-deps">Depends on</label>
        <input id="ni-deps" name="depends_on" className={`${control} font-mono`} />
        <span />
        <button type="submit" disabled={busy} data-testid="new-issue-preview" className="justify-self-start rounded-md bg-slate-800 px-3 py-1.5 font-medium text-white disabled:opacity-60 dark:bg-slate-200 dark:text-slate-900">
          Preview
        </button>
      </form>
      {answer && (
        <div className="flex flex-col gap-2">
          <p data-testid="new-issue-id">
            {answer.written ? (
              <>
                Created <Link className="font-mono underline" href={`/issues/${encodeURIComponent(answer.id)}`}>{answer.id}</Link>.
              </>
            ) : (
              <>Would create <span className="font-mono">{answer.id}</span>.</>
            )}
          </p>
          <EditPreview preview={answer.preview} refused={answer.written ? undefined : answer.refused} testId="new-issue-changes" />
          {!answer.written && input && (
            <button
              type="button"
              disabled={busy || answer.refused !== undefined}
              data-testid="new-issue-confirm"
              onClick={() => send(input, false)}
              className="self-start rounded-md bg-blue-700 px-3 py-1.5 font-medium text-white disabled:bg-slate-300 disabled:text-slate-700"
            >
              Confirm: create {answer.id}
            </button>
          )}
        </div>
      )}
      <p role="status" aria-live="polite" className="min-h-5 font-medium text-red-700 dark:text-red-400">
        {mustSignIn ? <SignInPrompt /> : error}
      </p>
    </div>
  );
}
