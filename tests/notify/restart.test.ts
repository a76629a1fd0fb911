import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureCliBuilt } from "../support/processes";
import { cleanupRepos, makePlanRepo } from "../support/repo";
import { startServe, type ServeProcess } from "../support/serve-process";
import { cleanup, ensureBuild } from "../surfaces/helpers";

// A real `cockpit serve --notify-url`, killed (SIGKILL, as a crash) while its receiver is down
// and an event waits: started again, it delivers the event once. The process is the subject here.

let dist = "";
let receiver: Server;
let url = "";
let up = false;
const received: string[] = [];

beforeAll(async () => {
  ensureCliBuilt();
  dist = await ensureBuild();
  receiver = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      if (up) received.push(String(req.headers["x-cockpit-delivery"]));
      res.writeHead(up ? 204 : 503).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", () => r()));
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
}, 600_000);
afterAll(async () => {
  await new Promise((r) => receiver.close(r));
  cleanupRepos();
  cleanup();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, fn: () => T | undefined, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`waited ${ms} ms for ${what}`);
    await sleep(100);
  }
}

describe("a notifying server killed and started again", () => {
  it("delivers the event its receiver could not take before the kill, once", async () => {
    const repo = makePlanRepo({ files: { ".gitignore": ".ai/local/\n" }, issues: [{ id: "I1" }], commit: true });
    const env = { COCKPIT_DIST_DIR: dist, COCKPIT_NOTIFY_INTERVAL_S: "0.3", COCKPIT_NOTIFY_SECRET: "k" };
    const outbox = (key: string) => {
      try {
        const db = new Database(join(repo.root, ".ai/local/state/cockpit.db"), { readonly: true, timeout: 5_000 });
        try {
          return db.prepare("SELECT attempts, delivered_at FROM notify_outbox WHERE key LIKE ?").get(key) as { attempts: number; delivered_at: string | null } | undefined;
        } finally {
          db.close();
        }
      } catch {
        return undefined; // not made yet
      }
    };
    let server: ServeProcess | undefined = await startServe(repo.root, ["--notify-url", url], { env });
    try {
      await until("the baseline", () => outbox("baseline"));
      const asked = await fetch(`${server.url}/api/v1/plan/ask`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-cockpit-actor": "builder-1" },
        body: JSON.stringify({ issue: "I1", question: "Which queue?" }),
      });
      expect(asked.status).toBe(200);
      const id = ((await asked.json()) as { id: string }).id;
      // Tried while the receiver is down, and kept.
      await until("a refused try", () => {
        const row = outbox(`ask.opened:${id}`);
        return row && row.attempts >= 1 ? row : undefined;
      });
      expect(outbox(`ask.opened:${id}`)!.delivered_at).toBeNull();
      await server.kill();
      server = undefined;

      up = true;
      server = await startServe(repo.root, ["--notify-url", url], { env });
      await until("the delivery after the restart", () => (received.includes(`ask.opened:${id}`) ? true : undefined), 60_000);
      // More rounds pass: it is not sent again.
      await sleep(1500);
      expect(received.filter((k) => k === `ask.opened:${id}`)).toHaveLength(1);
      expect(outbox(`ask.opened:${id}`)!.delivered_at).not.toBeNull();
    } finally {
      await server?.stop();
    }
  }, 240_000);
});
