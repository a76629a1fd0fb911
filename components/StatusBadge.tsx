import { ISSUE_STATUS_STYLE, MILESTONE_STATUS_STYLE } from "./status";

/** A status in its colour, never broken inside its word; `large` for a projector's screen (24 px). */
export function StatusBadge({ status, kind = "issue", large = false }: { status: string; kind?: "issue" | "milestone"; large?: boolean }) {
  const style = kind === "issue" ? ISSUE_STATUS_STYLE[status]?.badge : MILESTONE_STATUS_STYLE[status];
  return (
    <span data-unbroken="" className={`inline-block shrink-0 whitespace-nowrap rounded font-semibold tracking-wide ${large ? "px-2 py-0.5 text-2xl" : "px-1.5 py-0.5 text-xs"} ${style ?? "bg-slate-600 text-white"}`}>
      {status}
    </span>
  );
}
