// `cockpit serve` as the product starts it (node bin/cockpit serve …), in a process group of its
// own so a test can kill it and everything it started, as a crash would. Shared by the follow
// crash test, the follow e2e spec, the e2e workers' own servers, the hostile generator and the bench.
import { spawn, type ChildProcess } from "node:child_process";
import { CLI, watchChild } from "./processes";
import { fetchWithin } from "./fetch-within";
import { freePort } from "./ports";
import { ROOT } from "./repo";

export interface ServeProcess {
  url: string;
  port: number;
  /** The process group's id (the `cockpit serve` process leads it). */
  pid: number;
  log(): string;
  /** SIGKILL to the whole group: the server, its front and Next, at once. */
  kill(): Promise<void>;
  /** SIGTERM, then SIGKILL after 5 s. */
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Start `cockpit serve --repo REPO --port P ARGS…` and wait until it answers GET /api/v1/plan. */
export async function startServe(repo: string, args: readonly string[], options: { env?: Record<string, string>; port?: number } = {}): Promise<ServeProcess> {
  const port = options.port ?? (await freePort());
  const child: ChildProcess = spawn(process.execPath, [CLI, "serve", "--repo", repo, "--port", String(port), ...args], {
    cwd: ROOT,
    detached: true,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", COCKPIT_TOKEN: "", ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const watched = watchChild(child);
  const { exit } = watched;
  const signal = (s: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, s);
    } catch {
      /* the group is gone */
    }
  };
  const server: ServeProcess = {
    url: `http://127.0.0.1:${port}`,
    port,
    pid: child.pid!,
    log: watched.output,
    async kill() {
      signal("SIGKILL");
      await exit;
    },
    async stop() {
      if (watched.exited()) return;
      signal("SIGTERM");
      const timer = setTimeout(() => signal("SIGKILL"), 5_000);
      await exit;
      clearTimeout(timer);
      signal("SIGKILL"); // what the server started and left behind
    },
  };
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (watched.exited()) throw new Error(`cockpit serve exited before it answered:\n${watched.output()}`);
    try {
      const r = await fetchWithin(`${server.url}/api/v1/plan`, {}, 5_000);
      if (r.status < 500) return server;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      await server.stop();
      throw new Error(`cockpit serve did not answer within 120 s:\n${watched.output()}`);
    }
    await sleep(150);
  }
}
