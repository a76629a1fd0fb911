// The users file: people and agents by name, each with a token kept as a keyed digest and an
// scrypt hash; read again whenever the file changes.
import { processWide } from "../../process-wide";
import { createHash, createHmac, randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { CORE_SCHEMA, load as loadYaml } from "js-yaml";

export interface User {
  name: string;
  /** scrypt of the token: what verifies it. */
  token_hash: string;
  /** HMAC-SHA256 of the token under the file's key: what finds its user in one lookup. */
  token_digest?: string;
  /** The address a following server's commits of this person's moves are authored with. */
  email?: string;
  /** `agent` for a coding agent (`cockpit users add NAME --agent`); a person otherwise. */
  kind?: "agent";
}

/** A users file: its users and the key of their digests (none in a file written before digests). */
export interface UsersFile {
  key?: string;
  users: User[];
}

const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 32 } as const;

function scryptAsync(secret: string, salt: Buffer, keylen: number, o: { N: number; r: number; p: number }): Promise<Buffer> {
  return new Promise((done, fail) => scrypt(secret, salt, keylen, { ...o, maxmem: 64 * 1024 * 1024 }, (error, key) => (error ? fail(error) : done(key))));
}

/** A token's hash for the users file: `scrypt$N$r$p$<salt>$<key>` (base64url). */
export async function hashToken(token: string, salt: Buffer = randomBytes(16)): Promise<string> {
  const key = await scryptAsync(token, salt, SCRYPT.keylen, SCRYPT);
  return ["scrypt", SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

export async function tokenMatchesHash(token: string, tokenHash: string): Promise<boolean> {
  const parts = tokenHash.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return false;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  if (![N, r, p].every((n) => Number.isInteger(n) && n > 0) || N > 1 << 20) return false;
  const expected = Buffer.from(parts[5], "base64url");
  if (expected.length < 16) return false;
  const key = await scryptAsync(token, Buffer.from(parts[4], "base64url"), expected.length, { N, r, p });
  return timingSafeEqual(key, expected);
}

/** A new key for a users file's digests: 32 random bytes. */
export function newUsersKey(): string {
  return randomBytes(32).toString("base64url");
}

/** A token's digest under a users file's key: one HMAC, microseconds, where scrypt takes tens of ms. */
export function tokenDigest(token: string, key: string): string {
  return createHmac("sha256", Buffer.from(key, "base64url")).update(token).digest("base64url");
}

/** A new token for a person or an agent: 32 random bytes. */
export function newToken(): string {
  return `ck_${randomBytes(32).toString("base64url")}`;
}

const EMAIL = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

/** Whether `text` is an email address a commit's author may carry (`name@host.domain`, no spaces or angle brackets). */
export function isEmailAddress(text: string): boolean {
  return text.length <= 254 && EMAIL.test(text);
}

const USERS_SHAPE = "a users file is a YAML list of {name, token_hash}, or `key:` and `users:` (that list with a token_digest each), as `cockpit users add` writes it";

/** Parse a users file's text; throws with what is wrong. A file with no users (even empty) is valid. */
export function parseUsersFile(text: string): UsersFile {
  // js-yaml refuses a document of comments only: that is a file with no users.
  const isBlank = text.split("\n").every((line) => /^\s*(#.*)?$/.test(line));
  const data: unknown = isBlank ? null : loadYaml(text, { schema: CORE_SCHEMA });
  let key: string | undefined;
  let list: unknown;
  if (data === null || data === undefined) list = [];
  else if (Array.isArray(data)) list = data;
  else if (typeof data === "object") {
    const { key: k, users, ...rest } = data as Record<string, unknown>;
    const unknown = Object.keys(rest);
    if (unknown.length) throw new Error(`${USERS_SHAPE}; unknown field${unknown.length > 1 ? "s" : ""} ${unknown.map((u) => `'${u}'`).join(", ")}`);
    if (k !== undefined && (typeof k !== "string" || Buffer.from(k, "base64url").length < 32)) throw new Error("key: give 32 random bytes in base64url, as `cockpit users add` writes");
    key = k as string | undefined;
    list = users ?? [];
    if (!Array.isArray(list)) throw new Error(`users: ${USERS_SHAPE}`);
  } else throw new Error(USERS_SHAPE);
  const seen = new Set<string>();
  const users = (list as unknown[]).map((entry, i) => {
    const e = entry as Partial<User> | null;
    if (!e || typeof e.name !== "string" || !/^[A-Za-z0-9._@-]{1,64}$/.test(e.name) || typeof e.token_hash !== "string") {
      throw new Error(`entry ${i + 1} needs a name (letters, digits, . _ @ -) and a token_hash from \`cockpit users add NAME\``);
    }
    if (e.token_digest !== undefined && typeof e.token_digest !== "string") throw new Error(`entry ${i + 1}: token_digest is text, as \`cockpit users add\` writes it`);
    if (e.email !== undefined && (typeof e.email !== "string" || !isEmailAddress(e.email))) throw new Error(`entry ${i + 1}: email is an address (name@example.com), as \`cockpit users add NAME --email ADDR\` writes it`);
    if (e.kind !== undefined && e.kind !== "agent" && e.kind !== "person") throw new Error(`entry ${i + 1}: kind is agent or person (a person when absent), not ${JSON.stringify(e.kind)}`);
    if (seen.has(e.name)) throw new Error(`the name '${e.name}' is listed twice`);
    seen.add(e.name);
    return { name: e.name, token_hash: e.token_hash, ...(key && e.token_digest ? { token_digest: e.token_digest } : {}), ...(e.email ? { email: e.email } : {}), ...(e.kind === "agent" ? { kind: "agent" as const } : {}) };
  });
  return { ...(key ? { key } : {}), users };
}

/** The users of a users file's text; throws with what is wrong. */
export function parseUsers(text: string): User[] {
  return parseUsersFile(text).users;
}

export interface UsersState extends UsersFile {
  stamp: string;
  problem?: string;
  /** digest → user, for the users the file gives a digest. */
  byDigest: Map<string, User>;
  /** Users listed before digests existed: found only by trying their scrypt hash. */
  undigested: User[];
  /** sha256(token) → the user it proved, for this version of the file (successes only). */
  verified: Map<string, string>;
}

const usersStates = processWide("users-states", () => new Map<string, UsersState>());

function usersState(stamp: string, file: UsersFile, problem?: string): UsersState {
  const byDigest = new Map<string, User>();
  const undigested: User[] = [];
  for (const u of file.users) {
    if (u.token_digest) byDigest.set(u.token_digest, u);
    else undigested.push(u);
  }
  return { stamp, ...file, problem, byDigest, undigested, verified: new Map() };
}

/** The users file as it is now: read again whenever its size or modification time changes. */
export function currentUsers(file: string): UsersState {
  let stamp: string;
  try {
    const s = statSync(file);
    stamp = `${s.ino}:${s.size}:${s.mtimeMs}`;
  } catch {
    stamp = "missing";
  }
  const known = usersStates.get(file);
  if (known && known.stamp === stamp) return known;
  let state: UsersState;
  if (stamp === "missing") state = usersState(stamp, { users: [] }, `the users file ${file} does not exist`);
  else {
    try {
      state = usersState(stamp, parseUsersFile(readFileSync(file, "utf8")));
    } catch (error) {
      state = usersState(stamp, { users: [] }, `the users file ${file} is not valid: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (state.problem) process.stderr.write(`cockpit: ${state.problem}; no user can sign in until it is mended\n`);
  else if (state.undigested.length) {
    const names = state.undigested.map((u) => u.name).join(", ");
    process.stderr.write(`cockpit: ${file} lists ${names} without a token digest, so each unknown token costs a scrypt for each; give them new tokens (cockpit users remove NAME, then add NAME)\n`);
  }
  usersStates.set(file, state);
  return state;
}

export const digest = (text: string) => createHash("sha256").update(text).digest("hex");

export const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};
