import type { PlanFinding } from "./shapes";

// The findings page's search and filters, as its URL carries them, and the page of each code's
// findings they select. Pure: the same findings and query give the same page.

export const FINDINGS_PAGE_SIZE = 100;

export interface FindingQuery {
  /** Words that must all appear in the finding (level, code, subject or message), any case. */
  q: string;
  level: "FAIL" | "WARN" | null;
  code: string | null;
  /** An id the subject must contain, any case. */
  subject: string;
  /** A milestone: its own findings and those of its issues. */
  milestone: string | null;
  /** The page of each code's list, from 1. */
  page: number;
}

type Params = Record<string, string | string[] | undefined>;

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.trim() ?? "";

/** Read the query from the URL's parameters; anything unknown or empty means no filter. */
export function parseFindingQuery(params: Params): FindingQuery {
  const level = one(params.level).toUpperCase();
  const page = Number.parseInt(one(params.page), 10);
  return {
    q: one(params.q),
    level: level === "FAIL" || level === "WARN" ? level : null,
    code: one(params.code) || null,
    subject: one(params.subject),
    milestone: one(params.milestone) || null,
    page: Number.isFinite(page) && page > 0 ? page : 1,
  };
}

/** The query string (without `?`) of `query` changed by `patch`; defaults are left out. */
export function formatFindingQuery(query: FindingQuery, patch: Partial<FindingQuery> = {}): string {
  const q = { ...query, ...patch };
  const out = new URLSearchParams();
  if (q.q) out.set("q", q.q);
  if (q.level) out.set("level", q.level);
  if (q.code) out.set("code", q.code);
  if (q.subject) out.set("subject", q.subject);
  if (q.milestone) out.set("milestone", q.milestone);
  if (q.page > 1) out.set("page", String(q.page));
  return out.toString();
}

/** Whether any filter or search is set. */
export const isFiltered = (q: FindingQuery) => !!(q.q || q.level || q.code || q.subject || q.milestone);

/**
 * The findings the query keeps, in their order. `milestoneOf` names an issue's milestone; a
 * milestone's own findings (its id is the subject, or one of a cycle's subjects) count as its own.
 */
export function filterFindings(findings: readonly PlanFinding[], query: FindingQuery, milestoneOf: (subject: string) => string | undefined): PlanFinding[] {
  const words = query.q.toLowerCase().split(/\s+/).filter(Boolean);
  const subject = query.subject.toLowerCase();
  return findings.filter((f) => {
    if (query.level && f.level !== query.level) return false;
    if (query.code && f.code !== query.code) return false;
    if (subject && !f.subject.toLowerCase().includes(subject)) return false;
    if (query.milestone) {
      const ids = f.subject.split(" ");
      if (!ids.some((id) => id === query.milestone || milestoneOf(id) === query.milestone)) return false;
    }
    if (words.length) {
      const text = `${f.level} ${f.code} ${f.subject} ${f.message}`.toLowerCase();
      if (!words.every((w) => text.includes(w))) return false;
    }
    return true;
  });
}

export interface FindingPage {
  items: PlanFinding[];
  /** The page shown (clamped to the last), from 1. */
  page: number;
  pages: number;
  /** The 1-based position of the first item shown; 0 when there is none. */
  from: number;
  to: number;
  total: number;
}

/** One page of a list. */
export function pageOf(list: readonly PlanFinding[], page: number, size = FINDINGS_PAGE_SIZE): FindingPage {
  const pages = Math.max(1, Math.ceil(list.length / size));
  const at = Math.min(Math.max(1, page), pages);
  const items = list.slice((at - 1) * size, at * size);
  return { items, page: at, pages, from: items.length ? (at - 1) * size + 1 : 0, to: (at - 1) * size + items.length, total: list.length };
}

/** A finding's message cut into text and the ids it names (for links), in order. */
export function splitIds(message: string, isId: (token: string) => boolean): { text: string; isId: boolean }[] {
  const out: { text: string; isId: boolean }[] = [];
  let last = 0;
  for (const m of message.matchAll(/[A-Za-z0-9][\w.-]*[A-Za-z0-9]|[A-Za-z0-9]/g)) {
    if (!isId(m[0])) continue;
    if (m.index > last) out.push({ text: message.slice(last, m.index), isId: false });
    out.push({ text: m[0], isId: true });
    last = m.index + m[0].length;
  }
  if (last < message.length) out.push({ text: message.slice(last), isId: false });
  return out;
}
