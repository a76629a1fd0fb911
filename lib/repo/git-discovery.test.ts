import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { discoverGit, gitConfigStamp } from "./git-discovery";
import { gitIdentity } from "./identity";
import { trackedState } from "./state-path";

// The file system tells what git's discovery would find, and a kept git identity follows every
// change of what `git config` reads: the repository's config, the user's, the environment.

const root = mkdtempSync(join(tmpdir(), "cockpit-discovery-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const git = (cwd: string, ...args: string[]) => {
  const r = spawnSync("git", args, { cwd, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
};

// The user's config is a file of this test's own, so the machine's identity plays no part.
let saved: NodeJS.ProcessEnv;
const globalConfig = join(root, "global.gitconfig");
beforeEach(() => {
  saved = { ...process.env };
  writeFileSync(globalConfig, "[user]\n\tname = Global Person\n\temail = global@example.invalid\n");
  process.env.GIT_CONFIG_GLOBAL = globalConfig;
  process.env.GIT_CONFIG_NOSYSTEM = "1";
});
afterEach(() => {
  for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
  Object.assign(process.env, saved);
});

describe("git's discovery, from the file system", () => {
  it("finds no repository where no folder up to the root has .git, the nearest .git folder, and defers to git for a .git file", () => {
    const plain = join(root, "plain", "deep");
    mkdirSync(plain, { recursive: true });
    expect(discoverGit(plain)).toEqual({ kind: "none" });
    // git agrees: no work tree there.
    expect(spawnSync("git", ["rev-parse", "--is-inside-work-tree"], { cwd: plain }).status).not.toBe(0);

    const repo = join(root, "repo");
    mkdirSync(join(repo, "sub"), { recursive: true });
    git(repo, "init", "-q");
    expect(discoverGit(join(repo, "sub"))).toEqual({ kind: "dir", gitDir: join(repo, ".git") });

    const linked = join(root, "linked");
    mkdirSync(linked);
    writeFileSync(join(linked, ".git"), `gitdir: ${join(repo, ".git")}\n`);
    expect(discoverGit(linked)).toEqual({ kind: "unknown" });

    process.env.GIT_DIR = join(repo, ".git");
    expect(discoverGit(plain)).toEqual({ kind: "unknown" });
  });

  it("a folder outside any repository tracks nothing, and one made a repository later is asked again", async () => {
    const later = join(root, "later");
    mkdirSync(join(later, ".ai", "local"), { recursive: true });
    writeFileSync(join(later, ".ai", "local", "ledger.jsonl"), "");
    expect([...(await trackedState(later))]).toEqual([]);
    git(later, "init", "-q");
    git(later, "add", "-f", ".ai/local/ledger.jsonl");
    expect([...(await trackedState(later))]).toEqual([".ai/local/ledger.jsonl"]);
  });
});

describe("the git identity, kept while nothing git reads for it changed", () => {
  it("follows the repository's config, the user's config and the environment", async () => {
    const repo = join(root, "identity");
    mkdirSync(repo);
    git(repo, "init", "-q");
    expect(await gitIdentity(repo)).toEqual({ name: "Global Person", email: "global@example.invalid" });
    // Asked twice with nothing changed: the same stamp, the same answer.
    expect(gitConfigStamp(repo)).toBe(gitConfigStamp(repo));
    expect(await gitIdentity(repo)).toEqual({ name: "Global Person", email: "global@example.invalid" });

    git(repo, "config", "user.name", "Repo Person");
    expect(await gitIdentity(repo)).toEqual({ name: "Repo Person", email: "global@example.invalid" });

    git(repo, "config", "--unset", "user.name");
    writeFileSync(globalConfig, "[user]\n\tname = Renamed Global\n");
    expect(await gitIdentity(repo)).toEqual({ name: "Renamed Global", email: undefined });

    const other = join(root, "other.gitconfig");
    writeFileSync(other, "[user]\n\tname = From The Environment\n");
    process.env.GIT_CONFIG_GLOBAL = other;
    expect((await gitIdentity(repo)).name).toBe("From The Environment");

    process.env.GIT_CONFIG_COUNT = "1";
    process.env.GIT_CONFIG_KEY_0 = "user.name";
    process.env.GIT_CONFIG_VALUE_0 = "Counted Person";
    expect((await gitIdentity(repo)).name).toBe("Counted Person");
  });

  it("is not kept when a config includes another file, whose changes no stamp would see", async () => {
    const repo = join(root, "included");
    mkdirSync(repo);
    git(repo, "init", "-q");
    const extra = join(root, "extra.gitconfig");
    writeFileSync(extra, "[user]\n\tname = Included One\n");
    git(repo, "config", "include.path", extra);
    expect(gitConfigStamp(repo)).toBeUndefined();
    expect((await gitIdentity(repo)).name).toBe("Included One");
    writeFileSync(extra, "[user]\n\tname = Included Two\n");
    expect((await gitIdentity(repo)).name).toBe("Included Two");
  });

  it("outside any repository, the user's config alone", async () => {
    const plain = join(root, "no-repo");
    mkdirSync(plain);
    expect(await gitIdentity(plain)).toEqual({ name: "Global Person", email: "global@example.invalid" });
    writeFileSync(globalConfig, "[user]\n\tname = Changed Outside\n");
    expect((await gitIdentity(plain)).name).toBe("Changed Outside");
  });
});
