import { spawnSync } from "node:child_process";
import { constants, existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { cleanupRepos, makePlanRepo, tempDir, type PlanRepo } from "@/tests/support/repo";
import { CapabilityError } from "../plan/errors";
import { makeStateFolders, openStateFile, readStateFile, requireState, stateProblem, trackedState } from "./state-path";

// The Cockpit's own state under .ai/local is never reached through a link, never outside the
// repository, never a tracked file: each folder and the file are looked at, real ones on disk,
// with real git answering what is tracked.

afterAll(cleanupRepos);
afterEach(() => vi.restoreAllMocks());

const LEDGER = ".ai/local/state/ledger.jsonl";
const { O_APPEND, O_CREAT, O_WRONLY } = constants;

/** A folder outside the repository with one file in it, and what it holds. */
function outside(): { dir: string; file: string; listing: () => string[] } {
  const dir = tempDir("cockpit-outside-");
  const file = join(dir, ".bashrc");
  writeFileSync(file, "# a shell start-up file\n");
  return { dir, file, listing: () => readdirSync(dir).sort() };
}

async function refusal(p: Promise<unknown>): Promise<CapabilityError> {
  const e = await p.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(e).toBeInstanceOf(CapabilityError);
  expect((e as CapabilityError).code).toBe("refused");
  return e as CapabilityError;
}

function freshRepo(): PlanRepo {
  return makePlanRepo({ commit: true });
}

describe("state paths on disk", () => {
  it("accepts a clone with no state yet, and makes the folders one by one", async () => {
    const repo = freshRepo();
    await requireState(repo.root, [LEDGER]);
    makeStateFolders(repo.root, LEDGER);
    expect(existsSync(repo.path(".ai/local/state"))).toBe(true);
    expect(existsSync(repo.path(LEDGER))).toBe(false);
  });

  for (const level of [".ai/local", ".ai/local/state", LEDGER]) {
    it(`refuses ${level} as a link out of the repository, and writes nothing there`, async () => {
      const repo = freshRepo();
      const out = outside();
      const target = level === LEDGER ? out.file : out.dir;
      mkdirSync(repo.path(level.split("/").slice(0, -1).join("/")), { recursive: true });
      symlinkSync(target, repo.path(level));
      const e = await refusal(requireState(repo.root, [LEDGER]));
      expect(e.message).toContain(`${level} is a symbolic link (to ${JSON.stringify(target)})`);
      expect(e.message).toContain(`remove the link ${level}`);
      if (level !== LEDGER) expect(() => makeStateFolders(repo.root, LEDGER)).toThrow(CapabilityError);
      expect(() => openStateFile(repo.root, LEDGER, O_WRONLY | O_APPEND | O_CREAT)).toThrow(/symbolic link/);
      expect(out.listing()).toEqual([".bashrc"]);
      expect(readFileSync(out.file, "utf8")).toBe("# a shell start-up file\n");
    });
  }

  it("refuses a link even when it points inside the repository", async () => {
    const repo = freshRepo();
    mkdirSync(repo.path(".ai/elsewhere"), { recursive: true });
    symlinkSync(repo.path(".ai/elsewhere"), repo.path(".ai/local"));
    expect((await refusal(requireState(repo.root, [LEDGER]))).message).toMatch(/^\.ai\/local is a symbolic link/);
  });

  it("refuses a FIFO where a state file belongs without waiting on it", async () => {
    const repo = freshRepo();
    mkdirSync(repo.path(".ai/local/state"), { recursive: true });
    expect(spawnSync("mkfifo", [repo.path(LEDGER)]).status).toBe(0);
    expect((await refusal(requireState(repo.root, [LEDGER]))).message).toBe(
      `${LEDGER} is a FIFO, not a regular file, so the Cockpit cannot keep its state in it: remove ${LEDGER}`,
    );
    expect(() => openStateFile(repo.root, LEDGER, O_WRONLY | O_APPEND)).toThrow(/a FIFO/);
  });

  it("refuses a file where a state folder belongs", async () => {
    const repo = freshRepo();
    repo.write(".ai/local", "a file\n");
    expect((await refusal(requireState(repo.root, [LEDGER]))).message).toMatch(/^\.ai\/local is a file, not a folder/);
  });
});

describe("state tracked by git", () => {
  it("refuses a tracked state file, naming git rm --cached, and accepts it once untracked", async () => {
    const repo = freshRepo();
    repo.write(LEDGER, "");
    repo.commitAll("commit the ledger");
    const e = await refusal(requireState(repo.root, [LEDGER]));
    expect(e.message).toBe(
      `${LEDGER} is tracked by git, but it is the Cockpit's own state, this clone's alone: untrack it with git rm --cached -- ${LEDGER} (and list .ai/local/ in .gitignore)`,
    );
    repo.git("rm", "-q", "--cached", "--", LEDGER);
    await requireState(repo.root, [LEDGER]);
  });

  it("names both fixes for a committed link", async () => {
    const repo = freshRepo();
    const out = outside();
    mkdirSync(repo.path(".ai/local/state"), { recursive: true });
    symlinkSync(out.file, repo.path(LEDGER));
    repo.commitAll("commit a link");
    const message = await stateProblem(repo.root, LEDGER);
    expect(message).toContain(`it is tracked by git, so untrack it too: git rm --cached -- ${LEDGER}`);
    expect(message).toContain(`remove the link ${LEDGER}`);
  });

  it("a tracked link higher up covers every state path under it", async () => {
    const repo = freshRepo();
    repo.write(".ai/local/state/ledger.jsonl", "");
    repo.git("add", "-f", ".ai/local/state/ledger.jsonl");
    expect(await stateProblem(repo.root, ".ai/local/state/holder")).toBeUndefined();
    expect(await stateProblem(repo.root, LEDGER)).toMatch(/is tracked by git/);
  });

  it("a state folder (a path ending in /, the undo store) is refused as a link, as a file, and when git tracks anything in it", async () => {
    const UNDO = ".ai/local/state/undo";
    const link = freshRepo();
    const out = outside();
    mkdirSync(link.path(".ai/local/state"), { recursive: true });
    symlinkSync(out.dir, link.path(UNDO));
    expect(await stateProblem(link.root, `${UNDO}/`)).toMatch(/^\.ai\/local\/state\/undo is a symbolic link .*remove the link \.ai\/local\/state\/undo/);
    const file = freshRepo();
    file.write(UNDO, "");
    expect(await stateProblem(file.root, `${UNDO}/`)).toMatch(/^\.ai\/local\/state\/undo is a file, not a folder/);
    const tracked = freshRepo();
    tracked.write(`${UNDO}/1.json`, "{}\n");
    expect(await stateProblem(tracked.root, `${UNDO}/`)).toBeUndefined();
    tracked.git("add", "-f", `${UNDO}/1.json`);
    expect(await stateProblem(tracked.root, `${UNDO}/`)).toBe(
      `${UNDO}/1.json is tracked by git, but it is the Cockpit's own state, this clone's alone: untrack it with git rm -r --cached -- ${UNDO} (and list .ai/local/ in .gitignore)`,
    );
    expect(out.listing()).toEqual([".bashrc"]);
  });

  it("asks git again only when the index changes", async () => {
    const repo = freshRepo();
    const first = await trackedState(repo.root);
    expect(await trackedState(repo.root)).toBe(first);
    repo.write(LEDGER, "");
    repo.git("add", "-f", LEDGER);
    const after = await trackedState(repo.root);
    expect(after).not.toBe(first);
    expect([...after]).toEqual([LEDGER]);
  });

  it("in a linked worktree and in a subfolder of a work tree, git's own index is the one asked", async () => {
    const repo = freshRepo();
    const linked = join(tempDir("cockpit-worktree-"), "wt");
    repo.git("worktree", "add", "-q", linked);
    writeFileSync(join(linked, ".gitignore"), "");
    mkdirSync(join(linked, ".ai/local/state"), { recursive: true });
    writeFileSync(join(linked, LEDGER), "");
    expect(await stateProblem(linked, LEDGER)).toBeUndefined();
    spawnSync("git", ["add", "-f", LEDGER], { cwd: linked });
    expect(await stateProblem(linked, LEDGER)).toMatch(/is tracked by git/);
    const outer = makePlanRepo({ files: { "sub/.ai/local/state/ledger.jsonl": "" } });
    outer.git("add", "-f", "sub/.ai/local/state/ledger.jsonl");
    expect(await stateProblem(outer.path("sub"), LEDGER)).toBe(
      `${LEDGER} is tracked by git, but it is the Cockpit's own state, this clone's alone: untrack it with git rm --cached -- ${LEDGER} (and list .ai/local/ in .gitignore)`,
    );
  });

  it("outside a git work tree nothing is tracked", async () => {
    const dir = tempDir("cockpit-nogit-");
    mkdirSync(join(dir, ".ai"));
    await requireState(dir, [LEDGER]);
  });
});

describe("reads of state", () => {
  it("read a plain state file, and skip one reached through a link with a warning", async () => {
    const repo = freshRepo();
    repo.write(LEDGER, "{}\n");
    expect(readStateFile(repo.root, LEDGER)?.toString()).toBe("{}\n");
    expect(readStateFile(repo.root, LEDGER, 1)?.toString()).toBe("}\n");
    const out = outside();
    const linked = freshRepo();
    mkdirSync(linked.path(".ai/local"), { recursive: true });
    symlinkSync(out.dir, linked.path(".ai/local/state"));
    const warn = vi.spyOn(console, "error").mockImplementation(() => undefined);
    expect(readStateFile(linked.root, LEDGER)).toBeUndefined();
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^\[cockpit\] \.ai\/local\/state is a symbolic link .*; it is not read$/));
    expect(readStateFile(freshRepo().root, LEDGER)).toBeUndefined();
  });
});
