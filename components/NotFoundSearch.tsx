"use client";

import { usePathname } from "next/navigation";
import { useEffect, useState } from "react";
import type { RecordSearch } from "@/lib/plan/search";
import Link from "./Link";
import { PAGES } from "./pages";

/** What a path asked for: a record of a kind (its id as typed), or a page. */
function askedFor(path: string): { kind: "issue" | "milestone" | "person"; id: string } | undefined {
  const m = /^\/(issues|milestones|people)\/([^/]+)\/?$/.exec(path);
  if (!m) return undefined;
  let id = m[2];
  try {
    id = decodeURIComponent(id);
  } catch {
    // A malformed escape is looked up as typed.
  }
  return { kind: m[1] === "issues" ? "issue" : m[1] === "milestones" ? "milestone" : "person", id };
}

const HREF = { issue: "/issues/", milestone: "/milestones/", person: "/people/" } as const;

/** The page a mistyped path is nearest to (a letter or two away), if any. */
function nearestPage(path: string): (typeof PAGES)[number] | undefined {
  const first = `/${path.split("/")[1] ?? ""}`.toLowerCase();
  const close = (a: string, b: string) => a !== "/" && (b.startsWith(a) || a.startsWith(b) || [...a].filter((c, i) => b[i] !== c).length <= 2);
  return PAGES.find((p) => p.href !== "/" && close(first, p.href));
}

/**
 * The 404 page's help: the known ids nearest to the one asked for ("did you mean BK-020?"), and a
 * search over milestones and issues by id or title (the command palette's look-up).
 */
export function NotFoundSearch() {
  const path = usePathname() ?? "/";
  const asked = askedFor(path);
  const [near, setNear] = useState<string[] | null>(null);
  const [query, setQuery] = useState(asked?.id ?? "");
  const [found, setFound] = useState<RecordSearch | null>(null);
  const [failed, setFailed] = useState<string | null>(null);

  const askedId = asked?.id;
  const askedKind = asked?.kind;
  useEffect(() => {
    if (askedId === undefined) return;
    let live = true;
    fetch(`/api/palette?near=${encodeURIComponent(askedId.slice(0, 200))}&kind=${askedKind}`)
      .then((r) => r.json() as Promise<{ near?: string[] }>)
      .then((b) => live && setNear(b.near ?? []))
      .catch(() => live && setNear([]));
    return () => {
      live = false;
    };
  }, [askedId, askedKind]);

  useEffect(() => {
    const q = query.trim();
    if (!q) return setFound(null);
    let live = true;
    const timer = setTimeout(async () => {
      try {
        const r = await fetch(`/api/palette?q=${encodeURIComponent(q.slice(0, 200))}`);
        const body = (await r.json()) as RecordSearch & { error?: { message: string } };
        if (!r.ok) throw new Error(body.error?.message ?? `HTTP ${r.status}`);
        if (live) {
          setFound(body);
          setFailed(null);
        }
      } catch (error) {
        if (live) setFailed(error instanceof Error ? error.message : String(error));
      }
    }, 120);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [query]);

  const page = asked ? undefined : nearestPage(path);
  return (
    <div className="flex flex-col gap-4">
      {asked && near && near.length > 0 && (
        <p data-testid="not-found-near">
          Did you mean{" "}
          {near.map((id, i) => (
            <span key={id}>
              {i > 0 && (i === near.length - 1 ? " or " : ", ")}
              <Link href={`${HREF[asked.kind]}${encodeURIComponent(id)}`} className="font-mono text-blue-700 underline underline-offset-2 dark:text-blue-300">
                {id}
              </Link>
            </span>
          ))}
          ?
        </p>
      )}
      {page && (
        <p data-testid="not-found-near">
          Did you mean{" "}
          <Link href={page.href} className="text-blue-700 underline underline-offset-2 dark:text-blue-300">
            {page.label} ({page.href})
          </Link>
          ?
        </p>
      )}
      <form role="search" onSubmit={(e) => e.preventDefault()} className="flex flex-col gap-2">
        <label htmlFor="not-found-search" className="text-sm font-medium">
          Look for a milestone or an issue by id or title
        </label>
        <input
          id="not-found-search"
          data-testid="not-found-search"
          type="search"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          className="w-full max-w-xl rounded-md border border-slate-300 bg-white px-3 py-2 dark:border-slate-600 dark:bg-slate-950"
        />
      </form>
      <div aria-live="polite">
        {failed ? (
          <p className="text-sm text-red-700 dark:text-red-400">Could not look records up: {failed}</p>
        ) : found && query.trim() ? (
          found.matches.length === 0 ? (
            <p className="text-sm">Nothing matches “{query.trim()}”.</p>
          ) : (
            <ul className="flex flex-col gap-1 text-sm" data-testid="not-found-results">
              {found.matches.map((m) => (
                <li key={`${m.kind}:${m.id}`}>
                  <span className="mr-2 text-xs uppercase tracking-wide text-slate-600 dark:text-slate-400">{m.kind}</span>
                  <Link href={`${m.kind === "issue" ? HREF.issue : HREF.milestone}${encodeURIComponent(m.id)}`} className="font-mono text-blue-700 underline underline-offset-2 dark:text-blue-300">
                    {m.id}
                  </Link>{" "}
                  {m.title}
                </li>
              ))}
              {found.total > found.matches.length && <li className="text-xs text-slate-600 dark:text-slate-400">…and {found.total - found.matches.length} more: type to narrow</li>}
            </ul>
          )
        ) : null}
      </div>
    </div>
  );
}
