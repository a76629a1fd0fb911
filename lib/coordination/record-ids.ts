import type { CockpitConfig } from "../config";
import { refused } from "../plan/errors";
import { nextId, type IdReserver } from "../repo/plan-edit";
import type { Plan } from "../plan/shapes";
import { databaseUrl, withDatabase } from "./database";
import { holderOf, projectKey } from "./leases";

// Record ids reserved in the shared database: plan.create mints (or takes a given id) inside the
// plan lock and inserts it here, so clones of one origin that have not pulled each other's records
// still never write the same id. Without a database, nothing of this runs.

/** How often a mint re-reads the reservations after losing a race for a number. */
const MINT_ATTEMPTS = 50;

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The part of an id before its number (`I` of `I0834`, `BK-` of `BK-034`). */
function prefixOf(id: string): string | undefined {
  return /^(.*?)[0-9]+$/.exec(id)?.[1];
}

const stamp = (d: Date) => d.toISOString().slice(0, 19) + "Z";

function reservedElsewhere(id: string, holder: string, since: Date): string {
  return `'${id}' is reserved by ${holder} since ${stamp(since)} in the shared database (another clone minted or took it); leave out the id to mint a free one, or give another`;
}

/**
 * Reserve the next id of the plan's pattern for `holder`: the number after the highest of the
 * files' ids and the ids the project has reserved with the same prefix. A number another clone
 * inserts first is read again and the next one tried. Undefined when the ids follow no pattern.
 */
export async function mintReservedId(url: string, project: string, holder: string, fileIds: readonly string[], fallbackPrefix: string): Promise<string | undefined> {
  const fromFiles = nextId(fileIds, fallbackPrefix);
  if (fromFiles === undefined) return undefined;
  const prefix = prefixOf(fromFiles) ?? "";
  const samePattern = new RegExp(`^${escapeRegExp(prefix)}[0-9]+$`);
  return withDatabase(url, async (db) => {
    for (let attempt = 0; attempt < MINT_ATTEMPTS; attempt++) {
      const reserved = await db.query<{ id: string }>("SELECT id FROM cockpit_record_ids WHERE project = $1 AND starts_with(id, $2)", [project, prefix]);
      const candidate = nextId([...fileIds, ...reserved.rows.map((r) => r.id).filter((id) => samePattern.test(id))], fallbackPrefix)!;
      const taken = await db.query(
        "INSERT INTO cockpit_record_ids (project, id, holder, reserved) VALUES ($1, $2, $3, now()) ON CONFLICT (project, id) DO NOTHING RETURNING id",
        [project, candidate, holder],
      );
      if (taken.rows[0]) return candidate;
    }
    throw refused(`no free id after ${MINT_ATTEMPTS} tries: other clones are minting ids as fast as this one; try again, or give one (--id)`);
  });
}

/** Reserve a given id for `holder` (again, if it is already its own); refuse naming the holder that has it. */
export async function reserveGivenId(url: string, project: string, id: string, holder: string): Promise<boolean> {
  return withDatabase(url, async (db) => {
    const taken = await db.query(
      "INSERT INTO cockpit_record_ids (project, id, holder, reserved) VALUES ($1, $2, $3, now()) ON CONFLICT (project, id) DO NOTHING RETURNING id",
      [project, id, holder],
    );
    if (taken.rows[0]) return true;
    const row = await db.query<{ holder: string; reserved: Date }>("SELECT holder, reserved FROM cockpit_record_ids WHERE project = $1 AND id = $2", [project, id]);
    const other = row.rows[0];
    if (!other || other.holder === holder) return false;
    throw refused(reservedElsewhere(id, other.holder, other.reserved));
  });
}

/** Give back this holder's reservation of an id the write did not use. */
export async function releaseReservedId(url: string, project: string, id: string, holder: string): Promise<void> {
  await withDatabase(url, (db) => db.query("DELETE FROM cockpit_record_ids WHERE project = $1 AND id = $2 AND holder = $3", [project, id, holder]));
}

/** plan.create's id reservations for a repository; undefined when no database is configured. */
export function idReserver(repo: string, plan: () => Plan, config?: CockpitConfig): IdReserver | undefined {
  const url = databaseUrl(config);
  if (!url) return undefined;
  return {
    mint: async (fileIds, fallbackPrefix) => mintReservedId(url, projectKey(plan()), await holderOf(repo), fileIds, fallbackPrefix),
    reserve: async (id) => reserveGivenId(url, projectKey(plan()), id, await holderOf(repo)),
    release: async (id) => releaseReservedId(url, projectKey(plan()), id, await holderOf(repo)),
  };
}
