// What a Cockpit process is configured with. The surfaces resolve it once, when they start: a flag
// (`--database`, `--author`) over the environment. It then travels as a value, in the capability
// context (`ctx.config`) and as a parameter below it, and is never written back into the
// environment. The environment is read here alone (tests/boundaries.test.ts names the few
// exceptions and why); code called without a configuration (a test, a script) gets the
// environment's. The tunings below are read when asked, so that a test may set them.

export const DATABASE_ENV = "COCKPIT_DATABASE_URL";
export const AUTHOR_ENV = "COCKPIT_AUTHOR";

export interface CockpitConfig {
  /** The shared PostgreSQL that coordinates clones (leases, record ids, execution plans); absent: this clone's files and SQLite. */
  readonly database?: string;
  /** `Name <email>`: the author of the commits the Cockpit makes; absent: git's own configuration. */
  readonly author?: string;
  /** Seconds a session's lease lives after its last word (`--lease-ttl`); absent: COCKPIT_LEASE_TTL_S, else 1800. */
  readonly leaseTtlS?: number;
  /** Seconds a session may be silent before it is stale (`--stale-after`); absent: COCKPIT_STALE_AFTER_S, else 300. */
  readonly staleAfterS?: number;
}

export interface ConfigFlags {
  database?: string;
  author?: string;
  leaseTtl?: string;
  staleAfter?: string;
}

/** A flag that takes seconds above 0, refused by name otherwise. */
function seconds(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!/^[0-9]+(\.[0-9]+)?$/.test(text) || !(n > 0)) throw new RangeError(`--${flag} takes seconds above 0, not '${text}'`);
  return n;
}

const given = (value: string | undefined): string | undefined => {
  const v = value?.trim();
  return v ? v : undefined;
};

/** The configuration of the flags given, each absent one taken from the environment. */
export function resolveConfig(flags: ConfigFlags = {}, env: Readonly<Record<string, string | undefined>> = process.env): CockpitConfig {
  const database = flags.database !== undefined ? given(flags.database) : given(env[DATABASE_ENV]);
  const author = flags.author !== undefined ? given(flags.author) : given(env[AUTHOR_ENV]);
  const leaseTtlS = seconds("lease-ttl", flags.leaseTtl);
  const staleAfterS = seconds("stale-after", flags.staleAfter);
  return {
    ...(database ? { database } : {}),
    ...(author ? { author } : {}),
    ...(leaseTtlS !== undefined ? { leaseTtlS } : {}),
    ...(staleAfterS !== undefined ? { staleAfterS } : {}),
  };
}

/** The environment a child process of this one is started with, so that it resolves the same configuration. */
export function configEnvironment(config: CockpitConfig): Record<string, string> {
  return {
    [DATABASE_ENV]: config.database ?? "",
    [AUTHOR_ENV]: config.author ?? "",
    ...(config.leaseTtlS !== undefined ? { COCKPIT_LEASE_TTL_S: String(config.leaseTtlS) } : {}),
    ...(config.staleAfterS !== undefined ? { COCKPIT_STALE_AFTER_S: String(config.staleAfterS) } : {}),
  };
}

type Env = Readonly<Record<string, string | undefined>>;

const positive = (text: string | undefined, otherwise: number): number => {
  const n = Number(text);
  return Number.isFinite(n) && n > 0 ? n : otherwise;
};

/** How long a writer waits for the plan lock before it gives up: COCKPIT_LOCK_WAIT_MS, else a minute. */
export function lockWaitMs(env: Env = process.env): number {
  return positive(env.COCKPIT_LOCK_WAIT_MS, 60_000);
}

/** How long a lease lives without a word from its session (docs/agents.md): --lease-ttl, else COCKPIT_LEASE_TTL_S seconds, else 30 minutes. */
export function leaseTtlSeconds(config?: CockpitConfig, env: Env = process.env): number {
  return config?.leaseTtlS ?? positive(env.COCKPIT_LEASE_TTL_S, 1800);
}

/** How long a session may be silent before it is stale: --stale-after, else COCKPIT_STALE_AFTER_S seconds, else 5 minutes. */
export function staleAfterSeconds(config?: CockpitConfig, env: Env = process.env): number {
  return config?.staleAfterS ?? positive(env.COCKPIT_STALE_AFTER_S, 300);
}

/** The secret a webhook's signature (GitHub) or token (GitLab) is checked with; "" when none is set. */
export function webhookSecret(env: Env = process.env): string {
  return env.COCKPIT_WEBHOOK_SECRET ?? "";
}

/** The branch plan.code measures merges on when a question names none (cockpit serve --default-branch); undefined: origin/HEAD's, else HEAD's. */
export function defaultBranch(env: Env = process.env): string | undefined {
  return given(env.COCKPIT_DEFAULT_BRANCH);
}

/** Who acts for a command that names nobody (`--as` wins): COCKPIT_ACTOR, as given (docs/agents.md). */
export function actorFromEnv(env: Env = process.env): string | undefined {
  return env.COCKPIT_ACTOR === "" ? undefined : env.COCKPIT_ACTOR;
}

/** The users file a server reads (cockpit serve --users), when it has one. */
export function usersFile(env: Env = process.env): string | undefined {
  return env.COCKPIT_USERS;
}

export interface NotifySettings {
  urls: string[];
  /** HMAC-SHA256 key of X-Cockpit-Signature-256; absent: events go unsigned. */
  secret?: string;
  /** An ask open this long is escalated once (ask.escalated). */
  escalateAfterS: number;
  /** How often the plan is looked at and the due events sent. */
  intervalMs: number;
}

/** Why a notify URL cannot be used, or undefined: only http and https, with a host. */
export function notifyUrlProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `'${url}' is not a URL`;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return `'${url}' is not http(s): a notify URL is http:// or https://`;
  if (parsed.hostname === "") return `'${url}' names no host`;
  return undefined;
}

/** The notify settings of the environment (COCKPIT_NOTIFY_URLS, set by cockpit serve --notify-url), or undefined when no URL is given. */
export function notifySettings(env: Env = process.env): NotifySettings | undefined {
  const urls = (env.COCKPIT_NOTIFY_URLS ?? "").split(/[\s,]+/).filter(Boolean);
  if (urls.length === 0) return undefined;
  for (const url of urls) {
    const problem = notifyUrlProblem(url);
    if (problem) throw new Error(`COCKPIT_NOTIFY_URLS: ${problem}`);
  }
  const escalate = Number(env.COCKPIT_ASK_ESCALATE_AFTER_S || 4 * 3600);
  const interval = Number(env.COCKPIT_NOTIFY_INTERVAL_S || 10);
  return {
    urls: [...new Set(urls)],
    ...(env.COCKPIT_NOTIFY_SECRET ? { secret: env.COCKPIT_NOTIFY_SECRET } : {}),
    escalateAfterS: Number.isFinite(escalate) && escalate > 0 ? escalate : 4 * 3600,
    intervalMs: Math.max(100, (Number.isFinite(interval) && interval > 0 ? interval : 10) * 1000),
  };
}
