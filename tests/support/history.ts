// Test support (not used by the product): real git repositories whose plan changes commit by
// commit at chosen times, and checkouts of their revisions into other folders.
import { spawnSync } from "node:child_process";
import { runGit } from "./git";
import { historyIssueYaml, type IssueSpec } from "./record-files";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { CapabilityError } from "../../lib/plan/errors";
import { ISSUES_DIR, MILESTONES_DIR, PROJECT_FILE } from "../../lib/plan/constants";
import { seededRandom } from "./random";

export function git(cwd: string, args: readonly string[], env: Record<string, string> = {}): string {
  return runGit(cwd, args, { env });
}

const made: string[] = [];

/** The code of the refusal `fn` throws or rejects with, or "ok" when it answers. */
export async function refusalCode(fn: () => unknown): Promise<string> {
  try {
    await fn();
  } catch (e) {
    if (e instanceof CapabilityError) return e.code;
    throw e;
  }
  return "ok";
}

export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Remove every folder this module made. */
export function removeTempDirs(): void {
  while (made.length > 0) rmSync(made.pop()!, { recursive: true, force: true });
}

/** An empty repository on branch main. */
export function newRepo(prefix = "cockpit-history-"): string {
  const repo = tempDir(prefix);
  git(repo, ["init", "-q", "-b", "main"]);
  git(repo, ["config", "user.name", "Test Author"]);
  git(repo, ["config", "user.email", "author@example.com"]);
  git(repo, ["config", "commit.gpgsign", "false"]);
  return repo;
}

/** Write (text) or remove (null) files, relative to the repository. */
export function writeFiles(repo: string, files: Record<string, string | null>): void {
  for (const [path, text] of Object.entries(files)) {
    const full = join(repo, path);
    if (text === null) rmSync(full, { recursive: true, force: true });
    else {
      mkdirSync(dirname(full), { recursive: true });
      writeFileSync(full, text);
    }
  }
}

/** Commit every change (after writing `files`) with author and committer time `when`; the new sha. */
export function commitAt(repo: string, when: string, files: Record<string, string | null> = {}, message = `plan at ${when}`): string {
  writeFiles(repo, files);
  git(repo, ["add", "-A"]);
  git(repo, ["commit", "-q", "--allow-empty", "-m", message], { GIT_AUTHOR_DATE: when, GIT_COMMITTER_DATE: when });
  return git(repo, ["rev-parse", "HEAD"]);
}

/** The files of `rev` in a new folder, as `git archive` exports them (a checkout, without .git). */
export function checkout(repo: string, rev: string): string {
  const dir = tempDir("cockpit-checkout-");
  const r = spawnSync("sh", ["-c", `git archive --format=tar "$1" | tar -x -C "$2"`, "sh", rev, dir], { cwd: repo, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`checkout of ${rev} failed: ${r.stderr}`);
  return dir;
}

export const issuePath = (id: string) => `${ISSUES_DIR}/${id}.yaml`;
export const milestonePath = (id: string) => `${MILESTONES_DIR}/${id}.yaml`;
export const PROJECT = PROJECT_FILE;

export type { IssueSpec };

/** An issue record's text: stamps sealed, evidence covering its one requirement once completed. */
export const issueText = (i: IssueSpec): string => historyIssueYaml(i);

export function milestoneText(id: string, order = 10, depends_on: string[] = []): string {
  return [`id: ${id}`, `title: Milestone ${id}`, `order: ${order}`, `depends_on: [${depends_on.join(", ")}]`].join("\n") + "\n";
}

export function projectText(name = "Test"): string {
  return [`name: ${name}`, "repository: test/test", "default_branch: main"].join("\n") + "\n";
}

/** The seeded generator (mulberry32) for generated histories. */
export const randomOf = seededRandom;

export interface GeneratedCommit {
  sha: string;
  /** Committer time, ISO. */
  when: string;
}

/**
 * A repository whose plan changes over `count` commits, a few hours apart (several on some days,
 * none on others): issues added, moved with sealed or unsealed stamps, cancelled, re-pointed and
 * removed; milestones added and removed; files that do not parse, ids that disagree with their
 * file, a folder named like a record. The same seed makes the same history.
 */
export function generateHistory(seed: number, count: number, start = "2026-10-01T08:00:00Z"): { repo: string; commits: GeneratedCommit[] } {
  const rnd = randomOf(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const repo = newRepo("cockpit-generated-");
  const issues = new Map<string, IssueSpec>();
  const milestones = new Set<string>();
  const commits: GeneratedCommit[] = [];
  let time = Date.parse(start);
  let next = 1;
  for (let c = 0; c < count; c++) {
    time += Math.floor(rnd() * 30) * 3600_000 + 60_000;
    const when = new Date(time).toISOString().replace(/\.\d{3}Z$/, "Z");
    const files: Record<string, string | null> = {};
    const ops = 1 + Math.floor(rnd() * 3);
    for (let k = 0; k < ops; k++) {
      const roll = rnd();
      const ids = [...issues.keys()];
      if (c === 0 || roll < 0.3 || ids.length === 0) {
        const id = `I${String(next++).padStart(3, "0")}`;
        if (milestones.size === 0 || rnd() < 0.15) {
          const m = `m${milestones.size + 1}`;
          milestones.add(m);
          files[milestonePath(m)] = milestoneText(m, 10 * milestones.size, milestones.size > 1 && rnd() < 0.5 ? [pick([...milestones].filter((x) => x !== m))] : []);
        }
        const deps = ids.length > 0 && rnd() < 0.6 ? [pick(ids), ...(rnd() < 0.3 ? [pick(ids)] : [])] : [];
        const spec: IssueSpec = { id, milestone: rnd() < 0.9 ? pick([...milestones]) : "m-missing", depends_on: [...new Set(deps)] };
        issues.set(id, spec);
        files[issuePath(id)] = issueText(spec);
      } else if (roll < 0.7) {
        const spec = { ...issues.get(pick(ids))! };
        const move = rnd();
        if (move < 0.35 && !spec.started_at) spec.started_at = when;
        else if (move < 0.5 && !spec.verified_at) spec.verified_at = when;
        else if (move < 0.75 && !spec.completed_at) spec.completed_at = when;
        else if (move < 0.82) spec.cancelled = true;
        else if (move < 0.9) spec.depends_on = rnd() < 0.5 ? [] : [pick(ids)];
        else spec.unsealed = !spec.unsealed;
        issues.set(spec.id, spec);
        files[issuePath(spec.id)] = issueText(spec);
      } else if (roll < 0.78) {
        const id = pick(ids);
        issues.delete(id);
        files[issuePath(id)] = null;
      } else if (roll < 0.84) {
        files[issuePath(pick(ids))] = rnd() < 0.5 ? "id: [unclosed\n" : `id: SOMEONE-ELSE\nmilestone: m1\n`;
      } else if (roll < 0.88) {
        const m = pick([...milestones]);
        files[milestonePath(m)] = rnd() < 0.5 ? null : milestoneText(m, Math.floor(rnd() * 50));
      } else if (roll < 0.91) {
        files[`${ISSUES_DIR}/folder-${c}.yaml/inner.txt`] = "a folder named like a record\n";
      } else if (roll < 0.94) {
        const m = pick([...milestones]);
        files[issuePath(m)] = issueText({ id: m, milestone: m });
      } else {
        files[PROJECT_FILE] = rnd() < 0.2 ? "name: [broken\n" : projectText(`Project ${c}`);
      }
    }
    commits.push({ sha: commitAt(repo, when, files), when });
  }
  return { repo, commits };
}
