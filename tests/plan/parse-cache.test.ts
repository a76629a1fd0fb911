import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { derivePlan } from "@/lib/plan/derive";
import { loadRecords } from "@/lib/repo/load";
import { loadRecordsWithParseCache, parseCacheFile, readParseCache } from "@/lib/repo/parse-cache";
import { generateRepo } from "../oracle/generate";
import { CASES } from "../hostile/cases";
import { cleanupSandboxes, makeSandbox } from "../hostile/sandbox";

// The parse cache is a cache: every answer read through it equals the answer read without it, on
// generated plans and on every hostile repository, cold (it is written) and warm (it is read); a
// torn, corrupt or foreign cache is never believed, and none is reached through a link.

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
  cleanupSandboxes();
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

function gitInit(dir: string): void {
  const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t.invalid", "-c", "commit.gpgsign=false", ...args], { cwd: dir, stdio: "ignore" });
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("commit", "-q", "--allow-empty", "-m", "plan");
}

/** What a reader derives: the records and the plan, as one comparable value. */
const answerOf = (records: ReturnType<typeof loadRecords>) => ({ records, plan: derivePlan(records) });

/** The repository read without a cache, then through it twice (cold, then warm): all three the same. */
function expectSameThroughCache(repo: string): void {
  const plain = answerOf(loadRecords(repo));
  expect(answerOf(loadRecordsWithParseCache(repo))).toEqual(plain);
  expect(answerOf(loadRecordsWithParseCache(repo))).toEqual(plain);
}

/** A small plan in a git repository. */
function demoRepo(): string {
  const repo = join(tempDir("cockpit-parse-cache-"), "repo");
  cpSync(join(__dirname, "..", "..", "examples", "demo"), repo, { recursive: true });
  gitInit(repo);
  return repo;
}

const ISSUES = ".ai/repo/project/issues";

/**
 * A file changed within RACY_MS (2 s) is compared by its bytes, never trusted by its stamp: files
 * are aged past that before the cache is put to use, so that its stamps are what vouch.
 */
const settle = () => new Promise((resolve) => setTimeout(resolve, 2_100));

/** The number of record files of a plan (what a whole cache keeps). */
function recordFiles(repo: string): number {
  const project = join(repo, ".ai/repo/project");
  const count = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith(".yaml")).length : 0);
  return (existsSync(join(project, "project.yaml")) ? 1 : 0) + count(join(project, "milestones")) + count(join(project, "issues"));
}

const generated: string[] = [];
const hostile: { name: string; repo: string }[] = [];
const demos: string[] = [];
beforeAll(async () => {
  for (let seed = 1; seed <= 24; seed++) {
    const repo = join(tempDir(`cockpit-parse-cache-gen-${seed}-`), "repo");
    generateRepo(seed, repo);
    gitInit(repo);
    generated.push(repo);
  }
  for (const c of CASES) {
    const sb = makeSandbox(c.name);
    await c.prepare(sb);
    hostile.push({ name: c.name, repo: sb.repo });
  }
  for (let i = 0; i < 12; i++) demos.push(demoRepo());
  await settle();
}, 120_000);

describe("the parse cache gives the answers a read without it gives", () => {
  it("on generated plans, and keeps every record file", () => {
    for (const repo of generated) {
      expectSameThroughCache(repo);
      if (existsSync(join(repo, ".ai"))) expect(readParseCache(repo)?.files).toBe(recordFiles(repo));
    }
  });

  it("on every hostile repository", () => {
    for (const { name, repo } of hostile) {
      try {
        expectSameThroughCache(repo);
      } catch (error) {
        throw new Error(`case ${name}: ${(error as Error).message}`);
      }
    }
  });

  it("is written in the git folder, and read back", () => {
    const repo = demos[0];
    loadRecordsWithParseCache(repo);
    expect(parseCacheFile(repo)).toBe(join(repo, ".git", "cockpit", "parse-cache"));
    expect(readParseCache(repo)?.files).toBe(recordFiles(repo));
  });

  it("keeps no file changed within the last 2 s by its stamp", () => {
    const repo = demos[1];
    const name = readdirSync(join(repo, ISSUES)).sort()[0];
    writeFileSync(join(repo, ISSUES, name), readFileSync(join(repo, ISSUES, name)));
    loadRecordsWithParseCache(repo);
    expect(readParseCache(repo)?.files).toBe(recordFiles(repo) - 1);
  });
});

describe("a record whose bytes changed is parsed again", () => {
  it("even when its size and modification time are put back", async () => {
    const repo = demos[2];
    const name = readdirSync(join(repo, ISSUES)).sort()[0];
    const file = join(repo, ISSUES, name);
    loadRecordsWithParseCache(repo);
    expect(readParseCache(repo)?.files).toBe(recordFiles(repo));
    const before = statSync(file);
    const text = readFileSync(file, "utf8");
    const title = /^title: (.*)$/m.exec(text)![1];
    const other = title.split("").reverse().join("");
    writeFileSync(file, text.replace(`title: ${title}`, `title: ${other}`));
    utimesSync(file, before.atime, before.mtime);
    expect(statSync(file).size).toBe(before.size);
    const id = name.slice(0, -5);
    expect(loadRecordsWithParseCache(repo).issues.find((i) => i.id === id)?.title).toBe(other.trim());
    expectSameThroughCache(repo);
    // Once it is old enough for its stamp to be kept, the stamp (its change time) still tells it apart.
    await settle();
    expectSameThroughCache(repo);
    expect(loadRecordsWithParseCache(repo).issues.find((i) => i.id === id)?.title).toBe(other.trim());
  });

  it("a file replaced by a copy of another's bytes takes that parse, under its own name", () => {
    const repo = demos[3];
    loadRecordsWithParseCache(repo);
    const [a, b] = readdirSync(join(repo, ISSUES)).sort();
    writeFileSync(join(repo, ISSUES, b), readFileSync(join(repo, ISSUES, a)));
    // b now declares a's id: the loader's finding, as without a cache.
    expectSameThroughCache(repo);
    expect(loadRecordsWithParseCache(repo).loadFindings.some((f) => f.subject === b.slice(0, -5))).toBe(true);
  });
});

describe("a cache that is not whole and this repository's is never believed", () => {
  /**
   * The repository's own cache with every title changed and its checksum made again, its owner's
   * folder identity set by `owner`: believed, it would show POISONED titles.
   */
  function forged(repo: string, owner: (header: Record<string, unknown>) => void): Buffer {
    const bytes = readFileSync(parseCacheFile(repo)!);
    const first = bytes.indexOf(10);
    const second = bytes.indexOf(10, first + 1);
    const header = JSON.parse(bytes.subarray(first + 1, second).toString("utf8")) as Record<string, unknown>;
    const payload = Buffer.from(bytes.subarray(second + 1).toString("utf8").replace(/"title":"[^"]*"/g, '"title":"POISONED"'));
    owner(header);
    header.bytes = payload.length;
    header.sha1 = createHash("sha1").update(payload).digest("hex");
    return Buffer.concat([bytes.subarray(0, first + 1), Buffer.from(`${JSON.stringify(header)}\n`), payload]);
  }

  it("ignores a cache made for another folder (a copy of the repository, or one planted)", () => {
    const repo = demos[4];
    loadRecordsWithParseCache(repo);
    const file = parseCacheFile(repo)!;
    const own = readFileSync(file);
    // The forgery works when it names this folder (which is why a cache lives where no clone brings one)…
    writeFileSync(file, forged(repo, () => undefined));
    expect(loadRecordsWithParseCache(repo).issues.every((i) => i.title === "POISONED")).toBe(true);
    // …and is ignored when it names any other.
    writeFileSync(file, forged(repo, (h) => (h.ino = Number(h.ino) + 1)));
    expect(readParseCache(repo)).toBeUndefined();
    expect(loadRecordsWithParseCache(repo).issues.some((i) => i.title === "POISONED")).toBe(false);
    expectSameThroughCache(repo);
    writeFileSync(file, own);
    // A copy of the whole repository, its git folder and the cache in it included, is another folder.
    const copy = join(tempDir("cockpit-parse-cache-copy-"), "repo");
    execFileSync("cp", ["-a", "--", repo, copy]);
    expect(readParseCache(copy)).toBeUndefined();
    expectSameThroughCache(copy);
  });

  it.each([
    ["torn in half", (b: Buffer) => b.subarray(0, b.length >> 1)],
    ["one byte changed", (b: Buffer) => Buffer.concat([b.subarray(0, b.length - 40), Buffer.from([b[b.length - 40] ^ 1]), b.subarray(b.length - 39)])],
    ["empty", () => Buffer.alloc(0)],
    ["not a cache", () => Buffer.from("id: BK-001\ntitle: not a cache\n")],
  ])("ignores a cache %s", (_name, corrupt) => {
    const repo = demos[6 + ["torn in half", "one byte changed", "empty", "not a cache"].indexOf(_name)];
    loadRecordsWithParseCache(repo);
    const file = parseCacheFile(repo)!;
    expect(readParseCache(repo)?.files).toBe(recordFiles(repo));
    writeFileSync(file, corrupt(readFileSync(file)));
    expect(readParseCache(repo)).toBeUndefined();
    expectSameThroughCache(repo);
    expect(readParseCache(repo)?.files).toBe(recordFiles(repo));
  });
});

describe("the cache is never reached through a link", () => {
  it("a cache folder that is a link out is neither read nor written", () => {
    const repo = demos[10];
    const outside = tempDir("cockpit-parse-cache-outside-");
    symlinkSync(outside, join(repo, ".git", "cockpit"));
    expect(parseCacheFile(repo)).toBeUndefined();
    expectSameThroughCache(repo);
    expect(readdirSync(outside)).toEqual([]);
  });

  it("a cache file that is a link is not read, and the write replaces the link, not its target", () => {
    const repo = demos[11];
    const outside = join(tempDir("cockpit-parse-cache-outside-"), "target");
    writeFileSync(outside, "sentinel\n");
    mkdirSync(join(repo, ".git", "cockpit"));
    symlinkSync(outside, join(repo, ".git", "cockpit", "parse-cache"));
    expectSameThroughCache(repo);
    expect(readFileSync(outside, "utf8")).toBe("sentinel\n");
    expect(lstatSync(join(repo, ".git", "cockpit", "parse-cache")).isFile()).toBe(true);
  });
});

describe("without git, a read writes nothing", () => {
  it("keeps no cache in a folder that is no repository", () => {
    const repo = join(tempDir("cockpit-parse-cache-nogit-"), "repo");
    cpSync(join(__dirname, "..", "..", "examples", "demo"), repo, { recursive: true });
    const before = readdirSync(repo, { recursive: true }).sort();
    expect(parseCacheFile(repo)).toBeUndefined();
    expectSameThroughCache(repo);
    expect(readdirSync(repo, { recursive: true }).sort()).toEqual(before);
  });

  it("a plan in a subfolder of a repository has a cache of its own in that repository's git folder", () => {
    const top = join(tempDir("cockpit-parse-cache-sub-"), "top");
    mkdirSync(top);
    cpSync(join(__dirname, "..", "..", "examples", "demo"), join(top, "plan"), { recursive: true });
    gitInit(top);
    const file = parseCacheFile(join(top, "plan"));
    expect(file?.startsWith(join(top, ".git", "cockpit", "parse-cache-"))).toBe(true);
    expectSameThroughCache(join(top, "plan"));
    renameSync(join(top, "plan"), join(top, "moved"));
    // Another folder is another cache (and the old one is not believed for it).
    expectSameThroughCache(join(top, "moved"));
  });
});
