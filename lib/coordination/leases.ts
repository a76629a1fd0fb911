import { randomBytes } from "node:crypto";
import { closeSync, constants, rmSync } from "node:fs";
import { hostname } from "node:os";
import { basename, join } from "node:path";
import { leaseTtlSeconds } from "../config";
import { notFound, refused } from "../plan/errors";
import { writeAll } from "../repo/write";
import { openStateFile, readStateFile, requireState } from "../repo/state-path";
import type { Plan, PlanIssue } from "../plan/shapes";
import { withDatabase } from "./database";

/** A live lease on an issue, as the derived plan shows it (times are UTC, second precision). */
export interface Lease {
  holder: string;
  since: string;
  expires: string;
}

/** The clone's holder id: created by the first command that takes or releases a lease. */
export const HOLDER_FILE = ".ai/local/state/holder";

/** How long a lease lives without renewal (lib/config.ts: 2 hours, or COCKPIT_LEASE_TTL_S seconds). */
export { leaseTtlSeconds };

/** This clone's holder id, or undefined when none was made yet (reads never make one, nor read it through a link). */
export function readHolder(repo: string): string | undefined {
  const id = readStateFile(repo, HOLDER_FILE)?.toString("utf8").trim();
  return id === "" ? undefined : id;
}

/** This clone's holder id, made on first need: host, folder and a random part (two clones, two holders). */
export async function holderOf(repo: string): Promise<string> {
  await requireState(repo, [HOLDER_FILE]);
  const known = readHolder(repo);
  if (known) return known;
  const id = `${hostname()}:${basename(repo)}:${randomBytes(4).toString("hex")}`;
  let fd: number;
  try {
    fd = openStateFile(repo, HOLDER_FILE, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return readHolder(repo) ?? id; // another process of this clone made it first
    throw error;
  }
  try {
    writeAll(fd, Buffer.from(id + "\n"));
  } catch (error) {
    closeSync(fd);
    rmSync(join(repo, HOLDER_FILE), { force: true });
    throw error;
  }
  closeSync(fd);
  return id;
}

/** The key that keeps plans apart in one database: the project's repository, else its name. */
export function projectKey(plan: Plan): string {
  return plan.project.repository || plan.project.name || "default";
}

const stamp = (d: Date) => d.toISOString().slice(0, 19) + "Z";

interface Row {
  issue: string;
  holder: string;
  acquired: Date;
  expires: Date;
}

const toLease = (r: Row): Lease => ({ holder: r.holder, since: stamp(r.acquired), expires: stamp(r.expires) });

export function heldElsewhere(id: string, lease: Lease): string {
  return `${id} is held by ${lease.holder} since ${lease.since} (lease expires ${lease.expires}); take another issue, or ask the holder (a lead may run: cockpit plan release ${id} --force)`;
}

// Take or renew: a free, expired or own row becomes this holder's; a live row of another holder
// is left as it is and no row comes back. Concurrent takers of one issue queue on its row.
const TAKE = `INSERT INTO cockpit_leases (project, issue, holder, acquired, expires)
  VALUES ($1, $2, $3, now(), now() + make_interval(secs => $4))
  ON CONFLICT (project, issue) DO UPDATE SET
    holder = EXCLUDED.holder,
    acquired = CASE WHEN cockpit_leases.holder = EXCLUDED.holder AND cockpit_leases.expires > now()
                    THEN cockpit_leases.acquired ELSE EXCLUDED.acquired END,
    expires = EXCLUDED.expires
  WHERE cockpit_leases.holder = EXCLUDED.holder OR cockpit_leases.expires <= now()
  RETURNING issue, holder, acquired, expires`;

/** Take the lease on one issue for `holder`, or refuse naming the live holder. */
export async function takeLease(url: string, project: string, issue: string, holder: string): Promise<Lease> {
  const refusal = await withDatabase(url, async (db) => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const taken = await db.query<Row>(TAKE, [project, issue, holder, leaseTtlSeconds()]);
      if (taken.rows[0]) return toLease(taken.rows[0]);
      const other = await db.query<Row>(
        "SELECT issue, holder, acquired, expires FROM cockpit_leases WHERE project = $1 AND issue = $2 AND expires > now()",
        [project, issue],
      );
      if (other.rows[0]) return heldElsewhere(issue, toLease(other.rows[0]));
    }
    return `${issue}: its lease changed hands three times while it was being taken; try again`;
  });
  if (typeof refusal === "string") throw refused(refusal);
  return refusal;
}

/**
 * Of the candidates, in order, take the first one no other live holder has; undefined when every
 * one is held elsewhere. Each take is one statement (one transaction), so concurrent claimers on
 * any number of machines end with distinct issues.
 */
export async function takeFirstFree(url: string, project: string, candidates: readonly string[], holder: string): Promise<string | undefined> {
  if (candidates.length === 0) return undefined;
  return withDatabase(url, async (db) => {
    const held = await db.query<{ issue: string }>(
      "SELECT issue FROM cockpit_leases WHERE project = $1 AND issue = ANY($2) AND holder <> $3 AND expires > now()",
      [project, candidates, holder],
    );
    const busy = new Set(held.rows.map((r) => r.issue));
    for (const issue of candidates) {
      if (busy.has(issue)) continue;
      const taken = await db.query<Row>(TAKE, [project, issue, holder, leaseTtlSeconds()]);
      if (taken.rows[0]) return issue;
    }
    return undefined;
  });
}

/** End a lease; without `force`, only the holder's own. Answers whether a lease was ended. */
export async function releaseLease(
  url: string,
  project: string,
  issue: string,
  holder: string | undefined,
  force: boolean,
): Promise<{ released: boolean; holder?: string }> {
  const outcome = await withDatabase(url, async (db) => {
    const row = await db.query<Row>(
      "SELECT issue, holder, acquired, expires FROM cockpit_leases WHERE project = $1 AND issue = $2",
      [project, issue],
    );
    const lease = row.rows[0];
    if (!lease) return { released: false };
    const live = lease.expires.getTime() > Date.now();
    if (!force && live && lease.holder !== holder) return heldElsewhere(issue, toLease(lease)).replace("; take another issue, or ask the holder", "; only its holder releases it");
    const gone = await db.query("DELETE FROM cockpit_leases WHERE project = $1 AND issue = $2 AND holder = $3", [project, issue, lease.holder]);
    return { released: (gone.rowCount ?? 0) > 0, holder: lease.holder };
  });
  if (typeof outcome === "string") throw refused(outcome);
  return outcome;
}

/** End this holder's own lease on an issue, if it has one (its record reached VERIFY or DONE). */
export async function endOwnLease(url: string, project: string, issue: string, holder: string): Promise<boolean> {
  return withDatabase(url, async (db) => {
    const r = await db.query("DELETE FROM cockpit_leases WHERE project = $1 AND issue = $2 AND holder = $3", [project, issue, holder]);
    return (r.rowCount ?? 0) > 0;
  });
}

/** Push the expiry of every lease of this holder on these issues (the ones it is working on). */
export async function renewLeases(url: string, project: string, holder: string, issues: readonly string[]): Promise<number> {
  if (issues.length === 0) return 0;
  return withDatabase(url, async (db) => {
    const r = await db.query(
      "UPDATE cockpit_leases SET expires = now() + make_interval(secs => $4) WHERE project = $1 AND holder = $2 AND issue = ANY($3) AND expires > now()",
      [project, holder, issues, leaseTtlSeconds()],
    );
    return r.rowCount ?? 0;
  });
}

/** Every live lease of a project. */
export async function liveLeases(url: string, project: string): Promise<Map<string, Lease>> {
  return withDatabase(url, async (db) => {
    const r = await db.query<Row>(
      "SELECT issue, holder, acquired, expires FROM cockpit_leases WHERE project = $1 AND expires > now()",
      [project],
    );
    return new Map(r.rows.map((row) => [row.issue, toLease(row)]));
  });
}

/**
 * The plan with `lease` on each issue a live lease holds: an overlay on the derivation, never a
 * write. The status stays as the files say.
 */
export function overlayLeases(plan: Plan, leases: ReadonlyMap<string, Lease>): Plan {
  if (leases.size === 0) return plan;
  let touched = false;
  const issues = plan.issues.map((issue): PlanIssue => {
    const lease = leases.get(issue.id);
    if (!lease) return issue;
    touched = true;
    return { ...issue, lease };
  });
  return touched ? { ...plan, issues } : plan;
}

export function requireIssue(plan: Plan, id: string): PlanIssue {
  const issue = plan.issues.find((i) => i.id === id);
  if (!issue) throw notFound(`no issue '${id}'; cockpit plan issues lists every one`);
  return issue;
}
