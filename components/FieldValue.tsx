/** A record's value as plan.record's `record` gives it: text, a list, or nested fields (JSON). */
export type WrittenValue = unknown;

/** A record's value as written: text, a list, or nested fields. */
export function FieldValue({ value }: { value: WrittenValue }) {
  if (value === null || value === undefined) return <span className="text-slate-500 dark:text-slate-400">(empty)</span>;
  if (typeof value === "string") return <span className="whitespace-pre-wrap break-words">{value}</span>;
  if (Array.isArray(value)) {
    if (value.length === 0) return <span className="text-slate-500 dark:text-slate-400">(none)</span>;
    return (
      <ul className="ml-4 list-disc">
        {value.map((v, i) => (
          <li key={i}>
            <FieldValue value={v} />
          </li>
        ))}
      </ul>
    );
  }
  if (typeof value === "object") return <FieldList fields={Object.entries(value)} className="grid grid-cols-[max-content_minmax(0,1fr)] gap-x-3" />;
  return <span className="whitespace-pre-wrap break-words">{String(value)}</span>;
}

/** A record's fields as written, in file order: each key beside its value. */
export function FieldList({ fields, className }: { fields: readonly (readonly [string, WrittenValue])[]; className: string }) {
  return (
    <dl className={className}>
      {fields.map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="font-mono text-xs text-slate-600 dark:text-slate-400">{k}</dt>
          <dd>
            <FieldValue value={v} />
          </dd>
        </div>
      ))}
    </dl>
  );
}
