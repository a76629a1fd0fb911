import type { CockpitConfig } from "../config";
import { databaseUrl } from "../coordination/database";
import { firstStateProblem, requireState, warnOnce } from "../repo/state-path";
import { STORE_FILE, STORE_STATE, closeSqliteStores, openExistingSqliteStore, openSqliteStore } from "./store-sqlite";
import { openPostgresStore } from "./store-postgres";
import type { ExecutionStore } from "./store-rows";

// The execution store, one interface over two backends: the SQLite file of the clone
// (store-sqlite.ts, the default) or, when the configuration names a database, the shared PostgreSQL
// (store-postgres.ts). Every access runs in a transaction: `write` is a serialised
// read-modify-write, `read` one snapshot, `preview` a write that is rolled back.

export * from "./store-rows";
export { STORE_FILE };

/** The repository's store, opened (and migrated) on first use in this process: the database when one is configured. */
export async function openStore(repo: string, config?: CockpitConfig): Promise<ExecutionStore> {
  const url = databaseUrl(config);
  if (url) return openPostgresStore(url, repo);
  await requireState(repo, STORE_STATE);
  return openSqliteStore(repo);
}

/**
 * The repository's store if it exists, else undefined: a read never creates the SQLite file (nor
 * its folder). A configured database always exists (and one that cannot be reached refuses).
 */
export async function openExistingStore(repo: string, config?: CockpitConfig): Promise<ExecutionStore | undefined> {
  const url = databaseUrl(config);
  if (url) return openPostgresStore(url, repo);
  // Opening a SQLite file writes beside it: one reached through a link, or tracked, is not opened.
  const problem = await firstStateProblem(repo, STORE_STATE);
  if (problem) {
    warnOnce(`${repo}\0store\0${problem}`, `${problem}; the store is not read`);
    return undefined;
  }
  return openExistingSqliteStore(repo);
}

/** Close every store this process opened (for tests, and processes that want to let go of the files). */
export function closeStores(): void {
  closeSqliteStores(); // the database's pools are closeDatabases()'s
}

/** Run `fn` with the repository's store (created on first use: for commands). */
export async function withStore<T>(repo: string, config: CockpitConfig | undefined, fn: (store: ExecutionStore) => Promise<T>): Promise<T> {
  return fn(await openStore(repo, config));
}

/** Run `fn` with the repository's store if it exists; `absent()` answers a read when it does not. */
export async function withExistingStore<T>(repo: string, config: CockpitConfig | undefined, fn: (store: ExecutionStore) => Promise<T>, absent: () => T): Promise<T> {
  const store = await openExistingStore(repo, config);
  return store ? fn(store) : absent();
}
