import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { writeFileAtomic } from "../plan/write";
import { UsageError, parseArgs } from "./cli-args";
import type { Io } from "./cli";
import { EXIT } from "./exit-codes";
import { hashToken, newToken, parseUsers, type User } from "./security";

// `cockpit users add|remove|list NAME --users FILE`: the people and agents a server knows by name.
// The file holds only scrypt hashes; a new token is printed once, on stdout.

const USAGE = [
  "usage: cockpit users <verb> [NAME] [--users FILE]",
  "",
  "add NAME      make a token for NAME; the token is printed once, its hash is added to the file",
  "remove NAME   take NAME out of the file: their token stops working at their next request",
  "list          the names in the file",
  "",
  "--users defaults to COCKPIT_USERS. Serve with `cockpit serve --users FILE`.",
].join("\n");

const NAME = /^[A-Za-z0-9._@-]{1,64}$/;

function render(users: readonly User[]): string {
  const lines = ["# Cockpit users: each name with the scrypt hash of its token (cockpit users add NAME)."];
  for (const u of users) lines.push(`- name: ${u.name}`, `  token_hash: "${u.token_hash}"`);
  return lines.join("\n") + "\n";
}

function readUsers(file: string): User[] {
  if (!existsSync(file)) return [];
  try {
    return parseUsers(readFileSync(file, "utf8"));
  } catch (error) {
    throw new UsageError(`${file} is not a users file: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export async function runUsersCommand(argv: readonly string[], io: Io, env = process.env): Promise<number> {
  const [verb, ...rest] = argv;
  if (verb === undefined || verb === "help" || verb === "--help" || verb === "-h") {
    io.out(USAGE);
    return verb === undefined ? EXIT.usage : EXIT.ok;
  }
  try {
    if (!["add", "remove", "list"].includes(verb)) throw new UsageError(`unknown verb '${verb}'; the verbs are add, remove, list`);
    const args = parseArgs(rest, { users: "value" });
    const given = args.options.get("users") ?? env.COCKPIT_USERS;
    if (!given) throw new UsageError("give the users file with --users FILE (or COCKPIT_USERS)");
    const file = resolve(given);
    const users = readUsers(file);
    if (verb === "list") {
      if (args.words.length) throw new UsageError("cockpit users list takes no argument");
      io.out(users.map((u) => u.name).join("\n"));
      return EXIT.ok;
    }
    if (args.words.length !== 1) throw new UsageError(`cockpit users ${verb} takes one NAME`);
    const name = args.words[0];
    if (!NAME.test(name)) throw new UsageError(`'${name}' is not a name: use 1 to 64 letters, digits, '.', '_', '@' or '-'`);
    if (verb === "remove") {
      if (!users.some((u) => u.name === name)) throw new UsageError(`${file} has no user '${name}'; the users are ${users.map((u) => u.name).join(", ") || "none"}`);
      writeFileAtomic(file, render(users.filter((u) => u.name !== name)));
      io.err(`removed ${name}; their token stops working at their next request`);
      return EXIT.ok;
    }
    if (users.some((u) => u.name === name)) throw new UsageError(`${file} already has a user '${name}'; remove it first to give a new token`);
    const token = newToken();
    writeFileAtomic(file, render([...users, { name, token_hash: await hashToken(token) }]), 0o600);
    io.err(`added ${name} to ${file}; give them this token (it is shown only now):`);
    io.out(token);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`cockpit users ${verb}: ${error.message}`);
      return EXIT.usage;
    }
    throw error;
  }
}
