import Link from "next/link";
import type { ReactNode } from "react";
import { PAGES } from "./pages";

/** The main navigation; `children` sit at its right end (the command palette's button). */
export function Nav({ project, children }: { project: string; children?: ReactNode }) {
  return (
    <header className="border-b border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
      <nav className="mx-auto flex max-w-7xl items-center gap-6 px-6 py-3" aria-label="Main">
        <Link href="/" className="flex items-center gap-2 font-semibold">
          {/* eslint-disable-next-line @next/next/no-img-element */}
          <img src="/icon.svg" alt="" width={22} height={22} />
          <span>Cockpit</span>
          {project && <span className="font-normal text-slate-600 dark:text-slate-400">· {project}</span>}
        </Link>
        <ul className="flex gap-4 text-sm">
          {PAGES.map(({ href, label }) => (
            <li key={href}>
              <Link href={href} className="text-slate-700 hover:text-slate-950 hover:underline dark:text-slate-300 dark:hover:text-white">
                {label}
              </Link>
            </li>
          ))}
        </ul>
        {children}
      </nav>
    </header>
  );
}
