// A hostile repository's surroundings: the repository itself, a sentinel folder beside it (where
// its links point), and a fake HOME with shell start-up files. What the Cockpit may never touch
// is everything but the repository; `snapshotOutside` takes its bytes, types and link targets.
import { spawn, spawnSync } from "node:child_process";
import { runGit } from "../support/git";
import { createHash, randomBytes } from "node:crypto";
import { cpSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { ROOT } from "../support/repo";

/** Every path of a run's hostile content that would mean a command ran: `/tmp/PWNED-<token>…`. */
export const TOKEN = randomBytes(6).toString("hex");
export const PWNED = `/tmp/PWNED-${TOKEN}`;

export const PROJECT = ".ai/repo/project";
export const ISSUES = `${PROJECT}/issues`;
export const MILESTONES = `${PROJECT}/milestones`;
export const STATE = ".ai/local/state";

export interface Sandbox {
  /** The folder that holds the three below (nothing else may appear in it). */
  root: string;
  repo: string;
  outside: string;
  home: string;
  /** The environment the Cockpit's processes run with: HOME is the fake one. */
  env: Record<string, string>;
}

const created: string[] = [];

/** Run git in a folder (setup only); throws with git's stderr when it fails. */
export function git(cwd: string, args: readonly string[], input?: string | Buffer): string {
  return runGit(cwd, ["-c", "user.name=Hostile Setup", "-c", "user.email=setup@hostile.invalid", "-c", "commit.gpgsign=false", ...args], { input });
}

let template: string | undefined;

/** The demo plan with its six weeks of history (scripts/demo-history.mjs), made once per run. */
export function demoTemplate(): string {
  if (template) return template;
  const dir = mkdtempSync(join(tmpdir(), "cockpit-hostile-template-"));
  created.push(dir);
  const r = spawnSync(process.execPath, [join(ROOT, "scripts", "demo-history.mjs"), join(dir, "repo")], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`demo-history: ${r.stderr}`);
  template = join(dir, "repo");
  return template;
}

/** A fresh copy of the demo repository with its sentinel folder and fake HOME. */
export function makeSandbox(name: string): Sandbox {
  const root = mkdtempSync(join(tmpdir(), `cockpit-hostile-${name.replace(/[^a-z0-9]+/gi, "-").slice(0, 40)}-`));
  created.push(root);
  const repo = join(root, "repo");
  const outside = join(root, "outside");
  const home = join(root, "home");
  cpSync(demoTemplate(), repo, { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(outside, "sentinel.txt"), "nothing may change this file\n");
  mkdirSync(home);
  writeFileSync(join(home, ".bashrc"), "# ~/.bashrc\nexport PS1='$ '\n");
  writeFileSync(join(home, ".profile"), "# ~/.profile\n. ~/.bashrc\n");
  writeFileSync(join(home, ".gitconfig"), "[user]\n\tname = Hostile Tester\n\temail = tester@hostile.invalid\n[commit]\n\tgpgsign = false\n");
  const env: Record<string, string> = {
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    GIT_CONFIG_NOSYSTEM: "1",
    COCKPIT_TOKEN: "",
    COCKPIT_USERS: "",
    COCKPIT_DATABASE_URL: "",
  };
  return { root, repo, outside, home, env };
}

/** Remove every sandbox this module made. */
export function cleanupSandboxes(): void {
  while (created.length > 0) rmSync(created.pop()!, { recursive: true, force: true });
}

/**
 * Each path outside the repository (the sentinel folder, the fake HOME, the sandbox's own entries)
 * with its type, mode and content digest or link target, read without following any link.
 */
export function snapshotOutside(sb: Sandbox): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (path: string) => {
    const st = lstatSync(path);
    const key = relative(sb.root, path);
    const mode = (st.mode & 0o7777).toString(8);
    if (st.isSymbolicLink()) out.set(key, `link -> ${readlinkSync(path)}`);
    else if (st.isDirectory()) {
      out.set(key, `dir ${mode}`);
      for (const name of readdirSync(path).sort()) walk(join(path, name));
    } else if (st.isFile()) out.set(key, `file ${mode} ${st.size} ${createHash("sha256").update(readFileSync(path)).digest("hex")}`);
    else out.set(key, `special ${st.mode.toString(8)}`);
  };
  walk(sb.outside);
  walk(sb.home);
  for (const name of readdirSync(sb.root).sort()) if (name !== "repo" && name !== "outside" && name !== "home") out.set(name, "an entry nobody made");
  return out;
}

/** What differs between two snapshots, one line per path. */
export function changedPaths(before: Map<string, string>, after: Map<string, string>): string[] {
  const lines: string[] = [];
  for (const [k, v] of before) if (after.get(k) !== v) lines.push(`${k}: ${v} → ${after.get(k) ?? "(gone)"}`);
  for (const [k, v] of after) if (!before.has(k)) lines.push(`${k}: (new) ${v}`);
  return lines;
}

/** The files a run's hostile content names, if any command made one. */
export function pwnedFiles(): string[] {
  return readdirSync("/tmp").filter((n) => n.startsWith(`PWNED-${TOKEN}`)).map((n) => join("/tmp", n));
}

/** A named pipe (nothing ever writes it: whoever opens it for reading waits forever). */
export function mkfifo(path: string): void {
  rmSync(path, { recursive: true, force: true });
  const r = spawnSync("mkfifo", [path]);
  if (r.status !== 0) throw new Error(`mkfifo ${path}: ${r.stderr}`);
}

/**
 * Put `bytes` zero bytes into the object store as one blob, streamed (never whole in memory), and
 * return its id.
 */
export function zeroBlob(repo: string, bytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn("git", ["hash-object", "-w", "--stdin"], { cwd: repo, stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (err += d));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`git hash-object: ${err}`))));
    const chunk = Buffer.alloc(1024 * 1024);
    let left = bytes;
    const pump = () => {
      while (left > 0) {
        const n = Math.min(left, chunk.length);
        left -= n;
        if (!child.stdin.write(n === chunk.length ? chunk : chunk.subarray(0, n))) {
          child.stdin.once("drain", pump);
          return;
        }
      }
      child.stdin.end();
    };
    pump();
  });
}

/** Commit `tree` on top of HEAD (HEAD's branch moves), without touching the work tree or the index. */
export function commitTree(repo: string, tree: string, message: string): string {
  const commit = git(repo, ["commit-tree", tree, "-p", "HEAD", "-F", "-"], message);
  git(repo, ["update-ref", "HEAD", commit]);
  return commit;
}

/** HEAD's tree with one more file (a blob already in the store), through a temporary index. */
export function treeWith(repo: string, path: string, blob: string): string {
  const index = join(mkdtempSync(join(tmpdir(), "cockpit-hostile-index-")), "index");
  try {
    const env = { ...process.env, GIT_INDEX_FILE: index };
    const run = (args: string[]) => {
      const r = spawnSync("git", args, { cwd: repo, env, encoding: "utf8" });
      if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
      return r.stdout.trim();
    };
    run(["read-tree", "HEAD"]);
    run(["update-index", "--add", "--cacheinfo", `100644,${blob},${path}`]);
    return run(["write-tree"]);
  } finally {
    rmSync(join(index, ".."), { recursive: true, force: true });
  }
}
