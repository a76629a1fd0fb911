"use client";

import { useRef, useState } from "react";
import { newIdempotencyKey } from "./idempotency-key";
import { SignInPrompt } from "./SignInPrompt";
import { useCapability } from "./useCapability";

const TYPES = ["test", "build", "ci", "artifact", "manual"] as const;

/** Record evidence for one required token of an issue or a milestone; Covers opens on the first missing one. */
export function EvidenceForm({ record, tokens, missing = [] }: { record: string; tokens: string[]; missing?: string[] }) {
  const { pending, status: message, run } = useCapability();
  // Each recorded entry opens Covers again on the first token still missing.
  const [recorded, setRecorded] = useState(0);
  // One key until the server answers: a resent entry is recorded once; after an answer, a new entry.
  const key = useRef<string | null>(null);
  if (tokens.length === 0) return <p className="text-sm text-slate-600 dark:text-slate-400">This record requires no evidence.</p>;
  return (
    <form
      className="grid grid-cols-[minmax(0,8rem)_minmax(0,1fr)] items-center gap-2 text-sm"
      data-testid="evidence-form"
      onSubmit={(e) => {
        e.preventDefault();
        const form = new FormData(e.currentTarget);
        const proof = String(form.get("proof") ?? "").trim();
        const kind = String(form.get("kind"));
        const result = String(form.get("result") ?? "").trim();
        const covers = String(form.get("covers"));
        key.current ??= newIdempotencyKey();
        run(
          "plan.evidence",
          { record, covers, type: String(form.get("type")), [kind]: proof, ...(result ? { result } : {}), idempotency_key: key.current },
          () => `Evidence recorded for ${covers}.`,
          (r) => {
            key.current = null;
            if (r.ok) setRecorded((n) => n + 1);
          },
        );
      }}
    >
      <label htmlFor="ev-covers">Covers</label>
      <select key={`${recorded}\0${missing.join("\0")}`} id="ev-covers" name="covers" defaultValue={missing[0] ?? tokens[0]} className="rounded border border-slate-300 bg-white px-2 py-1 dark:border-slate-700 dark:bg-slate-900">
        {tokens.map((t) => (
          <option key={t} value={t}>
            {missing.includes(t) ? `${t} (missing)` : t}
          </option>
        ))}
      </select>
      <label htmlFor="ev-type">Type</label>
      <select id="ev-type" name="type" className="rounded border border-slate-300 bg-white px-2 py-1 dark:border-slate-700 dark:bg-slate-900">
        {TYPES.map((t) => (
          <option key={t}>{t}</option>
        ))}
      </select>
      <label htmlFor="ev-kind">Proved by</label>
      <select id="ev-kind" name="kind" className="rounded border border-slate-300 bg-white px-2 py-1 dark:border-slate-700 dark:bg-slate-900">
        <option value="command">a command</option>
        <option value="artifact">an artifact</option>
      </select>
      <label htmlFor="ev-proof">Command or artifact</label>
      <input id="ev-proof" name="proof" required className="rounded border border-slate-300 bg-white px-2 py-1 font-mono dark:border-slate-700 dark:bg-slate-900" placeholder="npm test" />
      <label htmlFor="ev-result">Result</label>
      <input id="ev-result" name="result" className="rounded border border-slate-300 bg-white px-2 py-1 dark:border-slate-700 dark:bg-slate-900" placeholder="what it showed" />
      <span />
      <div className="flex items-center gap-3">
        <button type="submit" disabled={pending} className="rounded-md bg-slate-800 px-3 py-1.5 text-sm font-medium text-white hover:bg-slate-900 disabled:opacity-60 dark:bg-slate-200 dark:text-slate-900">
          {pending ? "Recording…" : "Record evidence"}
        </button>
        <span role="status" aria-live="polite" data-testid="evidence-outcome" className={message?.ok === false ? "text-red-700 dark:text-red-400" : "text-green-800 dark:text-green-400"}>
          {message?.signIn ? <SignInPrompt /> : (message?.text ?? "")}
        </span>
      </div>
    </form>
  );
}
