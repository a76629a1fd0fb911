import Link from "@/components/Link";

/** An issue's id as a link to its page; never broken at its dash. */
export function IssueLink({ id }: { id: string }) {
  return (
    <Link href={`/issues/${encodeURIComponent(id)}`} data-unbroken="" className="whitespace-nowrap font-mono text-blue-700 underline decoration-blue-300 underline-offset-2 hover:decoration-blue-700 dark:text-blue-300">
      {id}
    </Link>
  );
}

/** A link to a milestone's page: its children, or its id (never broken at a dash). */
export function MilestoneLink({ id, children }: { id: string; children?: React.ReactNode }) {
  return (
    <Link href={`/milestones/${encodeURIComponent(id)}`} data-unbroken={children === undefined ? "" : undefined} className={`${children === undefined ? "whitespace-nowrap " : ""}text-blue-700 underline decoration-blue-300 underline-offset-2 hover:decoration-blue-700 dark:text-blue-300`}>
      {children ?? id}
    </Link>
  );
}

/** A `blocked_by` entry: an issue id, or `milestone:<id>` for a milestone's gate. */
export function BlockerLink({ entry }: { entry: string }) {
  if (entry.startsWith("milestone:")) {
    const id = entry.slice("milestone:".length);
    return (
      <span>
        milestone gate of <MilestoneLink id={id} />
      </span>
    );
  }
  return <IssueLink id={entry} />;
}

/** "blocked by A, milestone gate of M": an issue's `blocked_by` entries, each a link. */
export function BlockedBy({ entries, className }: { entries: readonly string[]; className?: string }) {
  return (
    <span className={className}>
      blocked by{" "}
      {entries.map((b, i) => (
        <span key={b}>
          {i > 0 && ", "}
          <BlockerLink entry={b} />
        </span>
      ))}
    </span>
  );
}
