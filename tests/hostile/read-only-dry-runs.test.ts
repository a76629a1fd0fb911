import { spawnSync } from "node:child_process";
import { chmodSync, lstatSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureCliBuilt, spawnCli, type CliRun, refusalOf } from "../support/processes";
import { cleanupRepos, makePlanRepo, tempDir, type PlanRepo } from "../support/repo";

// A dry run answers on a repository nobody may write to (a read-only checkout, a mount), and
// takes nothing there: no lock, no `.ai/local`, no file. The repository is made read-only
// (chmod -R a-w); root ignores modes, so as root the commands also run as the unprivileged
// `nobody` (setpriv), where the modes hold, and in both cases the tree must be the same after.

const NOBODY = 65534;
const asRoot = process.getuid?.() === 0;
const canDrop = asRoot && spawnSync("setpriv", ["--version"]).status === 0;

let repo: PlanRepo;
let gitConfig: string;
const DRY_RUNS: string[][] = [
  ["adopt", "--dry-run"],
  ["edit", "I0001", "--set", "owner=someone", "--dry-run"],
  ["new", "issue", "--milestone", "M1", "--title", "Another", "--dry-run"],
  ["commit", "--dry-run"],
];

/** Every entry of the repository with its mode, and the bytes of each file. */
function tree(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .map((e) => join(e.parentPath, e.name))
    .filter((p) => !relative(dir, p).startsWith(".git/") && relative(dir, p) !== ".git")
    .map((p) => {
      const st = lstatSync(p);
      return `${relative(dir, p)} ${st.mode.toString(8)} ${st.isFile() ? readFileSync(p).toString("base64") : ""}`;
    })
    .sort();
}

function run(args: string[], uid?: number): Promise<CliRun> {
  const wrap = uid === undefined ? [] : ["setpriv", `--reuid=${uid}`, `--regid=${uid}`, "--clear-groups"];
  // The repository is root's: git asks its other users to trust it first (safe.directory).
  return spawnCli([...args, "--repo", repo.root], { wrap, env: { GIT_CONFIG_GLOBAL: gitConfig, HOME: "/nonexistent" } });
}

beforeAll(() => {
  ensureCliBuilt();
  repo = makePlanRepo({
    // I0002 holds a stamp from before seals, for adopt to list.
    issues: [{ id: "I0001" }, { id: "I0002", extra: "started_at: 2026-09-01T10:00:00Z\n" }],
    commit: true,
  });
  // A change by hand, for commit --dry-run to list.
  repo.writeIssue("I0001", repo.read("I0001").replace("priority: p1", "priority: p0"));
  const configDir = tempDir("cockpit-gitconfig-");
  chmodSync(configDir, 0o755);
  gitConfig = join(configDir, "config");
  writeFileSync(gitConfig, "[safe]\n\tdirectory = *\n");
  chmodSync(repo.root, 0o755);
  spawnSync("chmod", ["-R", "a-w", repo.root]);
});

afterAll(() => {
  spawnSync("chmod", ["-R", "u+w", repo.root]);
  cleanupRepos();
});

describe("dry runs on a read-only repository", () => {
  for (const args of DRY_RUNS) {
    it(`plan ${args.join(" ")} answers and creates nothing`, async () => {
      const before = tree(repo.root);
      const users = canDrop ? [undefined, NOBODY] : [undefined];
      for (const uid of users) {
        const r = await run(args, uid);
        expect(r.code, `${uid ?? "this user"}: ${r.stderr}`).toBe(0);
        expect(tree(repo.root)).toEqual(before);
      }
    });
  }

  it("the answers say what would be done", async () => {
    expect((await run(["adopt", "--dry-run"])).stdout).toContain("I0002");
    expect((await run(["commit", "--dry-run"])).stdout).toContain("I0001");
  });

  it.runIf(canDrop)("a write as nobody is refused, and names why", async () => {
    const r = await run(["start", "I0001"], NOBODY);
    expect(r.code, r.stderr).toBe(15);
    expect(refusalOf(r)).toMatch(/EACCES/);
  });
});
