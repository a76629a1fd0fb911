"use client";

import Link from "@/components/Link";
import { usePathname, useRouter } from "next/navigation";
import { useCallback, useEffect, useRef, useState, useTransition } from "react";
import { runCapability } from "@/app/actions";
import { Dialog } from "./Dialog";
import { newIdempotencyKey } from "./idempotency-key";
import { isTyping } from "./pages";

/** The milestone the page is about: the milestone page's, the waves filter's, the issue page's issue's; else undefined. */
async function milestoneOfPage(pathname: string): Promise<string | undefined> {
  const milestone = /^\/milestones\/([^/]+)/.exec(pathname);
  if (milestone) return decodeURIComponent(milestone[1]);
  const filtered = new URLSearchParams(window.location.search).get("milestone");
  if (filtered) return filtered;
  const issue = /^\/issues\/([^/]+)/.exec(pathname);
  if (!issue) return undefined;
  try {
    const r = await fetch(`/api/v1/plan/record?id=${issue[1]}`);
    if (!r.ok) return undefined;
    return ((await r.json()) as { issue?: { milestone?: string } }).issue?.milestone;
  } catch {
    return undefined;
  }
}

/**
 * Quick capture (`c` on any page): a new issue's title first, its milestone taken from the page (the
 * milestone, the issue's milestone, the filter; else the active one), Enter to create, as a
 * placeholder whose findings say what it lacks. The created issue is linked; a refusal says why and
 * creates nothing.
 */
export function QuickCapture({ milestones, active }: { milestones: readonly { id: string; title: string }[]; active: string }) {
  const pathname = usePathname() ?? "/";
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [title, setTitle] = useState("");
  const [milestone, setMilestone] = useState(active);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string; id?: string } | null>(null);
  const [busy, start] = useTransition();
  const key = useRef(newIdempotencyKey());
  const titleField = useRef<HTMLInputElement>(null);

  const openCapture = useCallback(async () => {
    const fromPage = await milestoneOfPage(pathname);
    setMilestone(fromPage && milestones.some((m) => m.id === fromPage) ? fromPage : active || milestones[0]?.id || "");
    setTitle("");
    setOutcome(null);
    key.current = newIdempotencyKey();
    setOpen(true);
  }, [pathname, milestones, active]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target) || e.key !== "c") return;
      if (document.querySelector("dialog[open]")) return;
      e.preventDefault();
      void openCapture();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [openCapture]);

  const close = useCallback(() => setOpen(false), []);
  const create = () =>
    start(async () => {
      // A title alone makes a placeholder: the plan names what it lacks (acceptance, validation) until its page fills it in.
      const r = await runCapability("plan.create", { kind: "issue", milestone, title: title.trim(), allow_findings: true, idempotency_key: key.current });
      if (!r.ok) {
        setOutcome({ ok: false, text: `Refused: ${r.error.message}` });
        key.current = newIdempotencyKey();
        return;
      }
      setOutcome({ ok: true, text: `Created ${r.value.id} in ${milestone}.`, id: r.value.id });
      setTitle("");
      key.current = newIdempotencyKey();
      router.refresh();
    });

  return (
    <Dialog open={open} onClose={close} onShown={() => titleField.current?.focus()} labelledBy="capture-title" testId="quick-capture" width="w-[min(34rem,calc(100vw-2rem))]">
      <form
        className="flex flex-col gap-3 p-5"
        onSubmit={(e) => {
          e.preventDefault();
          if (title.trim() !== "" && !busy) create();
        }}
      >
        <h2 id="capture-title" className="text-lg font-semibold">
          New issue
        </h2>
        <label className="flex flex-col gap-1 text-sm">
          Title
          <input
            ref={titleField}
            value={title}
            onChange={(e) => setTitle(e.target.value)}
            maxLength={300}
            required
            className="rounded border border-slate-300 bg-white px-2 py-1 dark:border-slate-600 dark:bg-slate-900"
            data-testid="capture-title-input"
          />
        </label>
        <label className="flex flex-col gap-1 text-sm">
          Milestone
          <select value={milestone} onChange={(e) => setMilestone(e.target.value)} className="rounded border border-slate-300 bg-white px-2 py-1 dark:border-slate-600 dark:bg-slate-900" data-testid="capture-milestone">
            {milestones.map((m) => (
              <option key={m.id} value={m.id}>
                {m.id}
                {m.title ? `: ${m.title}` : ""}
              </option>
            ))}
          </select>
        </label>
        <p className="text-xs text-slate-600 dark:text-slate-400">
          A title is enough: until its page gives it acceptance criteria and a validation command, the findings name what it lacks.
        </p>
        <div className="flex items-center gap-3">
          <button type="submit" disabled={busy || title.trim() === ""} className="rounded bg-blue-700 px-3 py-1 text-sm font-semibold text-white disabled:opacity-50" data-testid="capture-create">
            Create (Enter)
          </button>
          <button type="button" onClick={close} className="rounded px-2 py-1 text-sm text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800">
            Close
          </button>
        </div>
        {outcome && (
          <p role={outcome.ok ? "status" : "alert"} className={`text-sm ${outcome.ok ? "text-green-800 dark:text-green-300" : "text-red-700 dark:text-red-300"}`} data-testid="capture-outcome">
            {outcome.text}{" "}
            {outcome.id && (
              <Link href={`/issues/${encodeURIComponent(outcome.id)}`} className="text-blue-700 underline dark:text-blue-300" onClick={close}>
                Open it
              </Link>
            )}
          </p>
        )}
      </form>
    </Dialog>
  );
}
