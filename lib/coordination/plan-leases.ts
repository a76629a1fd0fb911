import type { CockpitConfig } from "../config";
import { processWide } from "../process-wide";
import { loadPlan } from "../repo";
import type { Move } from "../plan/seal";
import type { WriteOptions } from "../repo/transition";
import type { Plan } from "../plan/shapes";
import { databaseUrl, redactUrl } from "./database";
import { endOwnLease, holderOf, leaseTtlSeconds, liveLeases, overlayLeases, projectKey, readHolder, releaseLease, renewLeases, takeFirstFree, takeLease, type Lease } from "./leases";

// Leases as the plan commands use them: taken inside the plan lock before the record is written,
// ended when the holder's record reaches VERIFY or DONE. Without a database, all of this is inert.

/** The lease hooks of `start` and `claim` for a repository; empty when no database is configured. */
export function leaseWriteOptions(repo: string, plan: () => Plan, config?: CockpitConfig): Pick<WriteOptions, "beforeWrite" | "choose"> {
  const url = databaseUrl(config);
  if (!url) return {};
  return {
    beforeWrite: async (issue, move) => {
      if (move === "start") await takeLease(url, projectKey(plan()), issue.id, await holderOf(repo));
    },
    choose: async (candidates) => {
      const id = await takeFirstFree(url, projectKey(plan()), candidates.map((c) => c.id), await holderOf(repo));
      return candidates.find((c) => c.id === id);
    },
  };
}

/**
 * After a move: VERIFY or DONE ends this clone's lease; any other command on an issue renews it.
 * The record is already written, so a database that cannot be reached is reported, not thrown:
 * the lease then ends at its expiry.
 */
export async function afterIssueWrite(repo: string, plan: () => Plan, issue: string, move: Move | "evidence", config?: CockpitConfig): Promise<void> {
  const url = databaseUrl(config);
  const holder = readHolder(repo);
  if (!url || !holder) return;
  try {
    if (move === "verify" || move === "done") await endOwnLease(url, projectKey(plan()), issue, holder);
    else await renewLeases(url, projectKey(plan()), holder, [issue]);
  } catch (error) {
    console.error(`[cockpit] the lease on ${issue} was not updated (${error instanceof Error ? error.message : String(error)}); it ends at its expiry`);
  }
}

const warned = processWide("lease-warnings", () => new Set<string>());

/**
 * The live leases for a read, or undefined: no database configured, or one that cannot be reached
 * (then reads answer from the files alone, and the first failure is logged).
 */
export async function leasesForRead(plan: Plan, config?: CockpitConfig): Promise<Map<string, Lease> | undefined> {
  const url = databaseUrl(config);
  if (!url) return undefined;
  try {
    return await liveLeases(url, projectKey(plan));
  } catch (error) {
    const key = redactUrl(url);
    if (!warned.has(key)) {
      warned.add(key);
      console.error(`[cockpit] ${error instanceof Error ? error.message : String(error)}; answering from the files alone`);
    }
    return undefined;
  }
}

/** A plan getter with the leases laid over it, and the `prepare` that fetches them. */
export function leasedPlan(derived: () => Plan, config?: CockpitConfig): { plan: () => Plan; prepare: () => Promise<void> } {
  let leases: Map<string, Lease> | undefined;
  return {
    plan: () => (leases ? overlayLeases(derived(), leases) : derived()),
    prepare: async () => {
      // Without a database there are no leases, and the plan is not derived here: a query that
      // derives it while git reads (plan.code) keeps that overlap.
      if (!databaseUrl(config)) return;
      leases = await leasesForRead(derived(), config);
    },
  };
}

/** Renew this clone's leases on the issues its files show ACTIVE (a server or agent at work). */
export async function renewActiveLeases(repo: string, plan: Plan, config?: CockpitConfig): Promise<number> {
  const url = databaseUrl(config);
  const holder = readHolder(repo);
  if (!url || !holder) return 0;
  const active = plan.issues.filter((i) => i.status === "ACTIVE").map((i) => i.id);
  return renewLeases(url, projectKey(plan), holder, active);
}

/**
 * While a server or an MCP session runs on a clone, it renews that clone's leases on the issues
 * its files show ACTIVE: every quarter of the lease's life, at most every 10 minutes. Returns the
 * stop. Nothing runs without a database.
 */
export function startLeaseRenewal(repo: string, config?: CockpitConfig): () => void {
  if (!databaseUrl(config)) return () => undefined;
  const every = Math.min(leaseTtlSeconds() / 4, 600) * 1000;
  let failing = false;
  const timer = setInterval(() => {
    renewActiveLeases(repo, loadPlan(repo), config).then(
      () => (failing = false),
      (error: unknown) => {
        if (!failing) console.error(`[cockpit] lease renewal: ${error instanceof Error ? error.message : String(error)}`);
        failing = true;
      },
    );
  }, every);
  timer.unref();
  return () => clearInterval(timer);
}

export { releaseLease, holderOf, readHolder, projectKey };

/**
 * Starts undone (a following server's command the remote decided against): this clone's leases on
 * those issues end at once, so another clone may take them now rather than at the expiry. A
 * database that cannot be reached is reported, not thrown: the undo is already done.
 */
export async function releaseUndoneStarts(repo: string, plan: () => Plan, issues: readonly string[], config?: CockpitConfig): Promise<void> {
  const url = databaseUrl(config);
  const holder = readHolder(repo);
  if (!url || !holder || issues.length === 0) return;
  for (const issue of issues) {
    try {
      await endOwnLease(url, projectKey(plan()), issue, holder);
    } catch (error) {
      console.error(`[cockpit] the lease on ${issue} was not released after its start was undone (${error instanceof Error ? error.message : String(error)}); it ends at its expiry`);
    }
  }
}
