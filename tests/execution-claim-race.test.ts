// Ten separate node processes claim from one parallel execution plan at the same instant. The
// claim is one IMMEDIATE SQLite transaction (re-read, decide, write), so they get ten different
// children: no child is handed out twice, none is lost.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSync } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";
import { createExecutionPlan, getPlan } from "@/lib/execution/coordinator";
import { closeStores } from "@/lib/execution/store";
import { createTestRepo, removeTestRepo } from "@/tests/support/repo";

const ROOT = join(__dirname, "..");
const WORKER = join(ROOT, "tests", "helpers", "execution-claim-worker.ts");
const N = 10;

const repos: string[] = [];
const scratch = mkdtempSync(join(tmpdir(), "cockpit-race-"));
afterAll(() => {
  closeStores();
  repos.forEach(removeTestRepo);
  rmSync(scratch, { recursive: true, force: true });
});

/**
 * The worker bundled once into plain CommonJS (better-sqlite3, a native module, stays external and
 * is found through NODE_PATH): ten processes start in a fraction of the time ten tsx loaders take.
 */
function bundleWorker(): string {
  const out = join(scratch, "claim-worker.cjs");
  buildSync({ entryPoints: [WORKER], bundle: true, platform: "node", format: "cjs", target: "node20", outfile: out, external: ["better-sqlite3"], logLevel: "warning" });
  return out;
}

interface Claimant {
  ready: Promise<void>;
  result: Promise<{ code: number | null; out: { pid: number; claimed: string | null; issue: string | null; reason?: string; error?: string } | undefined; stderr: string }>;
  go: () => void;
}

function claimant(script: string, repo: string, rootId: string): Claimant {
  const child = spawn(process.execPath, [script, repo, rootId], {
    cwd: ROOT,
    env: { ...process.env, NODE_PATH: join(ROOT, "node_modules") },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  let markReady!: () => void;
  const ready = new Promise<void>((r) => (markReady = r));
  child.stdout.setEncoding("utf8").on("data", (d: string) => {
    stdout += d;
    if (stdout.startsWith("ready\n")) markReady();
  });
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  const result = new Promise<Awaited<Claimant["result"]>>((resolve) =>
    child.on("close", (code) => {
      markReady();
      const line = stdout.split("\n").find((l) => l.startsWith("{"));
      resolve({ code, out: line ? JSON.parse(line) : undefined, stderr });
    }),
  );
  return { ready, result, go: () => child.stdin.end("go\n") };
}

describe("claims race across processes", () => {
  it(`${N} processes claiming at once get ${N} different children`, async () => {
    const issues = Array.from({ length: N }, (_, i) => ({ id: `I${String(i + 1).padStart(2, "0")}`, scope: [`src/part${i + 1}`] }));
    const repo = createTestRepo({ issues });
    repos.push(repo);
    const root = await createExecutionPlan(repo, { milestone: "M1" }, { execution_mode: "parallel", max_parallel: N });
    expect(root.children).toHaveLength(N);
    expect(new Set(root.children.map((c) => c.wave))).toEqual(new Set([0]));

    const script = bundleWorker();
    const claimants = Array.from({ length: N }, () => claimant(script, repo, root.plan_id));
    await Promise.all(claimants.map((c) => c.ready)); // every process has loaded and opened the store
    claimants.forEach((c) => c.go()); // then all claim at once
    const results = await Promise.all(claimants.map((c) => c.result));

    for (const r of results) expect(r.code, r.stderr || JSON.stringify(r.out)).toBe(0);
    const claimed = results.map((r) => r.out!.claimed);
    expect(claimed.every((id) => id !== null), JSON.stringify(results.map((r) => r.out))).toBe(true);
    expect(new Set(claimed).size).toBe(N);
    expect(new Set(results.map((r) => r.out!.pid)).size).toBe(N);
    expect(new Set(claimed)).toEqual(new Set(root.children.map((c) => c.plan_id)));

    const after = await getPlan(repo, root.plan_id);
    expect(after.children.every((c) => c.processing_state === "processing")).toBe(true);
    expect(after.events.filter((e) => e.kind === "claimed")).toHaveLength(N);
  }, 60_000);
});
