import type { AskView } from "../coordination/asks";
import { answerWords } from "../coordination/asks";
import type { Plan, PlanIssue } from "../plan/shapes";

// Atom feeds (docs/inbox.md#feeds): the plan's, and one person's. Entries come from what every
// clone derives alike (an issue's sealed stamps, when its last dependency finished) and from the
// asks where they are kept (the embedded store, or the shared database); ids are tag URIs made of
// what they name, so a reader sees an entry once.

export interface FeedEntry {
  /** A tag URI: the same thing is the same id on every clone. */
  id: string;
  title: string;
  updated: string;
  summary: string;
  /** The path of the page it is about (/issues/BK-016), made absolute by the feed. */
  path: string;
  author?: string;
}

export interface Feed {
  id: string;
  title: string;
  /** The feed's own path (/feed.atom). */
  path: string;
  entries: FeedEntry[];
}

/** At most this many entries, the newest. */
export const FEED_ENTRIES = 100;

const tag = (project: string, ...parts: string[]) => `tag:cockpit,2026:${encodeURIComponent(project)}/${parts.map(encodeURIComponent).join("/")}`;
const issuePath = (id: string) => `/issues/${encodeURIComponent(id)}`;

/** An issue's moves, each at its stamp: started, verified, done. */
function moveEntries(project: string, issue: PlanIssue, owner: string | undefined): FeedEntry[] {
  const out: FeedEntry[] = [];
  for (const [stamp, word] of [
    [issue.started_at, "started"],
    [issue.verified_at, "sent to verify"],
    [issue.completed_at, "done"],
  ] as const) {
    if (stamp === "" || Number.isNaN(Date.parse(stamp))) continue;
    out.push({
      id: tag(project, "issue", issue.id, word.replace(/ /g, "-"), stamp),
      title: `${issue.id} ${word}: ${issue.title}`,
      updated: new Date(stamp).toISOString(),
      summary: `${issue.id} (${issue.title}) was ${word} at ${stamp}; it is ${issue.status} now.`,
      path: issuePath(issue.id),
      ...(owner ? { author: owner } : {}),
    });
  }
  return out;
}

/** An issue with dependencies that is READY: since its last dependency finished. */
function readyEntry(project: string, plan: Plan, issue: PlanIssue, owner: string | undefined): FeedEntry | undefined {
  if (issue.status !== "READY" || issue.depends_on.length === 0) return undefined;
  const done = issue.depends_on.map((d) => plan.issues.find((i) => i.id === d)?.completed_at ?? "").filter((s) => s !== "" && !Number.isNaN(Date.parse(s)));
  if (done.length === 0) return undefined;
  const at = done.map((s) => new Date(s).toISOString()).sort().at(-1)!;
  return {
    id: tag(project, "issue", issue.id, "ready", at),
    title: `${issue.id} is READY${owner ? ` for ${owner}` : ""}: ${issue.title}`,
    updated: at,
    summary: `${issue.depends_on.join(", ")} finished, so ${issue.id} (${issue.title}) may start.`,
    path: issuePath(issue.id),
    ...(owner ? { author: owner } : {}),
  };
}

/** An ask opened, and its answer once given. */
function askEntries(project: string, a: AskView): FeedEntry[] {
  const out: FeedEntry[] = [
    {
      id: tag(project, "ask", a.id, "opened"),
      title: `${a.asker} asks on ${a.issue}: ${a.question}`,
      updated: new Date(a.opened).toISOString(),
      summary: `${a.asker} asked (${a.kind}${a.options.length ? `: ${a.options.join(" | ")}` : ""}): ${a.question}`,
      path: issuePath(a.issue),
      author: a.asker,
    },
  ];
  if (a.state === "answered" && a.ended_at) {
    out.push({
      id: tag(project, "ask", a.id, "answered"),
      title: `${a.ended_by} answered ${a.asker} on ${a.issue}: ${answerWords(a.answer)}`,
      updated: new Date(a.ended_at).toISOString(),
      summary: `${a.question} → ${answerWords(a.answer)}`,
      path: issuePath(a.issue),
      ...(a.ended_by ? { author: a.ended_by } : {}),
    });
  }
  return out;
}

const newestFirst = (entries: FeedEntry[]) => entries.sort((x, y) => (x.updated < y.updated ? 1 : x.updated > y.updated ? -1 : x.id < y.id ? -1 : 1)).slice(0, FEED_ENTRIES);

/** The plan's feed: every issue's moves, what became READY, and the asks. */
export function planFeed(plan: Plan, owners: ReadonlyMap<string, string>, asks: readonly AskView[]): Feed {
  const project = plan.project.name || "plan";
  const entries: FeedEntry[] = [];
  for (const issue of plan.issues) {
    const owner = owners.get(issue.id) || undefined;
    entries.push(...moveEntries(project, issue, owner));
    const ready = readyEntry(project, plan, issue, owner);
    if (ready) entries.push(ready);
  }
  for (const a of asks) entries.push(...askEntries(project, a));
  return { id: tag(project, "feed"), title: `${project}: the plan`, path: "/feed.atom", entries: newestFirst(entries) };
}

/** One person's feed: the moves of what they own, what became READY for them, what they asked and what they were asked. */
export function personFeed(plan: Plan, handle: string, theirs: readonly PlanIssue[], asks: readonly AskView[]): Feed {
  const project = plan.project.name || "plan";
  const own = new Set(theirs.map((i) => i.id));
  const entries: FeedEntry[] = [];
  for (const issue of theirs) {
    entries.push(...moveEntries(project, issue, handle));
    const ready = readyEntry(project, plan, issue, handle);
    if (ready) entries.push(ready);
  }
  for (const a of asks) if (a.asker === handle || own.has(a.issue)) entries.push(...askEntries(project, a));
  return { id: tag(project, "person", handle), title: `${project}: ${handle}`, path: `/people/${encodeURIComponent(handle)}/feed.atom`, entries: newestFirst(entries) };
}

/** Text as XML character data: the five special characters escaped, and what XML 1.0 cannot hold left out. */
function xmlText(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

/** The feed as an Atom 1.0 document (RFC 4287); `base` is the server's origin the links start with. */
export function atomXml(feed: Feed, base: string): string {
  const updated = feed.entries[0]?.updated ?? new Date(0).toISOString();
  const lines = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <id>${xmlText(feed.id)}</id>`,
    `  <title>${xmlText(feed.title)}</title>`,
    `  <updated>${updated}</updated>`,
    `  <link rel="self" type="application/atom+xml" href="${xmlText(base + feed.path)}"/>`,
    `  <link rel="alternate" type="text/html" href="${xmlText(base + "/")}"/>`,
    "  <author><name>Cockpit</name></author>",
    "  <generator>Cockpit</generator>",
  ];
  for (const e of feed.entries) {
    lines.push(
      "  <entry>",
      `    <id>${xmlText(e.id)}</id>`,
      `    <title>${xmlText(e.title)}</title>`,
      `    <updated>${e.updated}</updated>`,
      `    <link rel="alternate" type="text/html" href="${xmlText(base + e.path)}"/>`,
      ...(e.author ? [`    <author><name>${xmlText(e.author)}</name></author>`] : []),
      `    <summary type="text">${xmlText(e.summary)}</summary>`,
      "  </entry>",
    );
  }
  lines.push("</feed>", "");
  return lines.join("\n");
}
