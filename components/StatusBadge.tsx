import { ISSUE_STATUS_STYLE, MILESTONE_STATUS_STYLE } from "./status";

export function StatusBadge({ status, kind = "issue" }: { status: string; kind?: "issue" | "milestone" }) {
  const style = kind === "issue" ? ISSUE_STATUS_STYLE[status]?.badge : MILESTONE_STATUS_STYLE[status];
  return (
    <span className={`inline-block rounded px-1.5 py-0.5 text-xs font-semibold tracking-wide ${style ?? "bg-slate-600 text-white"}`}>
      {status}
    </span>
  );
}
