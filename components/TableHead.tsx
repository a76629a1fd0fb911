/** A listing table's head: small, muted column names on one line; the last column has no right padding. */
export function TableHead({ columns }: { columns: readonly string[] }) {
  return (
    <thead className="text-xs text-slate-600 dark:text-slate-400">
      <tr className="whitespace-nowrap border-b border-slate-300 dark:border-slate-700">
        {columns.map((c, i) => (
          <th key={`${c}-${i}`} className={`py-1 font-medium ${i < columns.length - 1 ? "pr-3" : ""}`}>
            {c}
          </th>
        ))}
      </tr>
    </thead>
  );
}
