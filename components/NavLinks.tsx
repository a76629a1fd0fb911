"use client";

import { usePathname } from "next/navigation";
import { useEffect, useState } from "react";
import Link from "@/components/Link";
import { PAGES } from "./pages";

/** Whether `href` is the page shown (or, for a section, a page under it). */
const isCurrent = (pathname: string, href: string) => (href === "/" ? pathname === "/" : pathname === href || pathname.startsWith(`${href}/`));

/**
 * The main navigation's links, the current page marked with aria-current. Below the md width
 * they fold behind a Menu button, so a phone reaches every page.
 */
export function NavLinks({ badges = {} }: { badges?: Readonly<Record<string, { count: number; title: string }>> }) {
  const pathname = usePathname() ?? "/";
  const [isOpen, setOpen] = useState(false);
  // A followed link closes the menu.
  useEffect(() => setOpen(false), [pathname]);
  return (
    <>
      <button
        type="button"
        className="ml-auto rounded border border-slate-300 px-2 py-1 text-sm md:hidden dark:border-slate-600"
        aria-expanded={isOpen}
        aria-controls="main-menu"
        onClick={() => setOpen(!isOpen)}
        data-testid="menu-button"
      >
        {isOpen ? "Close menu" : "Menu"}
      </button>
      <ul id="main-menu" className={`${isOpen ? "flex" : "hidden"} order-last w-full flex-col gap-2 text-sm md:order-none md:flex md:w-auto md:flex-row md:gap-3`} data-testid="main-menu">
        {PAGES.map(({ href, label }) => {
          const current = isCurrent(pathname, href);
          return (
            <li key={href} className="flex items-center">
              <Link
                href={href}
                aria-current={current ? "page" : undefined}
                onClick={() => setOpen(false)}
                className={`block py-1 md:py-0 ${current ? "font-semibold text-slate-950 underline underline-offset-4 dark:text-white" : "text-slate-700 hover:text-slate-950 hover:underline dark:text-slate-300 dark:hover:text-white"}`}
              >
                {label}
              </Link>
              {/* Beside the link, not in it: the link's name stays the page's. */}
              {badges[href] && (
                <span className="ml-1 rounded-full bg-amber-700 px-1.5 text-xs font-semibold text-white" title={badges[href].title} data-testid={`nav-badge-${href.slice(1)}`}>
                  {badges[href].count}
                  <span className="sr-only"> ({badges[href].title})</span>
                </span>
              )}
            </li>
          );
        })}
      </ul>
    </>
  );
}
