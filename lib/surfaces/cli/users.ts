import { chmodSync, existsSync, readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { writeFileAtomic } from "../../repo/write";
import { UsageError, parseArgs } from "./args";
import type { Io } from "./io";
import { fitLines, fitMessage, helpList, terminalWidth } from "./terminal-width";
import { nearest } from "../../plan/nearest";
import { EXIT } from "../exit-codes";
import { hashToken, isEmailAddress, newToken, newUsersKey, parseUsersFile, tokenDigest, type User, type UsersFile } from "../../server/security";

// `cockpit users add|set|remove|list NAME --users FILE`: the people and agents a server knows by name.
// The file holds a scrypt hash of each token (what verifies it) and an HMAC under the file's key
// (what finds its user in one lookup); a new token is printed once, on stdout.

/** `cockpit users help`, laid out to `width`. */
export function usersUsage(width = terminalWidth()): string {
  return fitLines(
    [
      "usage: cockpit users <verb> [NAME] [--email ADDR] [--agent] [--users FILE]",
      "",
      helpList(
        [
          ["add NAME [--email ADDR] [--agent]", "make a token for NAME (--agent: a coding agent, not a person); the token is printed once, its hash is added to the file"],
          ["set NAME --email ADDR", "give NAME an email address (--email '' takes it away); the token stays"],
          ["remove NAME", "take NAME out of the file: their token stops working at their next request"],
          ["list", "the names in the file, each with its email address when it has one, and (agent) for an agent"],
        ],
        width,
        "",
      ),
      "",
      "A following server (cockpit serve --follow) authors the commit of each move as 'NAME <ADDR>'; without an address, the name with --author's address, else git's config.",
      "--users defaults to COCKPIT_USERS. Serve with `cockpit serve --users FILE`.",
    ].join("\n"),
    width,
  );
}

const VERBS = ["add", "set", "remove", "list"];

const NAME = /^[A-Za-z0-9._@-]{1,64}$/;

function render(file: Required<UsersFile>): string {
  const lines = [
    "# Cockpit users: each name with the scrypt hash of its token, and its HMAC under the key (cockpit users add NAME).",
    "# Keep this file private: the key lets whoever reads it test a guessed token quickly.",
    `key: "${file.key}"`,
    file.users.length ? "users:" : "users: []",
  ];
  for (const u of file.users) {
    lines.push(`  - name: ${u.name}`, `    token_hash: "${u.token_hash}"`);
    if (u.token_digest) lines.push(`    token_digest: "${u.token_digest}"`);
    if (u.email) lines.push(`    email: ${JSON.stringify(u.email)}`);
    if (u.kind) lines.push(`    kind: ${u.kind}`);
  }
  return lines.join("\n") + "\n";
}

function readUsers(file: string): UsersFile {
  if (!existsSync(file)) return { users: [] };
  try {
    return parseUsersFile(readFileSync(file, "utf8"));
  } catch (error) {
    throw new UsageError(`${file} is not a users file: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Rewrite the file, keeping its mode (a new file is its owner's only). */
function writeUsers(file: string, users: User[], key: string): void {
  const mode = existsSync(file) ? statSync(file).mode & 0o777 : 0o600;
  writeFileAtomic(file, render({ key, users }), mode);
  chmodSync(file, mode); // what the umask took from the new file's mode
}

function withEmail(user: User, email: string | undefined): User {
  const { email: _, ...rest } = user;
  return email ? { ...rest, email } : rest;
}

export async function runUsersCommand(argv: readonly string[], io: Io, env: Readonly<Record<string, string | undefined>> = process.env): Promise<number> {
  const [verb, ...rest] = argv;
  if (verb === undefined || verb === "help" || verb === "--help" || verb === "-h") {
    io.out(usersUsage());
    return verb === undefined ? EXIT.usage : EXIT.ok;
  }
  try {
    if (!VERBS.includes(verb)) {
      const near = nearest(verb, VERBS);
      throw new UsageError(`unknown verb '${verb}'; ${near ? `did you mean ${near}? ` : ""}the verbs are ${VERBS.join(", ")}`);
    }
    const args = parseArgs(rest, { users: "value", email: "value", agent: "flag" });
    const email = args.options.get("email");
    const agent = args.options.has("agent");
    if (agent && verb !== "add") throw new UsageError(`--agent goes with add, not ${verb}`);
    if (email !== undefined && verb !== "add" && verb !== "set") throw new UsageError(`--email goes with add or set, not ${verb}`);
    if (email && !isEmailAddress(email)) throw new UsageError(`--email takes an address (ada@example.com), not '${email}'`);
    const given = args.options.get("users") ?? env.COCKPIT_USERS;
    if (!given) throw new UsageError("give the users file with --users FILE (or COCKPIT_USERS)");
    const file = resolve(given);
    const { key = newUsersKey(), users } = readUsers(file);
    if (verb === "list") {
      if (args.words.length) throw new UsageError("cockpit users list takes no argument");
      io.out(users.map((u) => `${u.email ? `${u.name} <${u.email}>` : u.name}${u.kind === "agent" ? " (agent)" : ""}`).join("\n"));
      const old = users.filter((u) => !u.token_digest).map((u) => u.name);
      if (old.length) io.err(`${old.join(", ")}: listed without a token digest (an older file); each unknown token costs a scrypt per such user until they get new tokens (remove, then add)`);
      return EXIT.ok;
    }
    if (args.words.length !== 1) throw new UsageError(`cockpit users ${verb} takes one NAME`);
    const name = args.words[0];
    if (!NAME.test(name)) throw new UsageError(`'${name}' is not a name: use 1 to 64 letters, digits, '.', '_', '@' or '-'`);
    if ((verb === "remove" || verb === "set") && !users.some((u) => u.name === name)) {
      throw new UsageError(`${file} has no user '${name}'; the users are ${users.map((u) => u.name).join(", ") || "none"}`);
    }
    if (verb === "set") {
      if (email === undefined) throw new UsageError("cockpit users set NAME takes --email ADDR (or --email '' to take it away)");
      writeUsers(file, users.map((u) => (u.name !== name ? u : withEmail(u, email))), key);
      io.err(email ? `${name}'s commits will be authored ${name} <${email}>` : `${name} has no email address now`);
      return EXIT.ok;
    }
    if (verb === "remove") {
      writeUsers(file, users.filter((u) => u.name !== name), key);
      io.err(`removed ${name}; their token stops working at their next request`);
      return EXIT.ok;
    }
    if (users.some((u) => u.name === name)) throw new UsageError(`${file} already has a user '${name}'; remove it first to give a new token`);
    const token = newToken();
    writeUsers(file, [...users, withEmail({ name, token_hash: await hashToken(token), token_digest: tokenDigest(token, key), ...(agent ? { kind: "agent" as const } : {}) }, email)], key);
    io.err(`added ${agent ? "the agent " : ""}${name} to ${file}; give ${agent ? "it" : "them"} this token (it is shown only now):`);
    io.out(token);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(fitMessage(`cockpit users ${verb}: ${error.message}`, false));
      return EXIT.usage;
    }
    throw error;
  }
}
