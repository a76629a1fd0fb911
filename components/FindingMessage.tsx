import { IssueLink, MilestoneLink } from "@/components/IssueLink";
import { splitIds } from "@/lib/plan/finding-query";
import type { Plan, PlanFinding } from "@/lib/plan/shapes";

// A finding's message as the pages show it: every id it names is a link to its record (both issues
// of a scope conflict, a missing dependency's waiter), wherever findings are listed.

/** The ids a message may name, and which of them are milestones. */
export interface KnownIds {
  issues: ReadonlySet<string>;
  milestones: ReadonlySet<string>;
}

export const knownIds = (plan: Pick<Plan, "issues" | "milestones">): KnownIds => ({
  issues: new Set(plan.issues.map((i) => i.id)),
  milestones: new Set(plan.milestones.map((m) => m.id)),
});

const UNREADABLE = /^(\S+) (.*?)(?: at line (\d+), column (\d+))?: (.*)$/;

/** Any finding's message: the plan's (PlanFinding) or the code's, whose codes are the Cockpit's own. */
export function FindingMessage({ finding: f, ids }: { finding: Pick<PlanFinding, "message"> & { code: string }; ids: KnownIds }) {
  if (f.code === "unreadable_record") {
    const m = UNREADABLE.exec(f.message);
    if (m && m[3]) {
      return (
        <span>
          <span className="font-mono">{m[1]}</span> line {m[3]}, column {m[4]}: {m[5]}
        </span>
      );
    }
    return <span>{f.message}</span>;
  }
  const isId = (token: string) => ids.issues.has(token) || ids.milestones.has(token);
  return (
    <span data-testid="finding-message">
      {splitIds(f.message, isId).map((part, i) =>
        !part.isId ? <span key={i}>{part.text}</span> : ids.milestones.has(part.text) ? <MilestoneLink key={i} id={part.text} /> : <IssueLink key={i} id={part.text} />,
      )}
    </span>
  );
}
