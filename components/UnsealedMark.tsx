import { UNSEALED_HINT } from "@/lib/plan/unsealed";

/** A short mark of an issue whose stamps do not count (unsealed), with the `cockpit plan adopt` hint as its tooltip. */
export function UnsealedMark({ id, compact = false }: { id: string; compact?: boolean }) {
  return (
    <span
      title={`${id}: ${UNSEALED_HINT}`}
      data-testid="unsealed-mark"
      className={`rounded border border-amber-500 bg-amber-50 px-1 font-semibold text-amber-950 dark:border-amber-600 dark:bg-amber-950 dark:text-amber-50 ${compact ? "text-[13px]" : "text-xs"}`}
    >
      unsealed<span className="sr-only">: {UNSEALED_HINT}</span>
    </span>
  );
}
