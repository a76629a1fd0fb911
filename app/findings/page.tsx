import { planValidateCapability } from "@/lib/capabilities/plan-validate";
import Link from "@/components/Link";
import { Card } from "@/components/Card";
import { IssueLink, MilestoneLink } from "@/components/IssueLink";
import type { PlanFinding, PlanValidation } from "@/lib/plan/shapes";
import { call, servedState } from "@/lib/surfaces/pages";

export const dynamic = "force-dynamic";
export const metadata = { title: "Findings" };

/** Each id of a finding's subject, linked to its record. */
function Subject({ f, milestones }: { f: PlanFinding; milestones: Set<string> }) {
  if (f.subject === "graph") return <Link href="/waves#cycle" className="font-mono text-blue-700 underline dark:text-blue-300">graph</Link>;
  if (f.subject === "PROJECT") return <Link href="/#project" className="font-mono text-blue-700 underline dark:text-blue-300">PROJECT</Link>;
  const ids = f.code === "milestone_cycle" ? f.subject.split(" ") : [f.subject];
  return (
    <>
      {ids.map((id, i) => (
        <span key={`${id}-${i}`}>
          {i > 0 && " "}
          {f.code === "unreadable_record" ? (
            <span className="font-mono">{id}</span>
          ) : milestones.has(id) ? (
            <MilestoneLink id={id}><span className="font-mono">{id}</span></MilestoneLink>
          ) : (
            <IssueLink id={id} />
          )}
        </span>
      ))}
    </>
  );
}

const UNREADABLE = /^(\S+) (.*?)(?: at line (\d+), column (\d+))?: (.*)$/;

function Message({ f }: { f: PlanFinding }) {
  if (f.code === "unreadable_record") {
    const m = UNREADABLE.exec(f.message);
    if (m && m[3]) {
      return (
        <span>
          <span className="font-mono">{m[1]}</span> line {m[3]}, column {m[4]}: {m[5]}
        </span>
      );
    }
  }
  return <span>{f.message}</span>;
}

export default async function FindingsPage() {
  const validation = await call(planValidateCapability);
  const milestones = new Set((await servedState()).plan.milestones.map((m) => m.id));
  const levels = ["FAIL", "WARN"] as const;
  return (
    <main className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold">Findings</h1>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        {validation.failures} failure(s) and {validation.warnings} warning(s) over {validation.milestones} milestones and {validation.issues} issues.{" "}
        {validation.valid ? "The model is valid." : "A failure means the model is invalid; a warning is legal and worth reading."}
      </p>
      {levels.map((level) => {
        const mine = validation.findings.filter((f) => f.level === level);
        const codes = [...new Set(mine.map((f) => f.code))];
        return (
          <Card key={level} id={level} title={`${level === "FAIL" ? "Failures" : "Warnings"} (${mine.length})`}>
            {codes.length === 0 && <p className="text-sm">None.</p>}
            {codes.map((code) => {
              const list = mine.filter((f) => f.code === code);
              return (
                <details key={code} open={list.length <= 20} className="mb-2" data-testid={`findings-${code}`}>
                  <summary className="cursor-pointer text-sm font-semibold">
                    <span className="font-mono">{code}</span> ({list.length})
                  </summary>
                  <ul className="ml-4 mt-1 text-sm">
                    {list.slice(0, 500).map((f, i) => (
                      <li key={i} className="py-0.5">
                        <Subject f={f} milestones={milestones} /> — <Message f={f} />
                      </li>
                    ))}
                    {list.length > 500 && <li>…and {list.length - 500} more (cockpit plan validate lists every one)</li>}
                  </ul>
                </details>
              );
            })}
          </Card>
        );
      })}
    </main>
  );
}
