import { Card } from "@/components/Card";
import Link from "@/components/Link";
import { NotFoundSearch } from "@/components/NotFoundSearch";
import { currentViewer, maySeePlan } from "./viewer";

export const metadata = { title: "Not found" };

/**
 * The 404 of every unknown path and of every record page whose id the plan does not know, inside
 * the Cockpit's layout: what was not found, the nearest known ids, and a search.
 */
export default async function NotFound() {
  const visible = maySeePlan(await currentViewer());
  return (
    <main className="flex flex-col gap-6" data-testid="not-found">
      <div>
        <p className="text-sm text-slate-600 dark:text-slate-400">404</p>
        <h1 className="text-2xl font-semibold">Nothing here</h1>
        <p className="mt-1">The plan has no page, milestone, issue or person at this address.</p>
      </div>
      <Card title="Find it">
        {visible ? <NotFoundSearch /> : <p className="text-sm">Sign in to look for it.</p>}
        <p className="mt-4 text-sm">
          Or go to the{" "}
          <Link href="/" className="text-blue-700 underline underline-offset-2 dark:text-blue-300">
            overview
          </Link>
          , or press <kbd className="rounded border border-slate-300 px-1.5 font-mono text-xs dark:border-slate-600">Ctrl K</kbd> to jump anywhere.
        </p>
      </Card>
    </main>
  );
}
