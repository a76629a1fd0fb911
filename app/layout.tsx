import type { Metadata } from "next";
import type { ReactNode } from "react";
import { Nav } from "@/components/Nav";
import { Providers } from "@/components/Providers";
import { CommandPalette } from "@/components/CommandPalette";
import { ImportMenu } from "@/components/ImportMenu";
import { Shortcuts } from "@/components/Shortcuts";
import { QuickCapture } from "@/components/QuickCapture";
import { call, servedState, uncommittedRecordFiles } from "@/lib/surfaces/pages";
import { planAgentsCapability } from "@/lib/capabilities/plan-agents";
import { planInboxCapability } from "@/lib/capabilities/plan-inbox";
import { currentViewer, maySeePlan } from "./viewer";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Cockpit", template: "%s · Cockpit" },
  description: "A repository's plan, derived: where it stands, what is next, what is in the way.",
  // A feed reader finds the plan's Atom feed from any page (docs/inbox.md#feeds).
  alternates: { types: { "application/atom+xml": [{ url: "/feed.atom", title: "The plan" }] } },
};

export const dynamic = "force-dynamic";

/** How many sessions went quiet (stale) or were abandoned (expired): the header's count. A store that cannot be read counts none. */
async function quietSessions(): Promise<{ stale: number; expired: number }> {
  try {
    const { sessions } = await call(planAgentsCapability);
    return { stale: sessions.filter((s) => s.state === "stale").length, expired: sessions.filter((s) => s.state === "expired").length };
  } catch {
    return { stale: 0, expired: 0 };
  }
}


/** How many things need a person (plan.inbox's count): the header's Inbox badge. A store that cannot be read counts none. */
async function inboxCount(): Promise<number> {
  try {
    return (await call(planInboxCapability)).count;
  } catch {
    return 0;
  }
}

export default async function RootLayout({ children }: { children: ReactNode }) {
  const viewer = await currentViewer();
  // Nothing of the plan (not even its name) reaches a browser that has not signed in.
  const visible = maySeePlan(viewer);
  const served = visible ? (await servedState()).plan : undefined;
  const project = served?.project.name ?? "";
  const [uncommitted, quiet, inbox] = visible ? await Promise.all([uncommittedRecordFiles(), quietSessions(), inboxCount()]) : [0, { stale: 0, expired: 0 }, 0];
  return (
    <html lang="en">
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased dark:bg-slate-950 dark:text-slate-100">
        <a href="#content" className="sr-only rounded bg-blue-700 px-3 py-2 text-white focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50" data-testid="skip-link">
          Skip to content
        </a>
        <Providers>
          <Nav project={project} links={visible} user={viewer.signedIn ? { name: viewer.name } : undefined} canSignIn={viewer.canSignIn && !viewer.signedIn} uncommitted={uncommitted} quiet={quiet} inbox={inbox}>
            {visible && <ImportMenu />}
            {visible && <CommandPalette />}
          </Nav>
          {visible && <Shortcuts />}
          {served && <QuickCapture milestones={served.milestones.map((m) => ({ id: m.id, title: m.title }))} active={served.project.active_milestone} />}
          <div id="content" tabIndex={-1} className="mx-auto max-w-7xl px-4 py-6 focus:outline-none md:px-6">
            {children}
          </div>
        </Providers>
      </body>
    </html>
  );
}
