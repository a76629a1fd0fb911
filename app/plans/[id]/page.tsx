import { plansGetCapability } from "@/lib/capabilities/plans-get";
import Link from "@/components/Link";
import { callOrNotFound } from "@/app/lookup";
import { Card } from "@/components/Card";
import { IssueLink } from "@/components/IssueLink";
import { ChildActions, ClaimButton, DeletePlanButton } from "@/components/PlanActions";
import type { PlanView } from "@/lib/execution/coordinator";
import { servedState } from "@/lib/surfaces/pages";

export const dynamic = "force-dynamic";
export const metadata = { title: "Execution plan" };

const STATE_STYLE: Record<string, string> = {
  queued: "bg-slate-600 text-white",
  processing: "bg-blue-700 text-white",
  completed: "bg-green-700 text-white",
  errored: "bg-red-700 text-white",
  cancelled: "bg-zinc-600 text-white",
};

const CONFIG_NOTES: Record<string, string> = {
  execution_mode: "sequential runs one child at a time in wave order; parallel runs up to max_parallel at once",
  merge_strategy: "git's own three-way merge of a child's branch into the plan's integration branch",
  max_parallel: "how many children may process at once in parallel mode (1 to 50; default 5)",
  fail_fast: "default false here, where GitHub Actions and Argo default to true: a final failure in parallel mode lets the siblings go on",
  retry_failed: "default true: timeouts, transient errors and rate limits are retried",
  max_retries: "counts retries, not attempts: 2 means up to 3 attempts (default 2)",
  timeout: "seconds a child may process before it fails with category timeout (default none)",
};

function ChildRow({ child, tokens, depth = 0 }: { child: PlanView; tokens: Map<string, string[]>; depth?: number }) {
  return (
    <li className="py-2" style={{ paddingLeft: depth * 16 }} data-testid={`child-${child.plan_id}`}>
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className={`rounded px-1.5 text-xs font-semibold ${STATE_STYLE[child.processing_state] ?? ""}`} data-testid="child-state">
          {child.processing_state}
        </span>
        <span className="rounded border border-slate-300 px-1.5 text-xs dark:border-slate-600" data-testid="child-phase">
          {child.phase}
        </span>
        {child.issue && <IssueLink id={child.issue} />}
        <span className="text-xs text-slate-600 dark:text-slate-400">
          wave {child.wave ?? "—"} · attempt {child.attempt}
          {child.retry_of ? ` (retry of ${child.retry_of.slice(-6)})` : ""} · <span className="font-mono">{child.plan_id}</span>
        </span>
        {child.branch && <span className="font-mono text-xs">branch {child.branch}</span>}
      </div>
      {child.last_error && (
        <p className="text-xs text-red-700 dark:text-red-400">
          {child.last_error.category}: {child.last_error.message}
        </p>
      )}
      {child.cancel_reason && <p className="text-xs text-slate-600 dark:text-slate-400">cancelled: {child.cancel_reason}</p>}
      <ChildActions child={child.plan_id} phase={child.phase} isProcessing={child.processing_state === "processing"} tokens={tokens.get(child.issue ?? "") ?? []} />
      {child.children.length > 0 && (
        <ul>
          {child.children.map((c) => (
            <ChildRow key={c.plan_id} child={c} tokens={tokens} depth={depth + 1} />
          ))}
        </ul>
      )}
    </li>
  );
}

export default async function PlanPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const plan = await callOrNotFound(plansGetCapability, { id });
  const { records } = await servedState();
  const tokens = new Map(records.issues.map((r) => [r.id, r.evidence_required]));
  const config = plan.subplan_config ?? null;
  const terminal = ["completed", "errored", "cancelled"].includes(plan.processing_state);
  return (
    <main className="flex flex-col gap-6">
      <div>
        <p className="text-sm">
          <Link href="/plans" className="text-blue-700 underline dark:text-blue-300">
            Execution plans
          </Link>
        </p>
        <h1 className="text-2xl font-semibold">{plan.title}</h1>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          <span className="font-mono">{plan.plan_id}</span> · phase <strong data-testid="plan-phase">{plan.phase}</strong> · <strong data-testid="plan-state">{plan.processing_state}</strong>
          {plan.integration_branch && (
            <>
              {" "}
              · merges into <span className="font-mono">{plan.integration_branch}</span>
            </>
          )}
        </p>
        {plan.parent_plan_id === undefined && (
          <div className="mt-2">
            <DeletePlanButton root={plan.plan_id} childCount={plan.children.length} branch={plan.integration_branch} />
          </div>
        )}
      </div>
      <div className="grid gap-6 lg:grid-cols-[1fr_24rem]">
        <Card title="Children">
          {!terminal && <ClaimButton root={plan.plan_id} />}
          <ul className="mt-2 divide-y divide-slate-100 dark:divide-slate-800" data-testid="plan-tree">
            {plan.children.map((c) => (
              <ChildRow key={c.plan_id} child={c} tokens={tokens} />
            ))}
          </ul>
        </Card>
        <Card title="Config">
          {config ? (
            <dl className="text-sm" data-testid="plan-config">
              {Object.entries(config).map(([k, v]) => (
                <div key={k} className="mb-2">
                  <dt className="font-mono text-xs">
                    {k}: <strong>{v === null ? "none" : String(v)}</strong>
                  </dt>
                  <dd className="text-xs text-slate-600 dark:text-slate-400">{CONFIG_NOTES[k] ?? ""}</dd>
                </div>
              ))}
            </dl>
          ) : (
            <p className="text-sm">No config: this plan has not decomposed.</p>
          )}
        </Card>
      </div>
      <Card title="Timeline: every decision and its reason">
        <ol className="text-sm" data-testid="plan-timeline">
          {plan.events.map((e) => (
            <li key={e.id} className="grid grid-cols-[12rem_10rem_1fr] gap-2 border-t border-slate-100 py-1 dark:border-slate-800">
              <span className="font-mono text-xs">{e.at.replace("T", " ").slice(0, 19)}</span>
              <span className="font-mono text-xs">{e.kind}</span>
              <span>{e.reason}</span>
            </li>
          ))}
        </ol>
      </Card>
    </main>
  );
}
