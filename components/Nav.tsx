import Link from "@/components/Link";
import type { ReactNode } from "react";
import { CommitPanel } from "./CommitPanel";
import { LiveUpdates } from "./LiveUpdates";
import { NavLinks } from "./NavLinks";
import { SignInLink } from "./SignInPrompt";
import { SyncBadge } from "./SyncBadge";

/**
 * The header: the project, the pages, the command palette's button (`children`), the uncommitted
 * changes and the live-update stream (once the viewer may see them), and who is signed in. The
 * stream's state is announced from inside the banner landmark.
 */
export function Nav({
  project,
  links = true,
  user,
  canSignIn = false,
  uncommitted = 0,
  quiet = { stale: 0, expired: 0 },
  inbox = 0,
  children,
}: {
  project: string;
  links?: boolean;
  user?: { name?: string };
  /** Not signed in, where signing in is possible: moves and edits will ask for it. */
  canSignIn?: boolean;
  uncommitted?: number;
  /** Sessions gone quiet and abandoned (docs/agents.md): shown, linking to /agents, when any. */
  quiet?: { stale: number; expired: number };
  /** What needs a person (docs/inbox.md): shown beside Inbox when any. */
  inbox?: number;
  children?: ReactNode;
}) {
  const quietText = [quiet.stale ? `${quiet.stale} stale` : "", quiet.expired ? `${quiet.expired} expired` : ""].filter(Boolean).join(", ");
  return (
    <header className="border-b border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
      <nav className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-5 gap-y-2 px-4 py-3 md:px-6" aria-label="Main">
        <Link href="/" className="flex items-center gap-2 font-semibold">
          {/* A plain <img>: the icon is a 22 px static SVG, which next/image would not improve. */}
          <img src="/icon.svg" alt="" width={22} height={22} />
          <span>Cockpit</span>
          {project && <span className="font-normal text-slate-600 dark:text-slate-400">· {project}</span>}
        </Link>
        {links && (
          <NavLinks
            badges={{
              ...(quietText ? { "/agents": { count: quiet.stale + quiet.expired, title: `sessions with no recent word: ${quietText}` } } : {}),
              ...(inbox > 0 ? { "/inbox": { count: inbox, title: `${inbox} thing${inbox === 1 ? "" : "s"} need${inbox === 1 ? "s" : ""} a person` } } : {}),
            }}
          />
        )}
        {links && (
          <div className="flex flex-wrap items-center gap-4 md:ml-auto">
            {children}
            <SyncBadge />
            <CommitPanel count={uncommitted} />
          </div>
        )}
        {!user && canSignIn && links && <SignInLink />}
        {user && (
          <form method="post" action="/api/auth/signout" className="flex items-center gap-3 text-sm">
            <span className="text-slate-700 dark:text-slate-300">{user.name ? `Signed in as ${user.name}` : "Signed in"}</span>
            <button type="submit" className="rounded border border-slate-300 px-2 py-1 hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800">
              Sign out
            </button>
          </form>
        )}
      </nav>
      {links && <LiveUpdates />}
    </header>
  );
}
