import { issueCodeOf } from "@/lib/code/shapes";
import { planCodeCapability } from "@/lib/capabilities/plan-code";
import { planRecordCapability } from "@/lib/capabilities/plan-record";
import { notFound } from "next/navigation";
import { callOrNotFound } from "@/app/lookup";
import { Card } from "@/components/Card";
import { EvidenceForm } from "@/components/EvidenceForm";
import { UnsealedNote } from "@/components/UnsealedNote";
import { unsealedWarning } from "@/lib/plan/unsealed";
import { EvidenceCoverage, evidenceTitle } from "@/components/EvidenceCoverage";
import { FindingMessage, knownIds } from "@/components/FindingMessage";
import { missingEvidence } from "@/lib/plan/evidence-coverage";
import { RecordEditor } from "@/components/RecordEditor";
import { editorProps } from "@/app/editor-props";
import { FieldList } from "@/components/FieldValue";
import { LeaseNote } from "@/components/LeaseNote";
import { RecordTimeline } from "@/components/RecordTimeline";
import { HandoffCard } from "@/components/HandoffCard";
import { BlockerLink, IssueLink, MilestoneLink } from "@/components/IssueLink";
import { StatusBadge } from "@/components/StatusBadge";
import { TransitionButtons, type MoveOption, type Suggestion } from "@/components/TransitionButtons";
import { CodePanel } from "@/components/CodePanel";
import { suggestedMove } from "@/lib/code/links";
import type { IssueCode } from "@/lib/code/shapes";
import { isProven } from "@/lib/plan/derive";
import { MOVES, MOVE_NAMES } from "@/lib/plan/seal";
import type { PlanFinding } from "@/lib/plan/shapes";
import { call, servedState } from "@/lib/surfaces/pages";
import { pageText } from "@/lib/surfaces/page-text";

export const dynamic = "force-dynamic";

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return { title: decodeURIComponent(id) };
}

function mentions(f: PlanFinding, id: string): boolean {
  if (f.subject === id) return true;
  if (f.code === "scope_conflict") return f.message.includes(` with ${id};`);
  if (f.code === "cycle") return f.message.split(": ").pop()!.split(" ").includes(id);
  return false;
}

export default async function IssuePage({ params }: { params: Promise<{ id: string }> }) {
  const id = decodeURIComponent((await params).id);
  const found = await callOrNotFound(planRecordCapability, { id });
  if (!("issue" in found)) notFound();
  const { plan, records } = await servedState();
  const served = found.issue;
  const heldElsewhere = served.lease ? `held by ${served.lease.holder} since ${served.lease.since}` : undefined;
  const options: MoveOption[] = pageText(
    MOVE_NAMES.map((move) => ({
      move,
      refusal: found.moves?.find((m) => m.move === move)?.refusal ?? (move === "start" ? heldElsewhere : undefined),
    })),
  );
  // What is shown is the page's text; ids the buttons send and the seal checks keep the records' own.
  const record = pageText(found);
  const issue = record.issue;
  const lease = issue.lease;
  const written = records.issues.find((r) => r.id === id);
  const raw = pageText(written);
  const editor = editorProps("issue", id, found, records.milestones.map((m) => m.id));
  const findings = pageText(plan.findings.filter((f) => mentions(f, id)));
  const ids = knownIds(plan);
  const code = pageText(issueCodeOf(await call(planCodeCapability, { id })));
  const suggestion = suggestionOf(code, issue.status, options);
  return (
    <main className="flex flex-col gap-6">
      <div>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          Issue of milestone {issue.milestone ? <MilestoneLink id={issue.milestone} /> : "(none)"}
        </p>
        <h1 className="flex items-center gap-3 text-2xl font-semibold">
          <span className="font-mono">{issue.id}</span>
          <span data-testid="issue-status">
            <StatusBadge status={issue.status} />
          </span>
          <LeaseNote lease={lease} />
        </h1>
        <p className="text-lg">{issue.title}</p>
        <UnsealedNote warning={pageText(unsealedWarning(plan, served.id))} />
      </div>

      <div className="grid gap-6 lg:grid-cols-2">
        <Card title="Move it">
          <TransitionButtons issue={served.id} options={options} status={served.status} />
        </Card>
        <Card title="Where it stands">
          <dl className="grid grid-cols-[minmax(5rem,9rem)_minmax(0,1fr)] gap-y-1 text-sm">
            <dt>Status</dt>
            <dd>{issue.status}</dd>
            {lease && (
              <>
                <dt>Held by</dt>
                <dd data-testid="lease-holder">
                  <span className="font-mono">{lease.holder}</span> since {lease.since} (lease expires {lease.expires})
                </dd>
              </>
            )}
            <dt>Wave</dt>
            <dd>{plan.waves.some((w) => w.issues.includes(served.id)) ? issue.wave : "none (in or after a cycle)"}</dd>
            <dt>Waits on</dt>
            <dd data-testid="blocked-by">
              {issue.blocked_by.length === 0
                ? "nothing"
                : issue.blocked_by.map((b, i) => (
                    <span key={`${b}-${i}`}>
                      {i > 0 && ", "}
                      <BlockerLink entry={b} />
                    </span>
                  ))}
            </dd>
            <dt>Depends on</dt>
            <dd>
              {issue.depends_on.length === 0
                ? "nothing"
                : issue.depends_on.map((d, i) => (
                    <span key={`${d}-${i}`}>
                      {i > 0 && ", "}
                      {record.depends_on.some((x) => x.id === d) ? <IssueLink id={d} /> : <span className="font-mono">{d} (not an issue)</span>}
                    </span>
                  ))}
            </dd>
            <dt>Unblocks</dt>
            <dd>
              {issue.dependents.length === 0
                ? "nothing"
                : issue.dependents.map((d, i) => (
                    <span key={d}>
                      {i > 0 && ", "}
                      <IssueLink id={d} />
                    </span>
                  ))}
            </dd>
            <dt>Scope</dt>
            <dd className="font-mono text-xs">{issue.scope.length ? issue.scope.join(", ") : "none"}</dd>
            <dt>Priority</dt>
            <dd>{issue.priority || "none"}</dd>
            <dt>Profile</dt>
            <dd>{issue.profile || "none"}</dd>
          </dl>
        </Card>
      </div>

      <Card title={`Code: ${code.branches.length} branch${code.branches.length === 1 ? "" : "es"}, ${code.commits.length} commit${code.commits.length === 1 ? "" : "s"}`}>
        <CodePanel code={code} suggestion={suggestion} />
      </Card>

      <Card title="Edit it">
        <RecordEditor {...editor} values={pageText(editor.values)} />
      </Card>

      <div className="grid gap-6 lg:grid-cols-2">
        <Card title={evidenceTitle(raw)}>
          <EvidenceCoverage record={raw} />
          <EvidenceForm record={served.id} tokens={written?.evidence_required ?? []} missing={written ? missingEvidence(written) : []} />
        </Card>
        <Card title="Stamps">
          <table className="w-full text-sm" data-testid="stamps">
            <thead className="text-left text-xs text-slate-600 dark:text-slate-400">
              <tr>
                <th className="font-medium">Move</th>
                <th className="font-medium">Stamp</th>
                <th className="font-medium">Seal</th>
              </tr>
            </thead>
            <tbody>
              {MOVE_NAMES.map((move) => {
                const { field, seal } = MOVES[move];
                const stamp = raw?.[field] ?? "";
                const sealed = written && stamp !== "" && isProven(written, move);
                return (
                  <tr key={move}>
                    <td>{field}</td>
                    <td className="font-mono text-xs">{stamp || "—"}</td>
                    <td className="text-xs">
                      {stamp === "" ? "—" : sealed ? (written![seal] ? "sealed" : "listed as pre-seal") : "not sealed: it moves no status (cockpit plan adopt admits a pre-seal stamp)"}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </Card>
      </div>

      {/* The plan's findings and what the code says, counted together as the standup counts them. */}
      <Card title={`Findings about it (${findings.length + code.findings.length})`}>
        {findings.length + code.findings.length === 0 ? (
          <p className="text-sm">None.</p>
        ) : (
          <ul className="text-sm" data-testid="issue-findings">
            {[...findings.map((f) => ({ f, fromCode: false })), ...code.findings.map((f) => ({ f, fromCode: true }))].map(({ f, fromCode }, i) => (
              <li key={i} data-testid={fromCode ? "issue-code-finding" : undefined}>
                <span className={f.level === "FAIL" ? "font-semibold text-red-700 dark:text-red-400" : "font-semibold text-amber-800 dark:text-amber-400"}>{f.level}</span>{" "}
                <span className="font-mono text-xs">{f.code}</span>{" "}
                {fromCode && <span className="rounded border border-slate-400 px-1 text-xs text-slate-700 dark:border-slate-500 dark:text-slate-300">code</span>}{" "}
                {f.subject !== id && <>{ids.milestones.has(f.subject) ? <MilestoneLink id={f.subject} /> : ids.issues.has(f.subject) ? <IssueLink id={f.subject} /> : <span className="font-mono">{f.subject}</span>}{" "}</>}
                <FindingMessage finding={f} ids={ids} />
              </li>
            ))}
          </ul>
        )}
      </Card>

      {record.handoff && <HandoffCard handoff={record.handoff} />}
      <RecordTimeline id={id} kind="issue" />

      <Card title={record.path ? `Every field (${record.path})` : "Every field"}>
        {record.record ? (
          <FieldList fields={Object.entries(record.record)} className="grid grid-cols-[minmax(6rem,12rem)_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm" />
        ) : (
          <p className="text-sm">The file could not be read.</p>
        )}
      </Card>
    </main>
  );
}

/** The status each move leads to. */
const AFTER = { start: "ACTIVE", verify: "VERIFY", done: "DONE" } as const;

/** The move the code's first finding that suggests one suggests, with the guard's refusal if any. */
function suggestionOf(code: IssueCode, status: string, options: MoveOption[]): Suggestion | undefined {
  for (const f of code.findings) {
    const move = suggestedMove(f);
    if (!move) continue;
    return { move, from: status, to: AFTER[move], why: f.message, refusal: options.find((o) => o.move === move)?.refusal };
  }
  return undefined;
}
