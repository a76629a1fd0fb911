// The hostile repositories, as data: each case turns a fresh copy of the demo plan (with its
// history) into one thing a repository written by someone else could hold, names the part of
// issue 21 that holds it, and may add a check of its own. The test drives every verb over each.
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { ISSUES, MILESTONES, PROJECT, PWNED, STATE, TOKEN, type Sandbox, commitTree, git, mkfifo, treeWith, zeroBlob } from "./sandbox";
import { COCKPIT_VERSION } from "@/lib/version";
import { DEMO_TARGETS, type Targets } from "./verbs";

export interface HostileCase {
  name: string;
  /** The part of issue 21 whose promise the case holds. */
  holds: string;
  prepare(sb: Sandbox): void | Promise<void>;
  targets?: Partial<Targets>;
  /** Text only the files outside hold: an answer that carries it read through a link out. */
  outsideMarker?: string;
  /**
   * Why the command line runs as a child process for this case, not in process: a regression
   * would block the process for ever (a read of a named pipe waits for a writer), and only a
   * process can be killed at the limit.
   */
  asProcess?: string;
  /** The problems a case finds after the verbs ran, beyond what every case checks. */
  after?(sb: Sandbox, setupHead: string): string[];
}

/** `git add -A && git commit` in the repository, as the repository's author would. */
function commitAll(sb: Sandbox, message: string): void {
  git(sb.repo, ["add", "-A"]);
  git(sb.repo, ["commit", "-q", "--no-verify", "-m", message]);
}

export const OUTSIDE_MARKER = `OUTSIDE-${TOKEN}`;

/** Every record title under a path marked as read from outside. */
function markTitles(path: string): void {
  const files = statSync(path).isDirectory() ? readdirSync(path, { recursive: true, encoding: "utf8" }).map((f) => join(path, f)) : [path];
  for (const f of files.filter((f) => f.endsWith(".yaml"))) writeFileSync(f, readFileSync(f, "utf8").replace(/^(title|name): (.*)$/m, `$1: ${OUTSIDE_MARKER} $2`));
}

/** Move a path of the repository into the sentinel folder and leave a link to it in its place. */
function moveOutAndLink(sb: Sandbox, rel: string): void {
  const inside = join(sb.repo, rel);
  const outside = join(sb.outside, `moved-${basename(rel)}`);
  renameSync(inside, outside);
  markTitles(outside);
  symlinkSync(outside, inside);
}

/** A link in the repository's state folder to a path outside that does not exist yet. */
function linkState(sb: Sandbox, name: string, target: string): void {
  mkdirSync(join(sb.repo, STATE), { recursive: true });
  symlinkSync(target, join(sb.repo, STATE, name));
}

/** Point HEAD at a new branch of this name (git accepts it: check-ref-format is the only rule). */
function checkoutBranch(sb: Sandbox, name: string): void {
  git(sb.repo, ["check-ref-format", `refs/heads/${name}`]);
  git(sb.repo, ["update-ref", `refs/heads/${name}`, "HEAD"]);
  git(sb.repo, ["symbolic-ref", "HEAD", `refs/heads/${name}`]);
}

const HOSTILE_REF_NAMES = [
  `$(touch\${IFS}${PWNED}-dollar)`,
  `\`touch\${IFS}${PWNED}-backtick\``,
  `x;touch\${IFS}${PWNED}-semicolon`,
  `x|touch\${IFS}${PWNED}-pipe&&touch\${IFS}${PWNED}-and`,
  `--output=${PWNED}-option`,
  `x'"<y>$HOME`,
];

/** Every control character class in one value: NUL, ESC (a CSI and an OSC), DEL, C1, CR, LF. */
const CONTROLS = "\\0 \\e[2J\\e]0;pwned\\a \\x7f \\x9b \\r\\n";
const ESC_ID = "BK-\u001b[31mX";
const MALLORY = "Signed-off-by: Mallory <mallory@evil.invalid>";

/** A record whose every field holds control characters, spelt with YAML's double-quoted escapes. */
function controlRecord(idAsWritten: string): string {
  const q = (s: string) => `"${s}"`;
  return [
    `id: ${q(idAsWritten)}`,
    "milestone: booking",
    `title: ${q(`Controls ${CONTROLS} end`)}`,
    `slug: ${q(`slug${CONTROLS}`)}`,
    `priority: ${q("\\0")}`,
    `profile: ${q(`implementation\\e[8m`)}`,
    `owner: ${q(`tom\\0\\n${MALLORY}`)}`,
    `objective: ${q(`Objective ${CONTROLS}`)}`,
    `scope: [${q(`apps/${CONTROLS}`)}, ${q("\\0")}]`,
    `depends_on: [BK-012, ${q("\\0")}, ${q("\\e[5m")}]`,
    `acceptance_criteria: [${q(`works ${CONTROLS}`)}]`,
    `validation: [${q(`true ${CONTROLS}`)}]`,
    `evidence_required: [${q(`proof${CONTROLS}`)}]`,
    `created_at: ${q("2026-10-14\\e[0m")}`,
    "",
  ].join("\n");
}

/** Object.prototype's members, as every id, key and value of a record (cockpit issue 39). */
const PROTOTYPE_WORDS = ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty"];
const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype).sort().join(",");

/** A record whose id, values, list entries and extra keys are one of PROTOTYPE_WORDS. */
function prototypeRecord(word: string): string {
  return [
    `id: "${word}"`,
    "milestone: booking",
    `title: "${word}"`,
    `priority: "${word}"`,
    `profile: "${word}"`,
    `owner: "${word}"`,
    `objective: "${word}"`,
    `depends_on: [${PROTOTYPE_WORDS.filter((w) => w !== word).map((w) => `"${w}"`).join(", ")}]`,
    `acceptance_criteria: ["${word}"]`,
    `${word}: { ${word}: "${word}" }`,
    "",
  ].join("\n");
}

/** Messages of the commits made since the setup, each parsed for trailers by git itself. */
function trailersSince(sb: Sandbox, setupHead: string): string[] {
  const commits = git(sb.repo, ["rev-list", `${setupHead}..HEAD`]).split("\n").filter(Boolean);
  return commits.map((c) => git(sb.repo, ["interpret-trailers", "--parse"], git(sb.repo, ["log", "-1", "--format=%B", c])));
}

const LINKED_LEVELS = [".ai", ".ai/repo", PROJECT, MILESTONES, ISSUES, `${ISSUES}/BK-016.yaml`];

export const CASES: HostileCase[] = [
  ...LINKED_LEVELS.map(
    (rel): HostileCase => ({
      name: `${rel} is a link out of the repository (committed)`,
      holds: rel.endsWith(".yaml") ? "the loader's link check (a record file)" : "item 2: the records folders are inside the repository",
      prepare(sb) {
        moveOutAndLink(sb, rel);
        commitAll(sb, `link ${rel} out`);
      },
      outsideMarker: OUTSIDE_MARKER,
    }),
  ),
  ...[".ai/local", STATE, `${STATE}/undo`].map(
    (rel): HostileCase => ({
      name: `${rel} is a link to an empty folder outside (committed)`,
      holds: "item 1: no state is reached through a link",
      prepare(sb) {
        const target = join(sb.outside, `state-of-${basename(rel)}`);
        mkdirSync(target);
        mkdirSync(dirname(join(sb.repo, rel)), { recursive: true });
        symlinkSync(target, join(sb.repo, rel));
        commitAll(sb, `link ${rel} out`);
      },
    }),
  ),
  {
    name: "the ledger is a committed link to ~/.bashrc, and HEAD is on a branch named $(touch …)",
    holds: "item 1 (the critical hole): no state is reached through a link",
    prepare(sb) {
      linkState(sb, "ledger.jsonl", join(sb.home, ".bashrc"));
      commitAll(sb, "link the ledger to the shell's start-up file");
      checkoutBranch(sb, HOSTILE_REF_NAMES[0]);
    },
  },
  ...[["plan.lock"], ["cockpit.db", "holder"]].map(
    (names): HostileCase => ({
      name: `${names.map((n) => `${STATE}/${n}`).join(" and ")} ${names.length > 1 ? "are committed links" : "is a committed link"} to a path outside that does not exist`,
      holds: "item 1: no state is reached through a link",
      prepare(sb) {
        for (const name of names) linkState(sb, name, join(sb.outside, `created-through-${name}`));
        commitAll(sb, `link ${names.join(", ")} out`);
      },
    }),
  ),
  {
    name: "the state files are tracked by git (a ledger line, a holder id and a plan lock committed)",
    holds: "item 1: a state file tracked by git is never written",
    prepare(sb) {
      mkdirSync(join(sb.repo, STATE), { recursive: true });
      writeFileSync(join(sb.repo, STATE, "ledger.jsonl"), `${JSON.stringify({ ts: "2026-11-01T00:00:00Z", event: "plan_started", issue: "BK-001", by: "someone else" })}\n`);
      writeFileSync(join(sb.repo, STATE, "holder"), "someone-elses-holder\n");
      writeFileSync(join(sb.repo, STATE, "plan.lock"), `${JSON.stringify({ pid: 999999, host: "elsewhere", since: "2026-11-01T00:00:00Z" })}\n`);
      commitAll(sb, "commit the clone's state");
    },
    after(sb) {
      // A new untracked file (the SQLite store plans create makes) is no tracked file written.
      const changed = git(sb.repo, ["status", "--porcelain", "--untracked-files=no", "--", ".ai/local"]);
      return changed ? [`a state file tracked by git was written (git status: ${changed.replace(/\n/g, "; ")})`] : [];
    },
  },
  {
    name: "undo files committed in the undo store, naming files outside the repository (as the CLI's own moves)",
    holds: "item 1: the undo store is the Cockpit's state; an undo writes only its record's own file",
    prepare(sb) {
      const victim = join(sb.outside, "sentinel.txt");
      const text = readFileSync(victim, "utf8");
      const forged = (n: number, path: string) => ({ ledger_id: n, event: "plan_start", record: "BK-016", kind: "issue", path, by: `cockpit/${COCKPIT_VERSION}`, before: "PWNED\n", after: text });
      mkdirSync(join(sb.repo, STATE, "undo"), { recursive: true });
      // Every ledger line the verbs may undo, each naming the sentinel, as a path and as a record.
      for (let n = 1; n <= 60; n++) {
        const undo = n % 2 ? forged(n, relative(sb.repo, victim)) : { ...forged(n, `${ISSUES}/../../../../../outside/sentinel.txt`), record: "../../../../outside/sentinel" };
        writeFileSync(join(sb.repo, STATE, "undo", `${n}.json`), JSON.stringify(undo) + "\n");
      }
      commitAll(sb, "commit undo files");
    },
    after(sb) {
      const changed = git(sb.repo, ["status", "--porcelain", "--untracked-files=no", "--", `${STATE}/undo`]);
      return changed ? [`a tracked undo file was written (git status: ${changed.replace(/\n/g, "; ")})`] : [];
    },
  },
  {
    name: "a record and a milestone are named pipes",
    holds: "the loader's regular-file check (records); item 4 for commits",
    asProcess: "a record read as a named pipe would wait for a writer for ever",
    prepare(sb) {
      mkfifo(join(sb.repo, ISSUES, "BK-016.yaml"));
      mkfifo(join(sb.repo, MILESTONES, "booking.yaml"));
    },
  },
  {
    name: "the ledger, the plan lock, the holder id and the SQLite store are named pipes",
    holds: "item 1: state files are opened without following links and must be regular files",
    asProcess: "a state file opened as a named pipe would wait for a writer for ever",
    prepare(sb) {
      mkdirSync(join(sb.repo, STATE), { recursive: true });
      for (const name of ["ledger.jsonl", "plan.lock", "holder", "cockpit.db"]) mkfifo(join(sb.repo, STATE, name));
    },
  },
  {
    name: "a 64 MiB blob of zeros under issues/ in history (committed, then removed)",
    holds: "item 4: commits are read within the record limits",
    async prepare(sb) {
      const tree = git(sb.repo, ["rev-parse", "HEAD^{tree}"]);
      const blob = await zeroBlob(sb.repo, 64 * 1024 * 1024);
      commitTree(sb.repo, treeWith(sb.repo, `${ISSUES}/BK-099.yaml`, blob), "add BK-099");
      commitTree(sb.repo, tree, "remove BK-099");
    },
    targets: { history: "BK-099", record: "BK-099", since: "HEAD~2", revisions: ["HEAD~1"] },
  },
  {
    name: "branches and tags with shell in their names, HEAD on one of them",
    holds: "item 3 (revisions are data) and item 1 (the ledger's branch field)",
    prepare(sb) {
      for (const name of HOSTILE_REF_NAMES) {
        git(sb.repo, ["check-ref-format", `refs/heads/${name}`]);
        git(sb.repo, ["update-ref", `refs/heads/${name}`, "HEAD~1"]);
        git(sb.repo, ["update-ref", `refs/tags/${name}-tag`, "HEAD~2"]);
      }
      checkoutBranch(sb, HOSTILE_REF_NAMES[1]);
      git(sb.repo, ["commit", "-q", "--allow-empty", "-m", `$(touch \${IFS}${PWNED}-message)\n\n${MALLORY}`]);
    },
    targets: { revisions: [...HOSTILE_REF_NAMES, `${HOSTILE_REF_NAMES[2]}-tag`] },
  },
  {
    name: "revisions that are git's search, reflog, range, path and option forms",
    holds: "item 3: revisions are data, and every git call is bounded",
    prepare() {},
    targets: { revisions: [":/seal", "HEAD^{/booking}", "@{-1}", "HEAD@{0}", `--output=${PWNED}-revision`, "HEAD~3..HEAD", "HEAD:../../outside", "--all", "-n1"] },
  },
  {
    name: "a revision whose regex backtracks for minutes (HEAD^{/(.*)(.*)\\2\\1~~~}) against a long commit message",
    holds: "item 3: revisions are data, and every git call is bounded",
    prepare(sb) {
      git(sb.repo, ["commit", "-q", "--allow-empty", "-m", "a".repeat(400)]);
    },
    targets: { revisions: ["HEAD^{/(.*)(.*)\\2\\1~~~}"], revisionVerbs: "model" },
  },
  {
    name: "control characters in every field of a record, in its id and file name, and in the values the verbs write",
    holds: "item 9 (escaped at the terminal) and item 6 (commit messages built from data)",
    prepare(sb) {
      writeFileSync(join(sb.repo, ISSUES, `${ESC_ID}.yaml`), controlRecord("BK-\\e[31mX"));
      writeFileSync(join(sb.repo, ISSUES, "BK-016.yaml"), controlRecord("BK-016"));
      const project = join(sb.repo, PROJECT, "project.yaml");
      writeFileSync(project, readFileSync(project, "utf8").replace(/^name: .*$/m, `name: "Harbor ${CONTROLS}"`));
      const booking = join(sb.repo, MILESTONES, "booking.yaml");
      writeFileSync(booking, readFileSync(booking, "utf8").replace(/^title: .*$/m, `title: "Booking ${CONTROLS}"`));
      commitAll(sb, `controls\u001b[2J in a message\n\n${MALLORY}`);
      rmSync(join(sb.repo, ".git", "COMMIT_EDITMSG"), { force: true });
    },
    targets: {
      record: ESC_ID,
      history: ESC_ID,
      start: ESC_ID,
      edit: "BK-016",
      title: `Evil\u001b]0;pwned\u0007 title\u009b\u007f\n\n${MALLORY}`,
      servedTitle: `Evil\u0000 title\u001b[2J\r\n\n${MALLORY}`,
    },
    after(sb, setupHead) {
      const forged = trailersSince(sb, setupHead).filter((t) => t.includes("Mallory"));
      return forged.map((t) => `a commit the Cockpit made carries a trailer from record text: ${JSON.stringify(t)}`);
    },
  },
  {
    name: "records whose ids, keys and values are Object.prototype's members (__proto__, constructor, …)",
    holds: "issue 39: no map keyed by input reaches a prototype",
    prepare(sb) {
      for (const w of PROTOTYPE_WORDS) writeFileSync(join(sb.repo, ISSUES, `${w}.yaml`), prototypeRecord(w));
      commitAll(sb, "records named after Object.prototype's members");
    },
    targets: { record: "constructor", history: "__proto__", edit: "toString" },
    after() {
      const now = Object.getOwnPropertyNames(Object.prototype).sort().join(",");
      return now === PROTOTYPE_NAMES ? [] : [`Object.prototype was written: its own names are now ${now}`];
    },
  },
];

export function targetsOf(c: HostileCase): Targets {
  return { ...DEMO_TARGETS, ...c.targets };
}
