import { evidenceCoverage } from "@/lib/plan/evidence-coverage";

/** A card title by coverage: tokens covered of tokens required (never entries counted as tokens). */
export function evidenceTitle(record: { evidence_required: readonly string[]; covers: readonly string[] } | undefined): string {
  const rows = record ? evidenceCoverage(record) : [];
  return `Evidence: ${rows.filter((r) => r.entries.length > 0).length} of ${rows.length} required covered`;
}

/** Each required token of a record, covered (by which entries) or missing. */
export function EvidenceCoverage({ record }: { record: { evidence_required: readonly string[]; covers: readonly string[] } | undefined }) {
  const rows = record ? evidenceCoverage(record) : [];
  return (
    <ul className="mb-4 flex flex-col gap-1 text-sm" data-testid="evidence-needed">
      {rows.map(({ token, entries }) => (
        <li key={token} className="flex flex-wrap items-center gap-2" data-testid={`evidence-token-${token}`}>
          <span aria-hidden className={entries.length ? "text-green-700 dark:text-green-400" : "text-amber-700 dark:text-amber-400"}>
            {entries.length ? "✔" : "○"}
          </span>
          <span className="font-mono">{token}</span>
          <span className={`text-xs ${entries.length ? "text-slate-600 dark:text-slate-400" : "font-semibold text-amber-800 dark:text-amber-300"}`}>
            {entries.length ? `covered by entr${entries.length === 1 ? "y" : "ies"} ${entries.map((n) => `#${n}`).join(", ")}` : "missing"}
          </span>
        </li>
      ))}
    </ul>
  );
}
