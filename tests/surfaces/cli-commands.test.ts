import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { hashToken, parseUsers, parseUsersFile, tokenDigest, tokenMatchesHash } from "@/lib/server/security";
import { CLI, ROOT, runCliSync } from "./helpers";
import { spawnSync } from "node:child_process";
import { refusalOf } from "../support/processes";

const dir = mkdtempSync(join(tmpdir(), "cockpit-cli-commands-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("cockpit --help", () => {
  it("lists every command, then the plan's verbs", () => {
    const r = runCliSync(["--help"]);
    expect(r.code).toBe(0);
    for (const command of ["plan <verb>", "plans <verb>", "serve [--repo DIR]", "mcp [--repo DIR]", "users add|set|remove|list", "--version"]) {
      expect(r.stdout).toContain(`  ${command}`);
    }
    expect(r.stdout).toMatch(/--allowed-host NAME\]…/);
    expect(r.stdout).toMatch(/cockpit plan start ID/);
  });
});

/** `cockpit <args>` with its messages read as one line each: a message wraps to the terminal's width. */
function runUnwrapped(args: readonly string[]) {
  const r = runCliSync(args);
  return { ...r, stderr: r.stderr.replace(/\n {2}(?=\S)/g, " ") };
}

describe("cockpit users", () => {
  const file = join(dir, "users.yaml");

  it("adds a user: the token on stdout once, its scrypt hash in a file only its owner reads", async () => {
    const r = runUnwrapped(["users", "add", "ada", "--users", file]);
    expect(r.code).toBe(0);
    const token = r.stdout.trim();
    expect(token).toMatch(/^ck_[A-Za-z0-9_-]{43}$/);
    expect(refusalOf(r)).toMatch(/added ada/);
    const users = parseUsers(readFileSync(file, "utf8"));
    expect(users.map((u) => u.name)).toEqual(["ada"]);
    expect(readFileSync(file, "utf8")).not.toContain(token);
    expect(await tokenMatchesHash(token, users[0].token_hash)).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("refuses a second user of one name, a bad name, and a missing file option, writing nothing", () => {
    const before = readFileSync(file, "utf8");
    expect(runUnwrapped(["users", "add", "ada", "--users", file])).toMatchObject({ code: 2, stderr: expect.stringMatching(/already has a user 'ada'/) });
    expect(runUnwrapped(["users", "add", "a/b", "--users", file])).toMatchObject({ code: 2, stderr: expect.stringMatching(/'a\/b' is not a name/) });
    expect(runUnwrapped(["users", "add", "bob"])).toMatchObject({ code: 2, stderr: expect.stringMatching(/give the users file with --users FILE/) });
    expect(readFileSync(file, "utf8")).toBe(before);
  });

  it("lists and removes users", () => {
    expect(runUnwrapped(["users", "add", "bob", "--users", file]).code).toBe(0);
    expect(runUnwrapped(["users", "list", "--users", file]).stdout.trim().split("\n")).toEqual(["ada", "bob"]);
    expect(runUnwrapped(["users", "remove", "ada", "--users", file]).code).toBe(0);
    expect(runUnwrapped(["users", "list", "--users", file]).stdout.trim()).toBe("bob");
    expect(runUnwrapped(["users", "remove", "ada", "--users", file])).toMatchObject({ code: 2, stderr: expect.stringMatching(/has no user 'ada'; the users are bob/) });
  });

  it("keeps the file's mode on every rewrite: a 0600 file stays 0600 after a remove, a 0640 one 0640", () => {
    const own = join(dir, "mode-users.yaml");
    for (const mode of [0o600, 0o640]) {
      expect(runUnwrapped(["users", "add", "ada", "--users", own]).code).toBe(0);
      expect(runUnwrapped(["users", "add", "bob", "--users", own]).code).toBe(0);
      chmodSync(own, mode);
      expect(runUnwrapped(["users", "remove", "ada", "--users", own]).code).toBe(0);
      expect(statSync(own).mode & 0o777).toBe(mode);
      expect(runUnwrapped(["users", "add", "cy", "--users", own]).code).toBe(0);
      expect(statSync(own).mode & 0o777).toBe(mode);
      rmSync(own);
    }
  });

  it("a file left with no users is valid for users add, users list and serve", () => {
    const own = join(dir, "emptied-users.yaml");
    expect(runUnwrapped(["users", "add", "ada", "--users", own]).code).toBe(0);
    expect(runUnwrapped(["users", "remove", "ada", "--users", own]).code).toBe(0);
    const empty = join(dir, "empty-users.yaml");
    writeFileSync(empty, "");
    for (const f of [own, empty]) {
      expect(runUnwrapped(["users", "list", "--users", f])).toMatchObject({ code: 0, stdout: "\n" });
      // serve reads the users file before the repository: past it, the missing folder is what stops it.
      const serve = spawnSync(process.execPath, [CLI, "serve", "--users", f, "--repo", join(dir, "no-such-folder")], { cwd: ROOT, encoding: "utf8" });
      expect(refusalOf(serve)).toMatch(/--repo .*no-such-folder is not a folder/);
      expect(refusalOf(serve)).not.toMatch(/users/);
    }
    for (const f of [own, empty]) expect(runUnwrapped(["users", "add", "bob", "--users", f]).code).toBe(0);
    expect(runUnwrapped(["users", "list", "--users", empty]).stdout.trim()).toBe("bob");
  });

  it("writes each token's keyed digest beside its scrypt hash; an older file's users stay, and a new user gets a digest", async () => {
    const own = join(dir, "digest-users.yaml");
    const token = runUnwrapped(["users", "add", "ada", "--users", own]).stdout.trim();
    const written = parseUsersFile(readFileSync(own, "utf8"));
    expect(written.key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(written.users[0].token_digest).toBe(tokenDigest(token, written.key!));
    expect(readFileSync(own, "utf8")).not.toContain(token);

    const older = join(dir, "older-users.yaml");
    writeFileSync(older, `- name: old\n  token_hash: "${await hashToken("the-old-token")}"\n`);
    const list = runUnwrapped(["users", "list", "--users", older]);
    expect(list.stdout.trim()).toBe("old");
    expect(refusalOf(list)).toMatch(/old: listed without a token digest/);
    const fresh = runUnwrapped(["users", "add", "new", "--users", older]).stdout.trim();
    const upgraded = parseUsersFile(readFileSync(older, "utf8"));
    expect(upgraded.users.map((u) => [u.name, Boolean(u.token_digest)])).toEqual([["old", false], ["new", true]]);
    expect(upgraded.users[1].token_digest).toBe(tokenDigest(fresh, upgraded.key!));
    expect(await tokenMatchesHash("the-old-token", upgraded.users[0].token_hash)).toBe(true);
  });

  it("keeps an email address per user: add --email, set --email (and --email '' to take it away), shown by list; a bad address is refused, writing nothing", () => {
    const own = join(dir, "email-users.yaml");
    const token = runUnwrapped(["users", "add", "ada", "--email", "ada@example.com", "--users", own]).stdout.trim();
    expect(runUnwrapped(["users", "add", "bob", "--users", own]).code).toBe(0);
    expect(runUnwrapped(["users", "list", "--users", own]).stdout.trim().split("\n")).toEqual(["ada <ada@example.com>", "bob"]);
    expect(runUnwrapped(["users", "set", "bob", "--email", "bob@team.example", "--users", own])).toMatchObject({ code: 0, stderr: expect.stringMatching(/bob <bob@team\.example>/) });
    const before = readFileSync(own, "utf8");
    for (const bad of ["bob", "bob@", "Bob <bob@team.example>", "bob @team.example", "bob@team"]) {
      expect(runUnwrapped(["users", "set", "bob", "--email", bad, "--users", own]), bad).toMatchObject({ code: 2, stderr: expect.stringMatching(/--email takes an address/) });
    }
    expect(runUnwrapped(["users", "set", "cy", "--email", "cy@team.example", "--users", own])).toMatchObject({ code: 2, stderr: expect.stringMatching(/has no user 'cy'/) });
    expect(runUnwrapped(["users", "set", "bob", "--users", own])).toMatchObject({ code: 2, stderr: expect.stringMatching(/takes --email ADDR/) });
    expect(runUnwrapped(["users", "remove", "bob", "--email", "x@y.example", "--users", own])).toMatchObject({ code: 2, stderr: expect.stringMatching(/--email goes with add or set/) });
    expect(readFileSync(own, "utf8")).toBe(before);
    const file = parseUsersFile(before);
    expect(file.users.map((u) => [u.name, u.email])).toEqual([["ada", "ada@example.com"], ["bob", "bob@team.example"]]);
    // The token stays what it was: set changes only the address.
    expect(file.users[0].token_digest).toBe(tokenDigest(token, file.key!));
    expect(runUnwrapped(["users", "set", "ada", "--email", "", "--users", own]).code).toBe(0);
    expect(runUnwrapped(["users", "list", "--users", own]).stdout.trim().split("\n")).toEqual(["ada", "bob <bob@team.example>"]);
  });

  it("a users file with an address that is not one is refused, naming the entry", () => {
    expect(() => parseUsersFile('- name: ada\n  token_hash: "scrypt$1$1$1$AA$BB"\n  email: "ada at example"\n')).toThrow(/entry 1: email is an address/);
    expect(parseUsersFile('- name: ada\n  token_hash: "scrypt$1$1$1$AA$BB"\n  email: ada@example.com\n').users[0].email).toBe("ada@example.com");
  });
});
