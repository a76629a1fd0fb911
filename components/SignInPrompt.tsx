"use client";

import { useEffect, useState } from "react";

/** `/signin`, with this page as where to come back to. */
function useSignInHref(): string {
  const [href, setHref] = useState("/signin");
  useEffect(() => setHref(`/signin?next=${encodeURIComponent(window.location.pathname + window.location.search)}`), []);
  return href;
}

/**
 * What a move or an edit answers a browser that has not signed in on a server with a token or
 * users: reading needs no sign-in, changes do. The link brings the browser back to this page.
 */
export function SignInPrompt() {
  const href = useSignInHref();
  return (
    <span data-testid="signin-prompt" className="inline-flex flex-wrap items-center gap-x-2 gap-y-1 font-normal text-slate-800 dark:text-slate-200">
      <span>Moves and edits on this server need you to sign in; reading does not.</span>
      <a href={href} className="rounded-md border border-blue-700 px-2 py-0.5 font-medium text-blue-800 hover:bg-blue-50 dark:border-blue-400 dark:text-blue-300 dark:hover:bg-blue-950">
        Sign in
      </a>
      <span className="text-xs text-slate-600 dark:text-slate-400">You come back to this page.</span>
    </span>
  );
}

/** The header's way to sign in, where reading needs none but changes do. */
export function SignInLink() {
  const href = useSignInHref();
  return (
    <a href={href} data-testid="header-signin" className="rounded border border-slate-300 px-2 py-1 text-sm hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800">
      Sign in
    </a>
  );
}
