import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseUsers, tokenMatchesHash } from "@/lib/surfaces/security";
import { runCliSync } from "./helpers";

const dir = mkdtempSync(join(tmpdir(), "cockpit-cli-commands-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("cockpit --help", () => {
  it("lists every command, then the plan's verbs", () => {
    const r = runCliSync(["--help"]);
    expect(r.code).toBe(0);
    for (const command of ["plan <verb>", "plans <verb>", "serve [--repo DIR]", "mcp [--repo DIR]", "users add|remove|list", "--version"]) {
      expect(r.stdout).toContain(`  ${command}`);
    }
    expect(r.stdout).toMatch(/--allowed-host NAME\]…/);
    expect(r.stdout).toMatch(/cockpit plan start ID/);
  });
});

describe("cockpit users", () => {
  const file = join(dir, "users.yaml");

  it("adds a user: the token on stdout once, its scrypt hash in a file only its owner reads", async () => {
    const r = runCliSync(["users", "add", "ada", "--users", file]);
    expect(r.code).toBe(0);
    const token = r.stdout.trim();
    expect(token).toMatch(/^ck_[A-Za-z0-9_-]{43}$/);
    expect(r.stderr).toMatch(/added ada/);
    const users = parseUsers(readFileSync(file, "utf8"));
    expect(users.map((u) => u.name)).toEqual(["ada"]);
    expect(readFileSync(file, "utf8")).not.toContain(token);
    expect(await tokenMatchesHash(token, users[0].token_hash)).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("refuses a second user of one name, a bad name, and a missing file option, writing nothing", () => {
    const before = readFileSync(file, "utf8");
    expect(runCliSync(["users", "add", "ada", "--users", file])).toMatchObject({ code: 2, stderr: expect.stringMatching(/already has a user 'ada'/) });
    expect(runCliSync(["users", "add", "a/b", "--users", file])).toMatchObject({ code: 2, stderr: expect.stringMatching(/'a\/b' is not a name/) });
    expect(runCliSync(["users", "add", "bob"])).toMatchObject({ code: 2, stderr: expect.stringMatching(/give the users file with --users FILE/) });
    expect(readFileSync(file, "utf8")).toBe(before);
  });

  it("lists and removes users", () => {
    expect(runCliSync(["users", "add", "bob", "--users", file]).code).toBe(0);
    expect(runCliSync(["users", "list", "--users", file]).stdout.trim().split("\n")).toEqual(["ada", "bob"]);
    expect(runCliSync(["users", "remove", "ada", "--users", file]).code).toBe(0);
    expect(runCliSync(["users", "list", "--users", file]).stdout.trim()).toBe("bob");
    expect(runCliSync(["users", "remove", "ada", "--users", file])).toMatchObject({ code: 2, stderr: expect.stringMatching(/has no user 'ada'; the users are bob/) });
  });
});
