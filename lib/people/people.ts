import { compareBytes } from "../plan/text";

// Who is who in a repository (docs/people.md): a person is a handle. Handles come from the
// issues' `owner`, the ledger's `by` (the users file's names) and the commit authors, each author
// mapped to a handle by git's .mailmap (git applies it: the name and email read are the mapped
// ones), then by the email's local part, then by the first word of the name. Pure functions: the
// facts are read in lib/repo/people-facts.ts.

/** A commit author as git gives it with .mailmap applied (`%aN`, `%aE`). */
export interface Author {
  name: string;
  email: string;
}

/** `Léa Martin` → `lea`: the first word, lowercased, without accents. */
export function firstWordOf(name: string): string {
  const word = name.trim().split(/\s+/)[0] ?? "";
  return word.normalize("NFD").replace(/\p{M}+/gu, "").toLowerCase();
}

/** `Lea.M@harbor.test` → `lea.m`, lowercased; "" when there is no `@`. */
export function localPartOf(email: string): string {
  const at = email.lastIndexOf("@");
  return at <= 0 ? "" : email.slice(0, at).toLowerCase();
}

/** The known handles, looked up without regard to case. */
export class Handles {
  private readonly byLower = new Map<string, string>();
  constructor(handles: Iterable<string>) {
    for (const h of [...handles].filter((x) => x.trim() !== "").sort()) {
      if (!this.byLower.has(h.toLowerCase())) this.byLower.set(h.toLowerCase(), h);
    }
  }
  find(word: string): string | undefined {
    return word === "" ? undefined : this.byLower.get(word.toLowerCase());
  }
}

/** How an author was mapped to a handle, for the docs and the tests. */
export type MappedBy = "mailmap" | "email" | "first-name" | "unmapped";

/**
 * The handle of a commit author: the name .mailmap gave it when that is a known handle, else the
 * handle equal to its email's local part, else the handle equal to its name's first word; an author
 * that maps to none is a person of their own, named as git names them.
 */
export function handleOfAuthor(author: Author, handles: Handles): { handle: string; by: MappedBy } {
  const named = handles.find(author.name.trim());
  if (named) return { handle: named, by: "mailmap" };
  const local = handles.find(localPartOf(author.email));
  if (local) return { handle: local, by: "email" };
  const first = handles.find(firstWordOf(author.name));
  if (first) return { handle: first, by: "first-name" };
  return { handle: author.name.trim() || author.email, by: "unmapped" };
}

/** An issue as the people rules see it. */
export interface IssueOwnership {
  id: string;
  /** The record's `owner`; "" when it has none. */
  owner: string;
  /** Who started it: the ledger's `by` of its plan_start, or the author of the commit that sealed `started_at`. */
  startedBy?: string;
}

/**
 * Whose an issue is: its owner; without one, whoever started it (a ledger `by` or a commit author,
 * mapped to a handle as authors are); null when nobody owns or started it.
 */
export function personOfIssue(issue: IssueOwnership, handles: Handles): string | null {
  if (issue.owner.trim() !== "") return handles.find(issue.owner.trim()) ?? issue.owner.trim();
  if (issue.startedBy === undefined || issue.startedBy.trim() === "") return null;
  return handles.find(issue.startedBy.trim()) ?? issue.startedBy.trim();
}

/**
 * Every handle: the owners, the ledger's `by` values (cockpit/<version>, an agent's tool name,
 * is not a person), and each author's mapped handle.
 */
export function knownHandles(owners: Iterable<string>, ledgerBy: Iterable<string>): Handles {
  const people = [...owners, ...[...ledgerBy].filter((b) => !b.startsWith("cockpit/"))];
  return new Handles(people.map((p) => p.trim()).filter(Boolean));
}

/** The mapping of every author name (as commits carry it, .mailmap applied) to a handle. */
export function authorHandles(authors: readonly Author[], handles: Handles): Map<string, string> {
  const out = new Map<string, string>();
  for (const a of authors) if (!out.has(a.name)) out.set(a.name, handleOfAuthor(a, handles).handle);
  return out;
}

/** Ids in the order plan.changes lists them (by bytes). */
export function byId<T extends { id: string }>(a: T, b: T): number {
  return compareBytes(a.id, b.id);
}

/** Handles in order: case-insensitive, then as written. */
export function byHandle(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x < y ? -1 : x > y ? 1 : a < b ? -1 : a > b ? 1 : 0;
}

/** Each person's issues (owned, or unowned and started by them), in id order; authors without an issue have none. */
export function issuesByPerson<T extends { id: string }>(issues: readonly T[], ownership: ReadonlyMap<string, IssueOwnership>, handles: Handles, authors: Iterable<string> = []): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const a of authors) if (!out.has(a)) out.set(a, []);
  for (const i of issues) {
    const o = ownership.get(i.id);
    const person = o ? personOfIssue(o, handles) : null;
    if (person === null) continue;
    if (!out.has(person)) out.set(person, []);
    out.get(person)!.push(i);
  }
  for (const list of out.values()) list.sort(byId);
  return new Map([...out].sort(([a], [b]) => byHandle(a, b)));
}

/** The handles (the palette gives everyone /people lists) whose name holds `query`, case-insensitive, at most `limit`, in handle order; none for an empty query. */
export function matchPeople(handles: Iterable<string>, query: string, limit: number): string[] {
  const q = query.trim().toLowerCase();
  if (q === "") return [];
  const all = [...new Set([...handles].map((h) => h.trim()).filter((h) => h !== "" && !h.startsWith("cockpit/")))];
  return all.filter((h) => h.toLowerCase().includes(q)).sort(byHandle).slice(0, limit);
}
