import Link from "next/link";

// Record links are not prefetched: a page lists hundreds of them (a standup lists every change,
// the issue list thousands), and each prefetch is a render on the server, all of them at once
// when the page opens. A click renders the one record asked for.

export function IssueLink({ id }: { id: string }) {
  return (
    <Link href={`/issues/${encodeURIComponent(id)}`} prefetch={false} className="font-mono text-blue-700 underline decoration-blue-300 underline-offset-2 hover:decoration-blue-700 dark:text-blue-300">
      {id}
    </Link>
  );
}

export function MilestoneLink({ id, children }: { id: string; children?: React.ReactNode }) {
  return (
    <Link href={`/milestones/${encodeURIComponent(id)}`} prefetch={false} className="text-blue-700 underline decoration-blue-300 underline-offset-2 hover:decoration-blue-700 dark:text-blue-300">
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
