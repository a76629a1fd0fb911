import type { AskView } from "../coordination/asks";
import { ageWords, answerWords } from "../coordination/asks";
import type { RevisionInfo } from "../plan/history-shapes";
import type { PlanStandup, StandupLists } from "./shapes";

// The standup as one message (docs/inbox.md#digest): for a scheduled job to post in a chat or a
// mail as it is. One list of sections, written out as plain text or as Markdown.

export interface DigestSection {
  heading: string;
  items: string[];
}

export interface Digest {
  subject: string;
  sections: DigestSection[];
}

const revWords = (r: RevisionInfo) => (r.commit === null ? r.rev : `${r.rev} (${r.committed_at ?? r.commit.slice(0, 12)})`);
const issue = (i: { id: string; title: string }) => `${i.id} ${i.title}`;

/** One person's (or nobody's) lists in a few items: what moved in the window first, then what stands. */
function listItems(l: StandupLists): string[] {
  const out: string[] = [];
  for (const i of l.done) out.push(`done ${issue(i)}`);
  for (const i of l.landed) out.push(`landed ${issue(i)} (merged ${i.merged.commit.slice(0, 12)})`);
  for (const i of l.started) out.push(`started ${issue(i)}`);
  for (const i of l.verify) out.push(`in VERIFY ${issue(i)}${i.stuck_days === null ? "" : ` (stuck ${i.stuck_days} days)`}`);
  for (const i of l.active) out.push(`ACTIVE ${issue(i)}${i.stuck_days === null ? "" : ` (stuck ${i.stuck_days} days)`}`);
  for (const i of l.blocked) out.push(`BLOCKED ${issue(i)}${i.blocked_by.length ? ` by ${i.blocked_by.map((b) => (b.owner ? `${b.entry} (${b.owner})` : b.entry)).join(", ")}` : ""}`);
  return out;
}

/**
 * The digest of a standup and the asks: who did what, the asks still open (oldest first) and
 * those answered in the window, the findings that came and went, the next issue. With `person`,
 * that person's entry and the asks they made or that are on their issues.
 */
export function digestOf(project: string, standup: PlanStandup, asks: AskView[], person?: string): Digest {
  const from = standup.since.committed_at ?? "";
  const people = person === undefined ? standup.people : standup.people.filter((p) => p.person === person);
  const theirs = new Set(people.flatMap((p) => [...p.done, ...p.started, ...p.verify, ...p.active, ...p.blocked, ...p.landed].map((i) => i.id)));
  const concerns = (a: AskView) => person === undefined || a.asker === person || theirs.has(a.issue);
  const open = asks.filter((a) => a.state === "open" && concerns(a));
  const answered = asks.filter((a) => a.state === "answered" && concerns(a) && (a.ended_at ?? "") >= from);
  const sections: DigestSection[] = [];
  const moves = people.map((p) => ({ p, items: listItems(p) })).filter((x) => x.items.length > 0);
  sections.push({
    heading: "Moves",
    items: moves.length ? moves.flatMap(({ p, items }) => items.map((i) => `${p.person}: ${i}`)) : ["nothing moved"],
  });
  if (person === undefined) {
    const nobody = listItems(standup.unowned);
    if (nobody.length) sections.push({ heading: "Nobody's", items: nobody });
  }
  sections.push({
    heading: `Asks waiting on a person (${open.length})`,
    items: open.length ? open.map((a) => `${a.issue} ${a.asker}, ${ageWords(a)} ago (${a.kind}, ${a.id}): ${a.question}`) : ["none"],
  });
  if (answered.length) sections.push({ heading: "Asks answered", items: answered.map((a) => `${a.issue} ${a.question} → ${answerWords(a.answer)} (${a.ended_by})`) });
  if (person === undefined) {
    const findings = [
      ...standup.findings.new.map((f) => `new ${f.level} ${f.code} ${f.subject}: ${f.message}`),
      ...standup.findings.resolved.map((f) => `resolved ${f.level} ${f.code} ${f.subject}: ${f.message}`),
      ...standup.findings.code.map((f) => `code ${f.level} ${f.code} ${f.subject}: ${f.message}`),
    ];
    sections.push({ heading: `Findings (${findings.length})`, items: findings.length ? findings : ["none new, none resolved"] });
    const next = standup.next.to === standup.next.from ? `next: ${standup.next.to ?? "none"}` : `next: ${standup.next.to ?? "none"} (was ${standup.next.from ?? "none"})`;
    const now = standup.roadmap.now.to === standup.roadmap.now.from ? `now: ${standup.roadmap.now.to ?? "none"}` : `now: ${standup.roadmap.now.to ?? "none"} (was ${standup.roadmap.now.from ?? "none"})`;
    sections.push({ heading: "Plan", items: [next, now] });
  }
  const who = person === undefined ? "" : ` for ${person}`;
  return { subject: `${project} digest${who}: since ${revWords(standup.since)} until ${standup.until.commit === null ? "now" : revWords(standup.until)}`, sections };
}

/** Plain text: the subject, then each section's heading and its items, indented. */
export function digestText(d: Digest): string {
  return [d.subject, ...d.sections.flatMap((s) => ["", `${s.heading}:`, ...s.items.map((i) => `  ${i}`)])].join("\n");
}

/** Markdown a chat tool or a mail renders: a bold subject, a heading and a list per section; the text escaped. */
export function digestMarkdown(d: Digest): string {
  const esc = (t: string) => t.replace(/([\\`*_[\]<>#|])/g, "\\$1");
  return [`**${esc(d.subject)}**`, ...d.sections.flatMap((s) => ["", `### ${esc(s.heading)}`, ...s.items.map((i) => `- ${esc(i)}`)])].join("\n");
}
