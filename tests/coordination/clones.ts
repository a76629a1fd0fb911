// Clones of one bare origin with a generated plan, for the many-machines tests.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll } from "vitest";
import { closeDatabases } from "../../lib/coordination/database";
import { startPostgres, type PgServer } from "../support/postgres-server";
import { ensureCliBuilt } from "../support/processes";
import { basename, join } from "node:path";
import { cleanupRepos, git, makePlanRepo, tempDir, type IssueSpec } from "../support/repo";

export const ISSUES_DIR = ".ai/repo/project/issues";

export interface Origin {
  bare: string;
  ids: string[];
}

/** A bare origin holding one milestone with `count` READY issues, each in its own file. */
export function makeOrigin(count: number): Origin {
  const ids = Array.from({ length: count }, (_, i) => `I${String(i + 1).padStart(4, "0")}`);
  const issues: IssueSpec[] = ids.map((id) => ({ id }));
  const seed = makePlanRepo({ issues, files: { ".gitignore": ".ai/local/\n" }, commit: true });
  const bare = join(tempDir("cockpit-origin-"), "origin.git");
  git(seed.root, "clone", "-q", "--bare", seed.root, bare);
  return { bare, ids };
}

/** A clone of the origin, ready to commit. */
export function cloneOf(origin: Origin, name: string): string {
  const dir = join(tempDir("cockpit-clone-"), name);
  git(origin.bare, "clone", "-q", origin.bare, dir);
  git(dir, "config", "user.email", "tests@cockpit.invalid");
  git(dir, "config", "user.name", `Cockpit Tests ${name}`);
  git(dir, "config", "commit.gpgsign", "false");
  return dir;
}

export function holderIdOf(clone: string): string {
  return readFileSync(join(clone, ".ai/local/state/holder"), "utf8").trim();
}

/** Who acts in a clone: its git user.name (docs/agents.md), which names its sessions. */
export function actorOfClone(clone: string): string {
  return `Cockpit Tests ${basename(clone)}`;
}

export interface PostgresCluster {
  /** The running cluster (from the file's first test on). */
  readonly server: PgServer;
  /** A fresh, empty database on it (migrated by its first use). */
  freshDatabase(): string;
}

/**
 * One throwaway PostgreSQL cluster for a test file: the CLI built and the cluster started before
 * its tests; after them this process's pools closed, the cluster stopped and the test
 * repositories removed.
 */
export function usePostgresCluster(prefix: string): PostgresCluster {
  let server: PgServer | undefined;
  let count = 0;
  beforeAll(async () => {
    ensureCliBuilt();
    server = await startPostgres();
  }, 120_000);
  afterAll(async () => {
    await closeDatabases();
    await server?.stop();
    cleanupRepos();
  });
  const cluster: PostgresCluster = {
    get server() {
      if (!server) throw new Error("the PostgreSQL cluster starts before the file's first test");
      return server;
    },
    freshDatabase() {
      const name = `${prefix}_${++count}`;
      cluster.server.createDatabase(name);
      return name;
    },
  };
  return cluster;
}
