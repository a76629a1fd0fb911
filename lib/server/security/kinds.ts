// Whether a person the plan names is a coding agent: a user of the server's users file made with
// `cockpit users add NAME --agent`, or an MCP client's name with its session's suffix
// (`claude-code#3f2a`, docs/agents.md). Everyone else is a person.
import { currentUsers } from "./users";
import { securityFromEnv } from "./settings";
import { isClientSessionName } from "../../repo/identity";

export type PersonKind = "person" | "agent";


/** The kind of each name, by the users file (when the server has one) and the form of the name. */
export function kindsOf(names: Iterable<string>, usersFile: string | undefined = securityFromEnv().usersFile): Map<string, PersonKind> {
  const agents = agentsOfUsersFile(usersFile);
  const out = new Map<string, PersonKind>();
  for (const name of names) out.set(name, agents.has(name) || isClientSessionName(name) ? "agent" : "person");
  return out;
}

/** The agents of the server's users file (`kind: agent`); none without one. */
export function agentsOfUsersFile(usersFile: string | undefined = securityFromEnv().usersFile): Set<string> {
  return new Set(usersFile ? currentUsers(usersFile).users.filter((u) => u.kind === "agent").map((u) => u.name) : []);
}
