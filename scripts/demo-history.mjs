#!/usr/bin/env node
// Writes the demo plan into a folder as a git repository with a past: about six weeks of commits,
// the code's branches and merges among them
// (scripts/demo/history.mjs `demoHistory`) dated back so that the last one is yesterday, so the
// standup, the burn-up and the forecast have something real to show on the first run.
// Usage: node scripts/demo-history.mjs DIR [--today YYYY-MM-DD]
// `npm run demo` (scripts/demo.mjs) and the e2e setup (playwright.config.ts) both call it.

import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { demoHistory } from "./demo/history.mjs";
import { DEMO_TODAY } from "./demo/plan.mjs";

const DAY_MS = 86_400_000;

/** Whole days from the demo's own today to `today` (YYYY-MM-DD, UTC). */
export function demoShift(today) {
  return Math.round((Date.parse(`${today}T00:00:00Z`) - Date.parse(`${DEMO_TODAY}T00:00:00Z`)) / DAY_MS);
}

/**
 * A `git fast-import` stream of `commits` ({at, author: {name, email}, message, files: Map path→text,
 * ref, parents}), each the whole tree, written as its change against its first parent. `ref` and
 * `parents` (indices of earlier commits) default to refs/heads/main and the commit before.
 */
export function fastImportStream(commits) {
  const chunks = [];
  const data = (text) => {
    const bytes = Buffer.from(text, "utf8");
    chunks.push(Buffer.from(`data ${bytes.length}\n`), bytes, Buffer.from("\n"));
  };
  commits.forEach((c, i) => {
    const parents = c.parents ?? (i === 0 ? [] : [i - 1]);
    const seconds = Math.floor(Date.parse(c.at) / 1000);
    const who = `${c.author.name} <${c.author.email}> ${seconds} +0000`;
    chunks.push(Buffer.from(`commit ${c.ref ?? "refs/heads/main"}\nmark :${i + 1}\nauthor ${who}\ncommitter ${who}\n`));
    data(c.message);
    if (parents.length > 0) chunks.push(Buffer.from(`from :${parents[0] + 1}\n`));
    for (const p of parents.slice(1)) chunks.push(Buffer.from(`merge :${p + 1}\n`));
    const previous = parents.length > 0 ? commits[parents[0]].files : new Map();
    for (const path of previous.keys()) if (!c.files.has(path)) chunks.push(Buffer.from(`D ${path}\n`));
    for (const [path, text] of c.files) {
      if (previous.get(path) === text) continue;
      chunks.push(Buffer.from(`M 100644 inline ${path}\n`));
      data(text);
    }
    chunks.push(Buffer.from("\n"));
  });
  return Buffer.concat(chunks);
}

/**
 * Makes `dir` (absent or empty) a git repository on branch main holding the demo's history, the
 * last commit checked out. Returns the number of commits and the shift applied to the dates.
 */
export function writeDemoHistory(dir, { today = new Date().toISOString().slice(0, 10) } = {}) {
  if (existsSync(dir) && readdirSync(dir).length > 0) throw new Error(`${dir} is not empty: the demo history is written into a new folder`);
  mkdirSync(dir, { recursive: true });
  const shift = demoShift(today);
  const commits = demoHistory(shift);
  const git = (args, input) => execFileSync("git", args, { cwd: dir, input, stdio: [input ? "pipe" : "ignore", "pipe", "pipe"] });
  git(["init", "-q", "-b", "main"]);
  // The browser of the demo acts as one of its team (Ana Sousa): a move made there is hers, as her commits are.
  git(["config", "user.name", "Ana Sousa"]);
  git(["config", "user.email", "ana@harbor.test"]);
  git(["config", "commit.gpgsign", "false"]);
  git(["fast-import", "--quiet", "--done"], Buffer.concat([fastImportStream(commits), Buffer.from("done\n")]));
  // Branches merged and deleted, or squashed, leave only their merge or squash commit behind.
  for (const ref of git(["for-each-ref", "--format=%(refname)", "refs/demo-deleted"]).toString("utf8").split("\n").filter(Boolean)) git(["update-ref", "-d", ref]);
  git(["reset", "-q", "--hard", "main"]);
  return { commits: commits.length, shift };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const at = args.indexOf("--today");
  const today = at >= 0 ? args.splice(at, 2)[1] : undefined;
  if (args.length !== 1 || (today !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(today))) {
    process.stderr.write("usage: node scripts/demo-history.mjs DIR [--today YYYY-MM-DD]\n");
    process.exit(2);
  }
  const dir = resolve(args[0]);
  const { commits, shift } = writeDemoHistory(dir, today ? { today } : undefined);
  process.stdout.write(`demo-history: ${commits} commits in ${dir}, dated ${shift} days after the demo's own dates\n`);
}
