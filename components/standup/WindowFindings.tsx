import { IssueLink, MilestoneLink } from "@/components/IssueLink";
import { FindingMessage, type KnownIds } from "@/components/FindingMessage";
import type { PlanFinding } from "@/lib/plan/shapes";

// The standup's findings of its window, in both views: the plan's new and resolved ones, then the
// code's (plan.code's, as of the window's end). Every id a message names is a link, as on /findings.

/** The plan's findings and the code's alike (a code finding's code is the Cockpit's own). */
type Finding = Pick<PlanFinding, "level" | "subject" | "message"> & { code: string };

export function WindowFindingItems({ added, resolved, code, ids }: { added: readonly Finding[]; resolved: readonly Finding[]; code: readonly Finding[]; ids: KnownIds }) {
  const subject = (s: string) => (ids.issues.has(s) ? <IssueLink id={s} /> : ids.milestones.has(s) ? <MilestoneLink id={s} /> : s);
  return (
    <>
      {added.map((f) => (
        <li key={`new ${f.level} ${f.code} ${f.subject} ${f.message}`}>
          <strong>new</strong> {f.level} <code>{f.code}</code> {subject(f.subject)}: <FindingMessage finding={f} ids={ids} />
        </li>
      ))}
      {resolved.map((f) => (
        <li key={`resolved ${f.level} ${f.code} ${f.subject} ${f.message}`}>
          <strong>resolved</strong> {f.level} <code>{f.code}</code> {subject(f.subject)}: <FindingMessage finding={f} ids={ids} />
        </li>
      ))}
      {code.map((f) => (
        <li key={`code ${f.code} ${f.subject} ${f.message}`} data-testid={`code-finding-${f.subject}-${f.code}`}>
          <strong>code</strong> {f.level} <code>{f.code}</code> <IssueLink id={f.subject} />: <FindingMessage finding={f} ids={ids} />
        </li>
      ))}
    </>
  );
}
