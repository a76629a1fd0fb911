// Create an execution plan for a milestone or a list of issues: the root, one child per issue.
import { invalidInput, notFound, refused } from "../../plan/errors";
import { loadPlan } from "../../repo";
import { compareBytes } from "../../plan/text";
import type { PlanIssue } from "../../plan/shapes";
import { parseSubplanConfig, type SubplanConfig } from "../config";
import { headCommit, updateRef, ZERO_OID } from "../git";
import { childIdentity, movePhase, rootIdentity } from "../model";
import { newPlanRow, withStore } from "../store";
import { clock, event, integrationBranchName, iso } from "./shared";
import { tickInTx } from "./tick";
import { type CreateOptions, type ExecutionTarget, type PlanDetail, detail } from "./views";

/**
 * Decompose a milestone (or a list of issues) into a root plan with one child per issue that is not
 * DONE or CANCELLED, each remembering its issue and wave. The root is in `execute`, processing;
 * the children queued in `strategize`, attempt 1. When the repository has a commit, the root gets
 * the integration branch `cockpit/plan-<root id lowercase>` at HEAD.
 */
/** What a decomposition would make, written nowhere (plans.create with dry_run). */
export interface DecomposePreview {
  dry_run: true;
  title: string;
  children: { issue: string; title: string; wave: number; status: string }[];
  skipped: { issue: string; status: string }[];
  waves: number;
  config: SubplanConfig;
  /** The integration branch it would make at HEAD (null: the repository has no commit). */
  integration_branch: string | null;
  base_commit: string | null;
}

export async function createExecutionPlan(repo: string, target: ExecutionTarget, config: unknown, o: CreateOptions & { dryRun: true }): Promise<DecomposePreview>;
export async function createExecutionPlan(repo: string, target: ExecutionTarget, config?: unknown, o?: CreateOptions): Promise<PlanDetail>;
export async function createExecutionPlan(repo: string, target: ExecutionTarget, config?: unknown, o: CreateOptions & { dryRun?: true } = {}): Promise<PlanDetail | DecomposePreview> {
  const subplanConfig = parseSubplanConfig(config ?? {});
  const plan = loadPlan(repo);
  let title: string;
  let wanted: PlanIssue[];
  let storedTarget: ExecutionTarget;
  const isObject = typeof target === "object" && target !== null;
  if (isObject && "milestone" in target && typeof target.milestone === "string") {
    if (!plan.milestones.some((m) => m.id === target.milestone)) throw notFound(`no milestone '${target.milestone}'`);
    wanted = plan.issues.filter((i) => i.milestone === target.milestone);
    title = `deliver milestone ${target.milestone}`;
    storedTarget = { milestone: target.milestone };
  } else if (isObject && "issues" in target && Array.isArray(target.issues)) {
    if (target.issues.length === 0) throw invalidInput("issues names no issue to execute");
    const ids = [...new Set(target.issues)];
    wanted = ids.map((id) => {
      const issue = plan.issues.find((i) => i.id === id);
      if (!issue) throw notFound(`no issue '${id}'; cockpit plan issues lists every one`);
      return issue;
    });
    title = `do ${ids.join(", ")}`;
    storedTarget = { issues: ids };
  } else {
    throw invalidInput("an execution plan is made for { milestone } or { issues: [...] }");
  }
  const todo = wanted.filter((i) => i.status !== "DONE" && i.status !== "CANCELLED").sort((a, b) => a.wave - b.wave || compareBytes(a.id, b.id));
  if (todo.length === 0) {
    throw refused(`nothing to execute: every issue of ${"milestone" in storedTarget ? `milestone ${storedTarget.milestone}` : "the list"} is DONE or CANCELLED`);
  }
  const placed = new Set(plan.waves.flatMap((w) => w.issues));
  const cyclic = todo.filter((i) => !placed.has(i.id)).map((i) => i.id);
  if (cyclic.length > 0) throw invalidInput(`${cyclic.join(" ")} ${cyclic.length === 1 ? "is" : "are"} in a dependency cycle; no execution order exists`);
  const skipped = wanted.filter((i) => !todo.includes(i));

  const now = clock(o);
  const at = iso(now);
  const identity = rootIdentity();
  const head = await headCommit(repo);
  if (o.dryRun) {
    return {
      dry_run: true,
      title,
      children: todo.map((i) => ({ issue: i.id, title: i.title, wave: i.wave, status: i.status })),
      skipped: skipped.map((i) => ({ issue: i.id, status: i.status })),
      waves: new Set(todo.map((i) => i.wave)).size,
      config: subplanConfig,
      integration_branch: head ? integrationBranchName(identity.plan_id) : null,
      base_commit: head ?? null,
    };
  }
  let integration: string | null = null;
  if (head) {
    integration = integrationBranchName(identity.plan_id);
    if (!(await updateRef(repo, `refs/heads/${integration}`, head, ZERO_OID, `cockpit: integration branch of execution plan ${identity.plan_id}`))) {
      throw refused(`cannot create the integration branch ${integration} at ${head}`);
    }
  }
  return withStore(repo, o.config, (store) =>
    store.write(async (tx) => {
      await tickInTx(tx, repo, now);
      const root = await tx.insertPlan(
        newPlanRow({
          ...identity,
          root_plan_id: identity.plan_id,
          automation_profile: o.automation_profile ?? null,
          title,
          target: storedTarget,
          integration_branch: integration,
          base_commit: head ?? null,
          created_at: at,
        }),
      );
      await event(tx, root, at, "created", `execution plan created to ${title}; it starts in strategize`, { target: storedTarget });
      if (integration) {
        await event(tx, root, at, "integration_branch", `children's branches merge into ${integration}, created at HEAD ${head}`, { branch: integration, base: head });
      } else {
        await event(tx, root, at, "integration_branch", "the repository has no commit yet, so there is no integration branch; children apply without merging");
      }
      for (const issue of todo) {
        const c = await tx.insertPlan(
          newPlanRow({
            ...childIdentity(identity),
            root_plan_id: identity.plan_id,
            automation_profile: o.automation_profile ?? null,
            title: issue.title,
            issue_id: issue.id,
            wave: issue.wave,
            created_at: at,
          }),
        );
        await event(tx, c, at, "child_created", `child for issue ${issue.id} (wave ${issue.wave}, ${issue.status})`, { issue: issue.id, wave: issue.wave });
      }
      const moved = movePhase(root, "execute");
      await tx.updatePlan(root.plan_id, { phase: moved.phase, processing_state: "processing", subplan_config: subplanConfig, processing_started_at: at }, at);
      const waves = [...new Set(todo.map((i) => i.wave))];
      event(
        tx,
        root,
        at,
        "decomposed",
        `strategize → execute: ${todo.length} children in ${waves.length} wave(s) (${subplanConfig.execution_mode}, max_parallel ${subplanConfig.max_parallel})` +
          (skipped.length ? `; skipped ${skipped.map((i) => `${i.id} (${i.status})`).join(", ")}` : ""),
        { children: todo.map((i) => i.id), skipped: skipped.map((i) => i.id), config: subplanConfig },
      );
      return await detail(tx, root.plan_id);
    }),
  );
}
