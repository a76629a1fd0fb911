import { createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { NotifySettings } from "@/lib/config";
import { notifyOnce } from "@/lib/server/notify";
import { currentPlan } from "@/lib/server/state";
import { planCli } from "../support/cli-in-process";
import { git } from "../support/repo";
import { cleanupRepos, makePlanRepo, type PlanRepo } from "../support/repo";

// Outgoing webhooks (lib/server/notify.ts) against a real HTTP receiver on loopback: what was so when notifying began is
// not sent; then every kind of event arrives once, signed; a receiver that is down gets it when it
// is up again, a 4xx is not tried again, and nothing lives in the notifier's memory (a new one
// after a restart delivers what the old one could not, and nothing twice).

const SECRET = "s3cret-of-the-receiver";

interface Received {
  event: string;
  delivery: string;
  signature: string | undefined;
  body: string;
  json: Record<string, unknown>;
}

let repo: PlanRepo;
let server: Server;
let url: string;
/** What the receiver answers. */
let answer = 200;
const delivered: Received[] = [];
let refusedCount = 0;
const saved = { ttl: process.env.COCKPIT_LEASE_TTL_S, stale: process.env.COCKPIT_STALE_AFTER_S };

beforeAll(async () => {
  repo = makePlanRepo({
    files: { ".gitignore": ".ai/local/\n" },
    issues: [{ id: "I1", evidence_required: [] }, { id: "I2", depends_on: ["I1"], evidence_required: [] }, { id: "I3", evidence_required: [] }],
    commit: true,
  });
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", () => {
      if (answer >= 200 && answer < 300) {
        delivered.push({
          event: String(req.headers["x-cockpit-event"]),
          delivery: String(req.headers["x-cockpit-delivery"]),
          signature: req.headers["x-cockpit-signature-256"] as string | undefined,
          body,
          json: JSON.parse(body) as Record<string, unknown>,
        });
      } else refusedCount++;
      res.writeHead(answer).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
});
afterEach(() => {
  for (const [key, value] of [["COCKPIT_LEASE_TTL_S", saved.ttl], ["COCKPIT_STALE_AFTER_S", saved.stale]] as const) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  cleanupRepos();
});

const { json } = planCli(() => repo.root);
const settings = (): NotifySettings => ({ urls: [url], secret: SECRET, escalateAfterS: 2, intervalMs: 1000 });
const round = () => notifyOnce(repo.root, () => currentPlan(repo.root), settings());
const kinds = () => delivered.map((d) => d.event);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("webhooks to a real receiver", () => {
  it("a baseline first, then every kind of event once and signed; down then up: delivered once; a 4xx is not tried again", async () => {
    // Something is so before notifying begins: an open ask. It is the baseline, never sent.
    const before = await json<{ id: string }>("ask", "I3", "--question", "Asked before the hooks?", "--as", "lead");
    await round();
    expect(delivered).toEqual([]);

    // The lease outlives the steps below on a loaded machine, so the silence is seen stale first.
    process.env.COCKPIT_LEASE_TTL_S = "6";
    process.env.COCKPIT_STALE_AFTER_S = "1";
    const claim = await json<{ issue: string; session: string }>("claim", "--as", "builder-1");
    expect(claim.issue).toBe("I1");
    const asked = await json<{ id: string }>("ask", "I1", "--question", "Ship I1?", "--kind", "approve", "--as", "builder-1");
    await round();
    expect(kinds()).toEqual(["ask.opened"]);
    await json("answer", asked.id, "--yes", "--as", "lead");
    await json("edit", "I2", "--set", "owner=ada", "--as", "lead");
    await round();
    expect(kinds().slice(1).sort()).toEqual(["ask.answered", "issue.owner"]);

    // A branch named after I3, which nobody started, carries work: the code says so.
    git(repo.root, "checkout", "-q", "-b", "i3-wip");
    repo.write("src/i3.txt", "wip\n");
    git(repo.root, "add", "src/i3.txt");
    git(repo.root, "commit", "-qm", "I3: work in progress");
    git(repo.root, "checkout", "-q", "-");
    await round();
    expect(delivered.filter((d) => d.event === "code.finding").map((d) => [d.json.code, d.json.subject])).toEqual([["work_without_start", "I3"]]);

    // builder-1 goes silent: stale, then expired; the ask made before the hooks waits past the escalation.
    const looked = async () => {
      await round();
      return kinds();
    };
    await expect.poll(looked, { timeout: 5_000, interval: 300 }).toContain("session.stale");
    await expect.poll(looked, { timeout: 15_000, interval: 300 }).toEqual(expect.arrayContaining(["session.stale", "session.expired", "ask.escalated"]));
    expect(delivered.find((d) => d.event === "ask.escalated")!.json).toMatchObject({ ask: before.id, issue: "I3" });

    // I1 finishes: I2 becomes READY; then I2 and I3 finish, and the milestone is DONE.
    await json("verify", "I1", "--as", "lead", "--force", "--reason", "builder-1 went silent");
    await json("done", "I1", "--as", "lead");
    await round();
    expect(delivered.filter((d) => d.event === "issue.ready").map((d) => d.json.issue)).toEqual(["I2"]);
    for (const id of ["I2", "I3"]) for (const move of ["start", "verify", "done"]) await json(move, id, "--as", "lead");
    await round();
    expect(delivered.filter((d) => d.event === "milestone.done").map((d) => d.json.milestone)).toEqual(["M1"]);

    // The receiver is down: the next event is tried, refused with 503, and kept.
    answer = 503;
    await json("edit", "I3", "--set", "owner=bo", "--as", "lead");
    await round();
    expect(refusedCount).toBeGreaterThan(0);
    expect(delivered.some((d) => d.json.issue === "I3" && d.event === "issue.owner")).toBe(false);
    // Up again: the next round after its pause delivers it, once, though the rounds go on.
    answer = 200;
    await sleep(1100);
    await round();
    await round();
    expect(delivered.filter((d) => d.event === "issue.owner" && d.json.issue === "I3")).toHaveLength(1);

    // Every delivery is signed with the secret over the body as sent, and no delivery id came twice.
    for (const d of delivered) {
      expect(d.signature).toBe(`sha256=${createHmac("sha256", SECRET).update(d.body).digest("hex")}`);
      expect(d.json).toMatchObject({ event: d.event, delivery: d.delivery, text: expect.stringMatching(/^\S.*\S$/) });
      expect(String(d.json.text)).not.toContain("\n");
    }
    expect(new Set(delivered.map((d) => d.delivery)).size).toBe(delivered.length);
    expect(new Set(kinds())).toEqual(new Set(["ask.opened", "ask.answered", "ask.escalated", "issue.owner", "code.finding", "session.stale", "session.expired", "issue.ready", "milestone.done"]));

    // A 4xx is the receiver's no: given up at once, said once, never tried again.
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      answer = 410;
      await json("edit", "I1", "--set", "owner=cy", "--as", "lead");
      const refusedBefore = refusedCount;
      await round();
      await sleep(1100);
      await round();
      expect(refusedCount).toBe(refusedBefore + 1);
      expect(errors.mock.calls.filter((c) => String(c[0]).includes("HTTP 410"))).toHaveLength(1);
    } finally {
      errors.mockRestore();
      answer = 200;
    }
  }, 60_000);
});
