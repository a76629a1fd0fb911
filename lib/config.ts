// What a Cockpit process is configured with. The surfaces resolve it once, when they start: a flag
// (`--database`, `--author`) over the environment. It then travels as a value, in the capability
// context (`ctx.config`) and as a parameter below it, and is never written back into the
// environment. The environment is read here alone; code called without a configuration (a test, a
// script) gets the environment's.

export const DATABASE_ENV = "COCKPIT_DATABASE_URL";
export const AUTHOR_ENV = "COCKPIT_AUTHOR";

export interface CockpitConfig {
  /** The shared PostgreSQL that coordinates clones (leases, record ids, execution plans); absent: this clone's files and SQLite. */
  readonly database?: string;
  /** `Name <email>`: the author of the commits the Cockpit makes; absent: git's own configuration. */
  readonly author?: string;
}

export interface ConfigFlags {
  database?: string;
  author?: string;
}

const given = (value: string | undefined): string | undefined => {
  const v = value?.trim();
  return v ? v : undefined;
};

/** The configuration of the flags given, each absent one taken from the environment. */
export function resolveConfig(flags: ConfigFlags = {}, env: Readonly<Record<string, string | undefined>> = process.env): CockpitConfig {
  const database = flags.database !== undefined ? given(flags.database) : given(env[DATABASE_ENV]);
  const author = flags.author !== undefined ? given(flags.author) : given(env[AUTHOR_ENV]);
  return { ...(database ? { database } : {}), ...(author ? { author } : {}) };
}

/** The environment a child process of this one is started with, so that it resolves the same configuration. */
export function configEnvironment(config: CockpitConfig): Record<string, string> {
  return { [DATABASE_ENV]: config.database ?? "", [AUTHOR_ENV]: config.author ?? "" };
}
