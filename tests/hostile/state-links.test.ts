import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COCKPIT_VERSION } from "@/lib/version";
import { ensureCliBuilt, spawnCli, type CliRun, refusalOf } from "../support/processes";
import { LEDGER, LOCK, cleanupRepos, makePlanRepo, tempDir, type PlanRepo } from "../support/repo";
import { cleanup as cleanupServed, ensureBuild, mcpHttp, mcpMemory, startServer, type RunningServer } from "../surfaces/helpers";

// A cloned repository may commit its own `.ai/local/`: the ledger as a link to a shell start-up
// file, the state folders as links to folders outside it, the lock or the SQLite store as links,
// or the state as plain tracked files. Every write that needs that state is refused (exit 15, HTTP
// 422, an MCP error) naming the path and the fix, and nothing is written anywhere: the outside
// files keep every byte, the repository keeps every file. Reads still answer. The real `cockpit`
// command, `cockpit mcp` and a served Cockpit run over real repositories.

const STORE = ".ai/local/state/cockpit.db";
const UNDO = ".ai/local/state/undo";
const RC = "# ~/.bashrc\nexport PATH=$HOME/bin:$PATH\n";

afterAll(() => {
  cleanupRepos();
  cleanupServed();
});
beforeAll(() => ensureCliBuilt());

interface Hostile {
  repo: PlanRepo;
  /** The temp HOME outside the repository, with its .bashrc. */
  home: string;
  /** Every entry of the repository (but .git) and of HOME, with the bytes of each file. */
  state(): string[];
}

/** Every entry under a folder, links as their targets, files with their bytes. */
function tree(dir: string, skip?: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .map((e) => join(e.parentPath, e.name))
    .filter((p) => skip === undefined || !(p === join(dir, skip) || p.startsWith(join(dir, skip) + "/")))
    .map((p) => {
      const rel = relative(dir, p);
      const st = lstatSync(p);
      if (st.isSymbolicLink()) return `${rel} -> ${readlinkSync(p)}`;
      if (st.isDirectory()) return `${rel}/`;
      return `${rel} ${readFileSync(p).toString("base64")}`;
    })
    .sort();
}

/**
 * A committed plan (I0001 READY, I0002 with a stamp from before seals, for adopt) whose `rel` is
 * a link to HOME/.bashrc (`to: "file"`) or to HOME (`to: "folder"`), committed unless `tracked` is false.
 */
function hostileRepo(rel: string | undefined, to: "file" | "folder", tracked = true): Hostile {
  const home = tempDir("cockpit-home-");
  writeFileSync(join(home, ".bashrc"), RC);
  const repo = makePlanRepo({
    issues: [{ id: "I0001" }, { id: "I0002", extra: "started_at: 2026-09-01T10:00:00Z\n" }],
    // Not `.ai/local/`: that pattern ignores a folder, and a link is no folder to git.
    files: tracked ? {} : { ".gitignore": ".ai/local\n" },
  });
  if (rel) {
    mkdirSync(repo.path(rel.split("/").slice(0, -1).join("/")), { recursive: true });
    symlinkSync(to === "file" ? join(home, ".bashrc") : home, repo.path(rel));
  }
  repo.commitAll("a plan from somebody else");
  if (rel) expect(repo.git("ls-files", "--", rel)).toBe(tracked ? rel : "");
  return { repo, home, state: () => [...tree(repo.root, ".git").map((e) => `repo/${e}`), ...tree(home).map((e) => `home/${e}`)] };
}

const cli = (h: Hostile, args: string[], command?: "plan" | "plans"): Promise<CliRun> => spawnCli([...args, "--repo", h.repo.root], { command, env: { HOME: h.home } });

/** Every write verb of the command line, each of which needs the lock and the ledger. */
const WRITES: string[][] = [
  ["start", "I0001"],
  ["transition", "I0001", "start"],
  ["claim"],
  ["evidence", "I0001", "--covers", "proof", "--type", "test", "--command", "true"],
  ["edit", "I0001", "--set", "owner=mallory"],
  ["new", "issue", "--milestone", "M1", "--title", "Another"],
  ["adopt"],
  ["commit", "--message", "plan: nothing"],
  ["undo", "1"],
];

/** The links a repository may commit under .ai/local, and what each one names in the refusal. */
const LINKS: { name: string; rel: string; to: "file" | "folder"; named: string }[] = [
  { name: "the ledger as a link to a shell start-up file", rel: LEDGER, to: "file", named: LEDGER },
  { name: ".ai/local as a link to a folder outside", rel: ".ai/local", to: "folder", named: ".ai/local" },
  { name: ".ai/local/state as a link to a folder outside", rel: ".ai/local/state", to: "folder", named: ".ai/local/state" },
  { name: "the plan lock as a link to a file outside", rel: LOCK, to: "file", named: LOCK },
  { name: "the undo store as a link to a folder outside", rel: UNDO, to: "folder", named: UNDO },
];

function expectRefused(r: CliRun, named: string, fix: RegExp): void {
  expect(r.code, r.stderr).toBe(15);
  expect(refusalOf(r)).toContain(named);
  expect(refusalOf(r)).toMatch(fix);
}

describe("the command line refuses every write through a committed link, and writes nothing anywhere", () => {
  for (const link of LINKS) {
    it(link.name, async () => {
      const h = hostileRepo(link.rel, link.to);
      const before = h.state();
      for (const args of WRITES) {
        const r = await cli(h, args);
        expectRefused(r, `${link.named} is a symbolic link`, new RegExp(`remove the link ${link.named.replace(/\./g, "\\.")}.*git rm --cached -- ${link.named.replace(/\./g, "\\.")}`));
        expect(h.state(), args.join(" ")).toEqual(before);
      }
      expect(readFileSync(join(h.home, ".bashrc"), "utf8")).toBe(RC);
      // Reads still answer, without the ledger.
      expect((await cli(h, ["status"])).code).toBe(0);
      const history = await cli(h, ["history", "I0001", "--json"]);
      expect(history.code, history.stderr).toBe(0);
      expect(history.stdout).toContain("a plan from somebody else");
      expect(h.state()).toEqual(before);
      // Eleven processes one after the other: past vitest's minute on a busy 2-core machine.
    }, 180_000);
  }

  it("a link made in the clone (not committed) is refused as well", async () => {
    const h = hostileRepo(".ai/local", "folder", false);
    const before = h.state();
    const r = await cli(h, ["start", "I0001"]);
    expectRefused(r, ".ai/local is a symbolic link", /remove the link \.ai\/local \(the Cockpit makes its state again\)$/m);
    expect(refusalOf(r)).not.toContain("git rm");
    expect(h.state()).toEqual(before);
  });

  it("a ledger committed as a plain file is refused with git rm --cached, and moves go on once it is untracked", async () => {
    const h = hostileRepo(undefined, "file");
    h.repo.write(LEDGER, "");
    h.repo.commitAll("the ledger, committed");
    const before = h.state();
    const r = await cli(h, ["start", "I0001"]);
    expectRefused(r, `${LEDGER} is tracked by git`, /git rm --cached -- \.ai\/local\/state\/ledger\.jsonl/);
    expect(h.state()).toEqual(before);
    h.repo.git("rm", "-q", "--cached", "--", LEDGER);
    const ok = await cli(h, ["start", "I0001"]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(h.repo.ledgerLines().map((l) => l.event)).toEqual(["plan_start"]);
  });

  it("the SQLite store as a link: cockpit plans create is refused and the outside file keeps its bytes", async () => {
    const h = hostileRepo(STORE, "file");
    const before = h.state();
    const r = await cli(h, ["create", "--milestone", "M1"], "plans");
    expectRefused(r, `${STORE} is a symbolic link`, /remove the link \.ai\/local\/state\/cockpit\.db/);
    expect(h.state()).toEqual(before);
    // A read answers as if there were no store.
    const list = await cli(h, ["list"], "plans");
    expect(list.code, list.stderr).toBe(0);
    expect(refusalOf(list)).toContain(`${STORE} is a symbolic link`);
    expect(h.state()).toEqual(before);
  });

  for (const suffix of ["-wal", "-shm"]) {
    it(`SQLite's ${suffix} file as a link is refused too`, async () => {
      const h = hostileRepo(`${STORE}${suffix}`, "file");
      const before = h.state();
      expectRefused(await cli(h, ["create", "--milestone", "M1"], "plans"), `${STORE}${suffix} is a symbolic link`, /remove the link/);
      expect(h.state()).toEqual(before);
    });
  }
});

describe("a committed undo file never writes outside the repository", () => {
  it("cockpit plan undo 1 over an undo file naming a file outside exits 15 naming it, before and after it is untracked; the file keeps its bytes", async () => {
    const h = hostileRepo(undefined, "file");
    const victim = join(h.home, "victim.txt");
    const text = "the victim's own text\n";
    writeFileSync(victim, text);
    // What the exploit committed: the victim's text as `after`, so the undo's own check passes,
    // and the CLI's author as `by`, so the undo is this caller's.
    const forged = { ledger_id: 1, event: "plan_start", record: "I0001", kind: "issue", path: relative(h.repo.root, victim), by: `cockpit/${COCKPIT_VERSION}`, before: "PWNED\n", after: text };
    h.repo.write(`${UNDO}/1.json`, JSON.stringify(forged) + "\n");
    h.repo.commitAll("an undo file from somebody else");
    const before = h.state();

    const r = await cli(h, ["undo", "1"]);
    expectRefused(r, `${UNDO}/1.json is tracked by git`, /untrack it with git rm -r --cached -- \.ai\/local\/state\/undo /);
    expect(readFileSync(victim, "utf8")).toBe(text);
    expect(h.state()).toEqual(before);
    // Every move is refused too: it would keep its undo among files the repository wrote.
    expectRefused(await cli(h, ["start", "I0001"]), `${UNDO}/1.json is tracked by git`, /git rm -r --cached/);
    expect(h.state()).toEqual(before);

    // Untracked (the clone's own now), its path is still data: only the record's own file is written.
    h.repo.git("rm", "-q", "-r", "--cached", "--", UNDO);
    const again = await cli(h, ["undo", "1"]);
    expect(again.code, again.stderr).toBe(15);
    expect(refusalOf(again)).toContain(`${UNDO}/1.json names the file ${JSON.stringify(forged.path)}, not the record file of issue "I0001"`);
    expect(refusalOf(again)).toContain(`remove ${UNDO}/1.json`);
    expect(readFileSync(victim, "utf8")).toBe(text);
  });

  it("an undo file that is a link (made in the clone) is refused, and the move it names is not undone", async () => {
    const h = hostileRepo(undefined, "file", false);
    const start = await cli(h, ["start", "I0001"]);
    expect(start.code, start.stderr).toBe(0);
    const outside = join(h.home, "undo.json");
    writeFileSync(outside, readFileSync(h.repo.path(`${UNDO}/1.json`)));
    rmSync(h.repo.path(`${UNDO}/1.json`));
    symlinkSync(outside, h.repo.path(`${UNDO}/1.json`));
    const before = h.state();
    const r = await cli(h, ["undo", "1"]);
    expectRefused(r, `${UNDO}/1.json is a symbolic link`, /remove the link \.ai\/local\/state\/undo\/1\.json/);
    expect(h.state()).toEqual(before);
  });
});

describe("cockpit mcp refuses a move through a committed link", () => {
  it("plan_transition and plan_edit answer an error, and nothing is written", async () => {
    const h = hostileRepo(LEDGER, "file");
    const before = h.state();
    const mcp = await mcpMemory(h.repo.root);
    try {
      const moves = [
        { name: "plan_transition", arguments: { issue: "I0001", transition: "start" } },
        { name: "plan_claim", arguments: {} },
        { name: "plan_edit", arguments: { id: "I0001", set: { owner: "mallory" } } },
      ];
      for (const call of moves) {
        const r = (await mcp.client.callTool(call)) as { isError?: boolean; content: { text: string }[] };
        expect(r.isError, call.name).toBe(true);
        expect(r.content[0].text).toContain(`${LEDGER} is a symbolic link`);
      }
      const read = (await mcp.client.callTool({ name: "plan_history", arguments: { id: "I0001" } })) as { isError?: boolean };
      expect(read.isError).toBeFalsy();
    } finally {
      await mcp.close();
    }
    expect(h.state()).toEqual(before);
    expect(readFileSync(join(h.home, ".bashrc"), "utf8")).toBe(RC);
  });
});

describe("a served Cockpit refuses a move through a committed link", () => {
  let server: RunningServer;
  let h: Hostile;

  beforeAll(async () => {
    h = hostileRepo(LEDGER, "file");
    server = await startServer(await ensureBuild(), h.repo.root, { HOME: h.home });
  }, 600_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("HTTP answers 422 naming the link, MCP over HTTP an error, and reads answer", async () => {
    const before = h.state();
    const post = (path: string, body: unknown) =>
      fetch(`${server.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    for (const [path, body] of [
      ["/api/v1/plan/transition", { issue: "I0001", transition: "start" }],
      ["/api/v1/plan/claim", {}],
      ["/api/v1/plan/edit", { id: "I0001", set: { owner: "mallory" } }],
    ] as const) {
      const r = await post(path, body);
      const text = await r.text();
      expect(r.status, `${path}: ${text}`).toBe(422);
      expect(text).toContain(`${LEDGER} is a symbolic link`);
    }
    const mcp = await mcpHttp(server.url);
    try {
      const r = (await mcp.client.callTool({ name: "plan_transition", arguments: { issue: "I0001", transition: "start" } })) as { isError?: boolean; content: { text: string }[] };
      expect(r.isError).toBe(true);
      expect(r.content[0].text).toContain(`${LEDGER} is a symbolic link`);
    } finally {
      await mcp.close();
    }
    const history = await fetch(`${server.url}/api/v1/plan/history?id=I0001`);
    expect(history.status, await history.clone().text()).toBe(200);
    await history.arrayBuffer();
    expect(h.state()).toEqual(before);
    expect(readFileSync(join(h.home, ".bashrc"), "utf8")).toBe(RC);
    expect(existsSync(h.repo.path(LOCK))).toBe(false);
  });
});
