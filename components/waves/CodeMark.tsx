import type { CodeMark } from "@/lib/code/marks";

// The waves graph's mark of an issue's code: a branch (⎇), merged (✓ on the default branch), or a
// code finding (!), as plan.code derived them.

const FINDING_WORDS: Record<string, string> = {
  work_without_start: "commits, but never started",
  merged_not_verified: "merged, still ACTIVE",
  merged_not_done: "merged, still in VERIFY",
  done_with_open_branch: "DONE with an open branch",
  stalled: "stalled",
  too_many_branches: "too many branches",
};

export function CodeMarkBadge({ mark }: { mark: CodeMark | undefined }) {
  if (!mark) return null;
  const words = [
    mark.branches > 0 ? `${mark.branches} branch${mark.branches === 1 ? "" : "es"}` : "",
    mark.isMerged ? "merged" : "",
    ...mark.findings.map((f) => FINDING_WORDS[f] ?? f),
  ].filter(Boolean);
  const hasFinding = mark.findings.length > 0;
  return (
    <span
      className={`rounded px-1 text-[13px] font-semibold ${hasFinding ? "bg-amber-200 text-amber-950 dark:bg-amber-700 dark:text-amber-50" : "bg-slate-200 text-slate-800 dark:bg-slate-700 dark:text-slate-100"}`}
      title={`Code: ${words.join(", ")}`}
      aria-label={`code: ${words.join(", ")}`}
      data-testid="code-mark"
      data-code={[mark.branches > 0 ? "branch" : "", mark.isMerged ? "merged" : "", hasFinding ? "finding" : ""].filter(Boolean).join(" ")}
    >
      {mark.isMerged ? "✓" : mark.branches > 0 ? "⎇" : ""}
      {hasFinding ? "!" : ""}
    </span>
  );
}

export function CodeMarkLegend() {
  return (
    <li className="flex items-center gap-1" data-testid="code-legend">
      <span className="rounded bg-slate-200 px-1 text-[13px] font-semibold text-slate-800 dark:bg-slate-700 dark:text-slate-100" aria-hidden>
        ⎇ ✓
      </span>
      code: a branch names it, or (✓) its code is merged;
      <span className="rounded bg-amber-200 px-1 text-[13px] font-semibold text-amber-950 dark:bg-amber-700 dark:text-amber-50" aria-hidden>
        !
      </span>
      the code says its status should move (plan code)
    </li>
  );
}
