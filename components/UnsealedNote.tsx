/** An issue's stamps that do not count, marked, with the way out (`cockpit plan adopt`). */
export function UnsealedNote({ warning }: { warning?: { message: string } }) {
  if (!warning) return null;
  return (
    <p role="note" className="rounded border border-amber-400 bg-amber-50 px-2 py-1 text-xs text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-50" data-testid="unsealed-note">
      <strong>Unsealed stamps.</strong> {warning.message}.
    </p>
  );
}
