"use client";

import { useEffect } from "react";

/**
 * Puts the standup's pinned URL (both ends as commits) in the address bar once the page is shown,
 * so a link copied from it after the meeting shows the same page. The page was rendered for these
 * ends already: pinning costs no second request, as a redirect did.
 */
export function PinnedUrl({ href }: { href: string }) {
  useEffect(() => {
    if (window.location.pathname + window.location.search !== href) window.history.replaceState(null, "", href + window.location.hash);
  }, [href]);
  return null;
}
