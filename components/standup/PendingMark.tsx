"use client";

import { useLinkStatus } from "next/link";

/** Inside a link: "loading…" while the page it opens is on its way (the page shown stays). */
export function PendingMark() {
  const { pending } = useLinkStatus();
  return pending ? (
    <span role="status" className="ml-2 font-normal italic" data-testid="standup-pending">
      loading…
    </span>
  ) : null;
}
