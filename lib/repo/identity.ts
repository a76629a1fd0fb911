// Who acts on the plan: the name a move is signed with in the ledger (`by`), the author of the
// commit a following server makes of it, the person /people and the standup show. A command names
// its actor (`--as`, the environment, a request's token or header); failing that, the repository's
// own git identity speaks for it, as it does for the commits made in that clone.
import { userInfo } from "node:os";
import { controlProblem } from "../plan/control-chars";
import { processWide } from "../process-wide";
import { gitConfigStamp } from "./git-discovery";
import { gitText } from "./git-run";

/** The longest actor name: a person's or an agent's name, never a paragraph. */
export const ACTOR_NAME_MAX = 100;

/** Why `name` cannot sign a move (empty, too long, a control or a bidirectional character), naming where it came from; undefined when it can. */
export function actorNameProblem(name: string, from: string): string | undefined {
  if (name.trim() === "") return `${from} is empty: give the name of who acts (a person or an agent)`;
  if (name !== name.trim()) return `${from} has spaces around it: give the name alone ('${name.trim()}')`;
  if (name.length > ACTOR_NAME_MAX) return `${from} is ${name.length} characters long; an actor's name has at most ${ACTOR_NAME_MAX}`;
  return controlProblem(from, name, false);
}

export interface GitIdentity {
  name?: string;
  email?: string;
}

/** Each repository's identity, kept while every file `git config` reads is unchanged (lib/repo/git-discovery.ts). */
const identities = processWide("git-identities", () => new Map<string, { stamp: string; identity: GitIdentity }>());

/**
 * `git config user.name` and `user.email` as the repository sees them (its own config, then the
 * user's); a value that could not sign a move is left out. Asked of git again only when a file
 * git reads for it (or the environment naming them) changed since.
 */
export async function gitIdentity(repo: string): Promise<GitIdentity> {
  const stamp = gitConfigStamp(repo);
  const kept = identities.get(repo);
  if (stamp !== undefined && kept?.stamp === stamp) return kept.identity;
  const identity = await askGitIdentity(repo);
  // Kept only if nothing changed while git read it.
  if (stamp !== undefined && gitConfigStamp(repo) === stamp) identities.set(repo, { stamp, identity });
  return identity;
}

async function askGitIdentity(repo: string): Promise<GitIdentity> {
  // One git process: `user.name Ada Lovelace` and `user.email ada@…` lines, the last of each winning (as git's own --get).
  const out = (await gitText(repo, ["config", "--get-regexp", "^user\\.(name|email)$"], { maxBytes: 64 * 1024 })) ?? "";
  let name: string | undefined;
  let email: string | undefined;
  for (const line of out.split("\n")) {
    const space = line.indexOf(" ");
    if (space < 0) continue;
    const [key, value] = [line.slice(0, space), line.slice(space + 1)];
    if (key === "user.name") name = value;
    else if (key === "user.email") email = value;
  }
  const usable = (v: string | undefined, field: string) => (v !== undefined && actorNameProblem(v, field) === undefined ? v : undefined);
  return { name: usable(name, "user.name"), email: usable(email, "user.email") };
}

/** The login name of this process's user, when it has a usable one. */
function loginName(): string | undefined {
  try {
    const name = userInfo().username;
    return actorNameProblem(name, "login") === undefined ? name : undefined;
  } catch {
    return undefined;
  }
}

export interface Actor {
  name: string;
  email?: string;
}

/** Thrown when a given name cannot sign a move: the surface answers it as bad input. */
export class ActorNameError extends Error {}

/**
 * Who acts for a command: the name given (`--as`, a request's actor), else `COCKPIT_ACTOR` when
 * the caller passes it (lib/config.ts's actorFromEnv), else the repository's git identity, else the login name.
 * A given name that cannot sign a move is refused (ActorNameError), never replaced.
 */
export async function resolveActor(repo: string, given: { as?: string; envActor?: string } = {}): Promise<Actor> {
  for (const [name, from] of [[given.as, "--as"], [given.envActor || undefined, "COCKPIT_ACTOR"]] as const) {
    if (name === undefined) continue;
    const problem = actorNameProblem(name, from);
    if (problem) throw new ActorNameError(problem);
    return { name };
  }
  const git = await gitIdentity(repo);
  if (git.name) return { name: git.name, email: git.email };
  return { name: loginName() ?? "unknown" };
}

/** An MCP client's name as the server signs its moves: the name, `#`, the session's four hex digits (`claude-code#3f2a`). */
export function clientSessionName(client: string, session: string): string {
  return `${client}#${session}`;
}

/** Whether a name is an MCP client's session name (so: an agent's). */
export function isClientSessionName(name: string): boolean {
  return /#[0-9a-f]{4}$/.test(name);
}

/**
 * Why a name a request claims (a header, an argument) cannot sign its command, or undefined when
 * it can: a name that cannot sign a move (`invalid`); another name than the user the caller's
 * token proved, or any name on a server whose users file names its users (`forbidden`).
 * `source` names where it came from, `drop` how to leave it out.
 */
export function claimedActorRefusal(named: string, doors: { user?: string; usersFile?: boolean; source: string; drop: string }): { kind: "invalid" | "forbidden"; message: string } | undefined {
  const problem = actorNameProblem(named, doors.source);
  if (problem) return { kind: "invalid", message: problem };
  if (doors.user !== undefined && named !== doors.user) {
    return { kind: "forbidden", message: `${doors.source} names '${named}', but the caller is ${doors.user} (their token or session): a user acts under their own name; ${doors.drop}` };
  }
  if (doors.user === undefined && doors.usersFile) {
    return { kind: "forbidden", message: `${doors.source} names '${named}', but this server has a users file: a user is named by their own token (cockpit users add ${named}), not by ${doors.source}` };
  }
  return undefined;
}
