// The words of a following server's state, shared by the header (components/SyncBadge.tsx) and
// `cockpit plan sync-status`: types only from the shapes, so a page's bundle takes no validator.
import type { SyncStatus } from "../repo/sync-shapes";

/** "BK-020: start was undone: origin/main already had BK-020.yaml changed, in abc1234 by Bob <bob@x>". */
export function undoneText(u: SyncStatus["undone"][number], where: string): string {
  return `${u.command} was undone: ${where} already had ${u.record.split("/").pop()} changed, in ${u.remote_commit.slice(0, 7)} by ${u.author}`;
}

/** "origin/main removed 2 commits (a force-push): abc1234, def5678": this server pushes none of them again. */
export function removedText(r: NonNullable<SyncStatus["removed_by_remote"]>, where: string): string {
  return `${where} removed ${r.count} commit${r.count === 1 ? "" : "s"} (a force-push): ${r.commits.join(", ")}${r.count > r.commits.length ? ", …" : ""}`;
}
