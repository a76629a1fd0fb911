// Transitions under real concurrency and real crashes: `node bin/cockpit …` processes racing on one
// repository, a stale lock, a live holder, and writers killed with SIGKILL at random moments.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadPlan, loadRecords } from "@/lib/repo";
import { withPlanLock } from "@/lib/repo/lock";
import { sealOf } from "@/lib/plan/seal";
import { transition } from "@/lib/repo/transition";
import { parseYaml } from "@/lib/plan/yaml";
import { bundleScript, deadPid, ensureCliBuilt, libPath, spawnCli, type CliRun, refusalOf } from "./support/processes";
import { LOCK, cleanupRepos, issueYaml, makePlanRepo, seededRandom, yamlNames, type PlanRepo } from "./support/repo";

beforeAll(() => {
  ensureCliBuilt();
});
afterAll(cleanupRepos);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Stamps and state files left in `.ai/local/state` (the ledger, the undo store and the sessions' store aside). */
function lockLeftovers(repo: PlanRepo): string[] {
  const dir = repo.path(".ai/local/state");
  return existsSync(dir) ? readdirSync(dir).filter((n) => n !== "ledger.jsonl" && n !== "undo" && !/^cockpit\.db(-wal|-shm)?$/.test(n)) : [];
}

/**
 * Spawn every process while this test holds the plan lock, so that none of them can finish before
 * all have started; then release the lock and let them race.
 */
async function race(repo: PlanRepo, argv: (i: number) => string[], n: number): Promise<{ runs: CliRun[]; releasedAt: number }> {
  let runs!: Promise<CliRun>[];
  let releasedAt = 0;
  await withPlanLock(repo.root, "tests/barrier", async () => {
    let spawned = 0;
    let allSpawned!: () => void;
    const ready = new Promise<void>((r) => (allSpawned = r));
    runs = Array.from({ length: n }, (_, i) =>
      spawnCli(argv(i), {
        onSpawn: () => {
          if (++spawned === n) allSpawned();
        },
      }),
    );
    await ready;
    await sleep(300); // let them reach the lock
    releasedAt = Date.now();
  });
  return { runs: await Promise.all(runs), releasedAt };
}

describe("the command line: exit codes and messages", () => {
  let repo: PlanRepo;
  beforeAll(() => {
    repo = makePlanRepo({ issues: [{ id: "I0001", evidence_required: ["proof", "other"] }, { id: "I0002", depends_on: ["I0001"] }] });
  });

  const cli = (...args: string[]) => spawnCli([...args, "--repo", repo.root]);

  it("start: 0 with the move on stdout; again 15; unknown 12; invalid id 2 — refusals write nothing", async () => {
    const ok = await cli("start", "I0001");
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^plan: I0001 READY → ACTIVE \(started_at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\)\nnext ready issue: none\nundo: cockpit plan undo \d+\n$/);
    const snap = repo.snapshot();
    const bads = ["../x", "a/b", "/etc/passwd"];
    const [again, blocked, missing, ...invalid] = await Promise.all([
      cli("start", "I0001"),
      cli("start", "I0002"),
      cli("start", "I9999"),
      ...bads.map((bad) => cli("start", bad)),
    ]);
    expect([again.code, again.stderr]).toEqual([15, "cockpit plan start: I0001 is ACTIVE, not READY\n"]);
    expect([blocked.code, blocked.stderr]).toEqual([15, "cockpit plan start: I0002 is BLOCKED, not READY (waiting on I0001)\n"]);
    expect([missing.code, missing.stderr]).toEqual([12, "cockpit plan start: no issue 'I9999'; cockpit plan issues lists every one\n"]);
    invalid.forEach((r, i) => {
      expect(r.code, bads[i]).toBe(2);
      expect(refusalOf(r)).toMatch(new RegExp(`^cockpit plan start: '${bads[i].replace(/[./]/g, "\\$&")}' is not an id`));
    });
    expect(repo.snapshot()).toEqual(snap);
  });

  it("evidence: 2 for usage, 12 unknown record, 15 undeclared token, 0 recorded", async () => {
    const snap = repo.snapshot();
    const usage = [
      ["evidence", "I0001", "--type", "test", "--command", "x"],
      ["evidence", "I0001", "--covers", "proof", "--command", "x"],
      ["evidence", "I0001", "--covers", "proof", "--type", "vibes", "--command", "x"],
      ["evidence", "I0001", "--covers", "proof", "--type", "test"],
    ];
    const [unknown, undeclared, ...usageRuns] = await Promise.all([
      cli("evidence", "I9999", "--covers", "proof", "--type", "test", "--command", "x"),
      cli("evidence", "I0001", "--covers", "nope", "--type", "test", "--command", "x"),
      ...usage.map((args) => cli(...args)),
    ]);
    usageRuns.forEach((r, i) => expect(r.code, usage[i].join(" ")).toBe(2));
    expect([unknown.code, unknown.stderr]).toEqual([12, "cockpit plan evidence: no milestone or issue 'I9999'\n"]);
    expect([undeclared.code, undeclared.stderr]).toEqual([15, "cockpit plan evidence: I0001 does not require evidence 'nope' (declared: proof,other)\n"]);
    expect(repo.snapshot()).toEqual(snap);
    const ok = await cli("evidence", "I0001", "--covers", "proof", "--type", "test", "--command", "npm test", "--json");
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ record: "I0001", covers: "proof", event: "plan_evidence", evidence_have: 1, evidence_need: 2 });
  });

  it("verify and done: --json is the §6.5 result; done short of evidence is 15", async () => {
    const v = await cli("verify", "I0001", "--json");
    expect(v.code).toBe(0);
    expect(JSON.parse(v.stdout)).toMatchObject({ issue: "I0001", transition: "verify", from: "ACTIVE", to: "VERIFY", field: "verified_at", event: "plan_verify" });
    const d = await cli("done", "I0001");
    expect([d.code, d.stderr]).toEqual([
      15,
      "cockpit plan done: I0001 still needs evidence for: other (record it: cockpit plan evidence I0001 --covers other …)\n",
    ]);
    expect((await cli("evidence", "I0001", "--covers", "other", "--type", "manual", "--artifact", "report.pdf")).code).toBe(0);
    const done = await cli("done", "I0001", "--json");
    expect(done.code).toBe(0);
    expect(JSON.parse(done.stdout)).toEqual(expect.objectContaining({ from: "VERIFY", to: "DONE", next_ready: "I0002" }));
  });

  it("claim and adopt", async () => {
    const c = await cli("claim", "--json");
    expect(c.code).toBe(0);
    expect(JSON.parse(c.stdout)).toMatchObject({ issue: "I0002", transition: "start", from: "READY", to: "ACTIVE" });
    const none = await cli("claim");
    expect([none.code, none.stderr]).toEqual([15, "cockpit plan claim: no issue is READY: 1 taken, started and not done (I0002)\n"]);
    const unknown = await cli("claim", "--milestone", "M9");
    expect([unknown.code, unknown.stderr]).toEqual([12, "cockpit plan claim: no milestone 'M9'\n"]);
    const adopt = await cli("adopt", "--dry-run", "--json");
    expect(adopt.code).toBe(0);
    expect(JSON.parse(adopt.stdout)).toEqual({ adopted: [], records: 0, stamps: 0, dry_run: true });
    expect(repo.ledgerLines().map((l) => l.event)).toEqual(["plan_start", "plan_evidence", "plan_verify", "plan_evidence", "plan_done", "plan_start"]);
  });
});

describe("races between real processes", () => {
  it("50 processes race `start` on one READY issue: exactly one wins, 49 are refused naming ACTIVE", async () => {
    const repo = makePlanRepo({ issues: [{ id: "I0001" }, { id: "I0002", depends_on: ["I0001"] }], commit: true });
    const { runs, releasedAt } = await race(repo, () => ["start", "I0001", "--repo", repo.root, "--json"], 50);

    for (const r of runs) expect(r.exitedAt, "no process finished before all had started").toBeGreaterThanOrEqual(releasedAt);
    const winners = runs.filter((r) => r.code === 0);
    const losers = runs.filter((r) => r.code !== 0);
    expect(winners).toHaveLength(1);
    expect(losers).toHaveLength(49);
    for (const l of losers) {
      expect(l.code).toBe(15);
      expect(JSON.parse(l.stdout)).toEqual({ error: { code: "refused", message: "I0001 is ACTIVE, not READY" } });
    }
    const result = JSON.parse(winners[0].stdout);
    expect(result).toMatchObject({ issue: "I0001", from: "READY", to: "ACTIVE", event: "plan_start" });

    const ledger = repo.ledgerLines();
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ ts: result.at, event: "plan_start", issue: "I0001", head: repo.git("rev-parse", "HEAD"), branch: "main" });

    const text = repo.read("I0001");
    expect(parseYaml(text).ok).toBe(true);
    expect(text).toBe(issueYaml({ id: "I0001" }) + `started_at: ${result.at}\nstarted_event: ${sealOf("plan_start", "I0001", result.at)}\nupdated_at: ${result.at}\n`);
    expect(loadPlan(repo.root).issues.find((i) => i.id === "I0001")?.status).toBe("ACTIVE");
    expect(lockLeftovers(repo)).toEqual([]);
  });

  it("20 processes race `claim` on 20 READY issues: 20 successes, 20 different issues, 20 ledger lines", async () => {
    const ids = Array.from({ length: 20 }, (_, i) => `I${String(i + 1).padStart(4, "0")}`);
    const repo = makePlanRepo({ issues: ids.map((id) => ({ id })) });
    const { runs, releasedAt } = await race(repo, () => ["claim", "--repo", repo.root, "--json"], 20);

    for (const r of runs) {
      expect(r.exitedAt).toBeGreaterThanOrEqual(releasedAt);
      expect([r.code, r.stderr]).toEqual([0, ""]);
    }
    const claimed = runs.map((r) => JSON.parse(r.stdout) as { issue: string; from: string; to: string });
    for (const c of claimed) expect(c).toMatchObject({ from: "READY", to: "ACTIVE" });
    expect(new Set(claimed.map((c) => c.issue)).size).toBe(20);
    expect(claimed.map((c) => c.issue).sort()).toEqual(ids);

    const ledger = repo.ledgerLines();
    expect(ledger).toHaveLength(20);
    expect(ledger.map((l) => l.issue).sort()).toEqual(ids);
    // the ledger order is the order the lock was taken in: each claim took the next id
    expect(ledger.map((l) => l.issue)).toEqual(ids);
    const plan = loadPlan(repo.root);
    expect(plan.issues.every((i) => i.status === "ACTIVE")).toBe(true);
    expect(lockLeftovers(repo)).toEqual([]);
  });
});

describe("the lock across processes", () => {
  it("a stale lock left by a dead pid is recovered at once", async () => {
    const repo = makePlanRepo({ issues: [{ id: "I0001" }] });
    const dead = deadPid();
    repo.write(LOCK, JSON.stringify({ pid: dead, host: hostname(), since: new Date().toISOString(), by: "cockpit/0.0.0", nonce: "0badc0ffee0ddf00" }));
    const r = await spawnCli(["start", "I0001", "--repo", repo.root], { env: { COCKPIT_LOCK_WAIT_MS: "5000" } });
    expect([r.code, r.stderr]).toEqual([0, ""]);
    expect(r.exitedAt - r.spawnedAt).toBeLessThan(4_000);
    expect(repo.ledgerLines()).toHaveLength(1);
    expect(lockLeftovers(repo)).toEqual([]);
  });

  it("a live holder makes a waiter with COCKPIT_LOCK_WAIT_MS=500 exit 15 naming it; after release the move goes through", async () => {
    const repo = makePlanRepo({ issues: [{ id: "I0001" }] });
    const script = bundleScript(
      "hold-lock",
      `import { withPlanLock } from ${libPath("repo/lock")};
       withPlanLock(process.argv[2], "holder-script/1", () => new Promise<void>((resolve) => {
         process.stdout.write("held\\n");
         process.stdin.once("data", () => resolve());
       })).then(() => { process.stdout.write("released\\n"); process.exit(0); });`,
    );
    const holder = spawn(process.execPath, [script, repo.root], { stdio: ["pipe", "pipe", "inherit"] });
    let out = "";
    const held = new Promise<void>((resolve) =>
      holder.stdout.setEncoding("utf8").on("data", (d: string) => {
        out += d;
        if (out.includes("held")) resolve();
      }),
    );
    const exited = new Promise<number | null>((resolve) => holder.on("close", (code) => resolve(code)));
    try {
      await held;
      const before = repo.snapshot();
      const t = Date.now();
      const r = await spawnCli(["start", "I0001", "--repo", repo.root], { env: { COCKPIT_LOCK_WAIT_MS: "500" } });
      expect(r.code).toBe(15);
      expect(refusalOf(r)).toMatch(
        new RegExp(
          `^cockpit plan start: the repository is busy: holder-script/1 \\(pid ${holder.pid} on ${hostname().replace(/[.]/g, "\\.")}\\) has held the plan lock since \\d{4}-\\d\\d-\\d\\dT[0-9:.]+Z; waited \\d+ s\\n$`,
        ),
      );
      expect(Date.now() - t).toBeLessThan(10_000);
      expect(repo.snapshot()).toEqual(before);
      expect(repo.ledger()).toBeUndefined();
    } finally {
      holder.stdin.write("go\n");
    }
    expect(await exited).toBe(0);
    expect(out).toContain("released");
    const after = await spawnCli(["start", "I0001", "--repo", repo.root], { env: { COCKPIT_LOCK_WAIT_MS: "2000" } });
    expect([after.code, after.stderr]).toEqual([0, ""]);
  });
});

// ---- crash safety ------------------------------------------------------------------------------

/** The versions a writer may write: each different in size and content, so a mix is detectable. */
const VERSION_SOURCE = `(n) => "id: I0001\\ntitle: crash\\nversion: " + n + "\\npad: " + String.fromCharCode(97 + (n % 26)).repeat(2000 + ((n * 7919) % 60000)) + "\\n"`;
// The same source is handed to the writer processes as text, so the test builds it from text too.
const version = new Function(`return ${VERSION_SOURCE}`)() as (n: number) => string;

/**
 * Writers to kill. Each child loads its code, says "ready", and waits for its start number on
 * stdin; a few are spawned ahead, so that a child's start-up overlaps the previous child's run.
 */
class KillPool {
  private waiting: { child: ChildProcess; ready: Promise<void>; go: Promise<void>; closed: Promise<string | null> }[] = [];

  constructor(
    private readonly script: string,
    private readonly args: string[],
    private readonly ahead = 3,
  ) {
    for (let i = 0; i < ahead; i++) this.waiting.push(this.spawnOne());
  }

  private spawnOne() {
    const child = spawn(process.execPath, [this.script, ...this.args], { stdio: ["pipe", "pipe", "inherit"] });
    let out = "";
    let readyResolve!: () => void;
    let goResolve!: () => void;
    const ready = new Promise<void>((r) => (readyResolve = r));
    const go = new Promise<void>((r) => (goResolve = r));
    child.stdout!.setEncoding("utf8").on("data", (d: string) => {
      out += d;
      if (out.includes("ready\n")) readyResolve();
      if (out.includes("go\n")) goResolve();
    });
    child.stdin!.on("error", () => undefined);
    const closed = new Promise<string | null>((r) => child.on("close", (code, signal) => r(signal ?? `exit ${code}`)));
    return { child, ready, go, closed };
  }

  /** Start the next writer at `start`, let it run `delay` ms after it says "go", SIGKILL it. */
  async runAndKill(start: string, delay: number): Promise<void> {
    const w = this.waiting.shift()!;
    this.waiting.push(this.spawnOne());
    await w.ready;
    w.child.stdin!.write(start + "\n");
    const ended = await Promise.race([w.go.then(() => "go"), w.closed]);
    if (ended !== "go") throw new Error(`the writer ended before it began (${ended})`);
    await sleep(delay);
    w.child.kill("SIGKILL");
    const how = await w.closed;
    if (how !== "SIGKILL") throw new Error(`the writer ended by itself (${how})`);
  }

  async close(): Promise<void> {
    for (const w of this.waiting) w.child.kill("SIGKILL");
    await Promise.all(this.waiting.map((w) => w.closed));
    this.waiting = [];
  }
}

/** The child side of KillPool: "ready", then the start number from stdin, then `run(start)`. */
const CHILD_PROTOCOL = `
  import { writeSync } from "node:fs";
  function waitForStart(run: (start: number) => void) {
    writeSync(1, "ready\\n");
    let input = "";
    process.stdin.setEncoding("utf8").on("data", (d: string) => {
      input += d;
      const nl = input.indexOf("\\n");
      if (nl >= 0) { process.stdin.pause(); run(Number(input.slice(0, nl))); }
    });
  }
  const go = () => writeSync(1, "go\\n");
`;

const KILLS_B = 40;

describe("crash safety: writers killed with SIGKILL at random moments", () => {
  it(
    "writeFileAtomic killed 200 times: the record always parses and is exactly one whole version; no temp file is a record",
    async () => {
      const repo = makePlanRepo({ issues: [{ id: "I0001", raw: version(0) }] });
      const record = repo.issuePath("I0001");
      const script = bundleScript(
        "atomic-writer",
        `${CHILD_PROTOCOL}
         import { writeFileAtomic } from ${libPath("repo/write")};
         const version = ${VERSION_SOURCE};
         waitForStart((start) => { let n = start; go(); for (;;) writeFileAtomic(process.argv[2], version(n++)); });`,
      );
      const pool = new KillPool(script, [record]);
      const random = seededRandom(0xc0c4);
      let last = 0;
      let advanced = 0;
      try {
        for (let i = 0; i < 200; i++) {
          const delay = Math.floor(random() * 41); // 0–40 ms
          await pool.runAndKill(String(last + 1), delay);
          const bytes = readFileSync(record, "utf8");
          const m = /^id: I0001\ntitle: crash\nversion: (\d+)\n/.exec(bytes);
          expect(m, `kill ${i}: the record starts as a version does`).not.toBeNull();
          const n = Number(m![1]);
          expect(bytes === version(n), `kill ${i} (after ${delay} ms): bytes are exactly version ${n}, never a mix`).toBe(true);
          expect(n === last || n > last, `kill ${i}: the record never goes back`).toBe(true);
          if (n > last) advanced++;
          last = n;
          const r = parseYaml(bytes);
          expect(r.ok && r.value instanceof Map && r.value.get("version")).toBe(String(n));
          expect(yamlNames(repo.path(".ai/repo/project/issues"))).toEqual(["I0001.yaml"]);
        }
      } finally {
        await pool.close();
      }
      // the kills did land while the writer was writing
      expect(advanced).toBeGreaterThan(20);
      const loaded = loadRecords(repo.root);
      expect(loaded.issues.map((r) => r.id)).toEqual(["I0001"]);
      expect(loaded.loadFindings.filter((f) => f.code === "unreadable_record")).toEqual([]);
      // what a crash leaves behind is a hidden .tmp file, never a *.yaml
      for (const name of readdirSync(repo.path(".ai/repo/project/issues"))) {
        if (name !== "I0001.yaml") expect(name).toMatch(/^\.I0001\.yaml\.\d+\.[0-9a-f]{8}\.tmp$/);
      }
    },
    120_000,
  );

  it(
    "a process looping `verify` killed 40 times (after its first whole move): the record is always one whole move, the ledger never runs ahead of it, the lock recovers",
    async () => {
      const S = "2026-10-19T00:00:00Z";
      const repo = makePlanRepo({ issues: [{ id: "I0001" }] });
      await transition(repo.root, "I0001", "start", { now: () => S });
      const base = issueYaml({ id: "I0001" }) + `started_at: ${S}\nstarted_event: ${sealOf("plan_start", "I0001", S)}\n`;
      expect(repo.read("I0001")).toBe(base + `updated_at: ${S}\n`);
      const stampOf = (n: number) => new Date(Date.UTC(2026, 9, 20) + n * 1000).toISOString().slice(0, 19) + "Z";
      const expected = (t: string) => base + `updated_at: ${t}\nverified_at: ${t}\nverified_event: ${sealOf("plan_verify", "I0001", t)}\n`;
      // The child makes one whole verify first, then says "go" and keeps verifying, so that the
      // 0–40 ms kill lands anywhere inside a later move (lock, read, write, ledger).
      const script = bundleScript(
        "verify-loop",
        `${CHILD_PROTOCOL}
         import { transition } from ${libPath("repo/transition")};
         const stampOf = (k: number) => new Date(Date.UTC(2026, 9, 20) + k * 1000).toISOString().slice(0, 19) + "Z";
         waitForStart(async (start) => {
           let n = start;
           const verify = () => { const at = stampOf(n++); return transition(process.argv[2], "I0001", "verify", { now: () => at }); };
           await verify();
           go();
           for (;;) await verify();
         });`,
      );
      const pool = new KillPool(script, [repo.root], 2);
      const random = seededRandom(0x5eed);
      let lastN = -1;
      let moves = 0;
      try {
        for (let i = 0; i < KILLS_B; i++) {
          const delay = Math.floor(random() * 41);
          await pool.runAndKill(String(lastN + 1), delay);
          const text = repo.read("I0001");
          expect(parseYaml(text).ok, `kill ${i}: the record parses`).toBe(true);
          const m = /\nverified_at: (\S+)\n/.exec(text);
          expect(m, `kill ${i}: the first verify of every child is whole`).not.toBeNull();
          const t = m![1];
          expect(text === expected(t), `kill ${i}: the record is exactly the verify at ${t}`).toBe(true);
          const n = (Date.parse(t) - Date.UTC(2026, 9, 20)) / 1000;
          expect(n).toBeGreaterThan(lastN);
          moves += n - lastN;
          lastN = n;
          // every ledger line is whole, and none describes a move the file does not have yet
          const ledgerText = repo.ledger() ?? "";
          expect(ledgerText.endsWith("\n"), `kill ${i}: no torn ledger line`).toBe(true);
          const lines = repo.ledgerLines();
          expect(lines[0].event).toBe("plan_start");
          for (const l of lines.slice(1)) {
            expect(l.event).toBe("plan_verify");
            expect(l.ts <= t, `kill ${i}: ledger line at ${l.ts} is not ahead of the record (${t})`).toBe(true);
          }
          expect(lines.length - 1).toBeLessThanOrEqual(n + 1);
          expect(yamlNames(repo.path(".ai/repo/project/issues"))).toEqual(["I0001.yaml"]);
          expect(loadRecords(repo.root).loadFindings.filter((f) => f.code === "unreadable_record")).toEqual([]);
          expect(loadPlan(repo.root).issues[0].status).toBe("VERIFY");
        }
      } finally {
        await pool.close();
      }
      expect(moves).toBeGreaterThanOrEqual(KILLS_B);
      // the repository is still writable: whatever lock the last kill left is recovered
      const at = stampOf(lastN + 1000);
      process.env.COCKPIT_LOCK_WAIT_MS = "10000";
      try {
        const r = await transition(repo.root, "I0001", "verify", { now: () => at });
        expect(r).toMatchObject({ from: "VERIFY", to: "VERIFY", at });
      } finally {
        delete process.env.COCKPIT_LOCK_WAIT_MS;
      }
      expect(repo.read("I0001")).toBe(expected(at));
      expect(lockLeftovers(repo).filter((n) => !n.endsWith(".tmp"))).toEqual([]);
    },
    120_000,
  );
});

// nothing in these tests may write to the shared fixtures
describe("the real corpus is never written", () => {
  it("tests/fixtures/majordomus has no ledger and no lock", () => {
    const corpus = join(__dirname, "fixtures", "majordomus");
    expect(existsSync(join(corpus, ".ai/local"))).toBe(false);
    expect(readFileSync(join(corpus, ".ai/repo/project/project.yaml"), "utf8")).toContain("name:");
  });
});
