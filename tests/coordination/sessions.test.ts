import { existsSync, readFileSync } from "node:fs";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { openSqliteStore, STORE_FILE } from "@/lib/execution/store-sqlite";
import { EXIT } from "@/lib/surfaces/exit-codes";
import { planCli } from "../support/cli-in-process";
import { cleanupRepos, makePlanRepo, type PlanRepo } from "../support/repo";
import { issueYaml } from "../support/record-files";

// Sessions on the embedded store (the clone's SQLite file), through the command line's entry
// function: who holds an issue, heartbeats, states with their reasons, reclaim and fencing, a
// person's override. Times are real: a lease of 1 s, a stale time of 1 s, and waits past them.

let repo: PlanRepo;
const saved = { ttl: process.env.COCKPIT_LEASE_TTL_S, stale: process.env.COCKPIT_STALE_AFTER_S };

beforeEach(() => {
  repo = makePlanRepo({ files: { ".gitignore": ".ai/local/\n" }, issues: [{ id: "I1" }, { id: "I2" }, { id: "I3" }], commit: true });
});
afterEach(() => {
  for (const [key, value] of [["COCKPIT_LEASE_TTL_S", saved.ttl], ["COCKPIT_STALE_AFTER_S", saved.stale]] as const) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});
afterAll(() => cleanupRepos());

const { cli, json } = planCli(() => repo.root);



interface Session {
  session: string;
  actor: string;
  kind: string;
  issue: string;
  state: string;
  reason: string;
  epoch: number;
  last_seen: string;
  expires: string;
  note: string | null;
}
const agents = async () => (await json<{ sessions: Session[] }>("agents")).sessions;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const issueText = (id: string) => readFileSync(repo.path(`.ai/repo/project/issues/${id}.yaml`), "utf8");

describe("a claim is a session of one actor", () => {
  it("claim opens a session (its id and epoch in the answer); agents lists it active; a heartbeat renews it and keeps its note", async () => {
    const claim = await json<{ issue: string; session: string; epoch: number }>("claim", "--as", "builder-1");
    expect(claim.issue).toBe("I1");
    expect(claim.session).toMatch(/^s-[0-9a-f]{12}$/);
    expect(claim.epoch).toBe(1);
    const [listed] = await agents();
    expect(listed).toMatchObject({ session: claim.session, actor: "builder-1", kind: "agent", issue: "I1", state: "active", epoch: 1, note: null });
    expect(listed.reason).toMatch(/^heard from \d+ s ago$/);

    await sleep(1100);
    const beat = await json<{ session: string; epoch: number; note: string; expires: string; last_seen: string }>("heartbeat", "I1", "--as", "builder-1", "--note", "writing the tests");
    expect(beat).toMatchObject({ session: claim.session, epoch: 1, note: "writing the tests" });
    expect(beat.expires > listed.expires).toBe(true);
    const [after] = await agents();
    expect(after.note).toBe("writing the tests");
    expect(after.reason).toBe(`heard from 0 s ago: "writing the tests"`);
  });

  it("reads never make the store", async () => {
    for (const verb of ["agents", "issues", "next", "status"]) expect((await cli(verb, "--json")).code).toBe(EXIT.ok);
    expect(existsSync(repo.path(STORE_FILE))).toBe(false);
    expect(await agents()).toEqual([]);
  });

  it("only the holder moves its issue: verify, done, evidence, heartbeat and release of another actor are refused, naming the holder, and write nothing", async () => {
    const { session } = await json<{ session: string }>("start", "I1", "--as", "ada");
    expect(session).toBeUndefined(); // a start answers the move; its session shows in agents
    const [held] = await agents();
    expect(held).toMatchObject({ actor: "ada", kind: "person", issue: "I1", state: "active" });
    const before = repo.snapshot();
    const ledger = repo.ledgerLines().length;
    for (const argv of [
      ["verify", "I1"],
      ["done", "I1"],
      ["evidence", "I1", "--covers", "proof", "--type", "test", "--command", "npm test"],
      ["heartbeat", "I1"],
      ["release", "I1"],
    ]) {
      const r = await cli(...argv, "--as", "bob");
      expect(r.code, argv.join(" ")).toBe(EXIT.refused);
      expect(r.err).toContain(`I1 is held by ada (session ${held.session}, epoch 1) since `);
      expect(r.err).toMatch(/last heard from \d+ s ago; its lease ends at 20\d\d-/);
    }
    expect(repo.snapshot()).toEqual(before);
    expect(repo.ledgerLines()).toHaveLength(ledger);
    // The holder itself may: evidence renews its session, verify finishes it.
    expect((await cli("evidence", "I1", "--covers", "proof", "--type", "test", "--command", "npm test", "--as", "ada")).code).toBe(EXIT.ok);
    expect((await cli("verify", "I1", "--as", "ada")).code).toBe(EXIT.ok);
    const [finished] = await agents();
    expect(finished).toMatchObject({ actor: "ada", state: "finished" });
    expect(finished.reason).toMatch(/^I1 moved on by ada at 20/);
  });

  it("a heartbeat with no session is refused and says how to open one", async () => {
    const r = await cli("heartbeat", "I2", "--as", "ada");
    expect(r.code).toBe(EXIT.refused);
    expect(r.err).toContain("no session of yours holds I2: a heartbeat renews the session a claim or a start opened");
    // An issue that does not exist is named as such, with or without a store.
    for (const _ of [1, 2]) {
      const none = await cli("heartbeat", "I9", "--as", "ada");
      expect([none.code, none.err]).toEqual([EXIT.missing, expect.stringContaining("I9")]);
      expect((await cli("claim", "--as", "ada")).code).toBe(EXIT.ok);
    }
  });
});

describe("states, reclaim and fencing", () => {
  it("a silent session is stale, then expired and open to reclaim; the next claim takes it over, and the old holder is fenced out", async () => {
    const a = await json<{ issue: string; session: string }>("claim", "--as", "agent-a");
    expect(a.issue).toBe("I1");
    const startedText = issueText("I1");
    // Time passes for the store (its clock is the judge): 10 minutes of silence, the lease still live.
    const store = openSqliteStore(repo.root);
    const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
    await store.write((tx) => tx.updateSession(a.session, { last_seen: ago(10) }));
    const [stale] = await agents();
    expect(stale.state).toBe("stale");
    expect(stale.reason).toMatch(/^no heartbeat for 10 min; the lease ends at 20/);
    // Then its lease runs out.
    await store.write((tx) => tx.updateSession(a.session, { last_seen: ago(31), expires: ago(1) }));
    const [expired] = await agents();
    expect(expired.state).toBe("expired");
    expect(expired.reason).toMatch(/^no word for 31 min; the lease ended at 20.*; I1 is ACTIVE: open to reclaim$/);

    const b = await json<{ issue: string; event: string; session: string; epoch: number; reclaimed_from: { actor: string; session: string; epoch: number }; from: string; to: string }>(
      "claim",
      "--as",
      "agent-b",
    );
    expect(b).toMatchObject({ issue: "I1", event: "plan_reclaim", from: "ACTIVE", to: "ACTIVE", epoch: 2, reclaimed_from: { actor: "agent-a", session: a.session, epoch: 1 } });
    expect(issueText("I1")).toBe(startedText); // started once: not stamped again
    const line = repo.ledgerLines().at(-1)!;
    expect(line).toMatchObject({ event: "plan_reclaim", by: "agent-b", issue: "I1", previous: "agent-a", previous_session: a.session, epoch: "2" });

    const states = Object.fromEntries((await agents()).map((s) => [s.actor, s]));
    expect(states["agent-b"]).toMatchObject({ state: "active", epoch: 2 });
    expect(states["agent-a"].state).toBe("reclaimed");
    expect(states["agent-a"].reason).toMatch(/^reclaimed by agent-b at 20.* after its lease ended$/);

    // agent-a comes back late: every write is refused, naming who took over; nothing is written.
    const before = repo.snapshot();
    for (const argv of [["verify", "I1"], ["heartbeat", "I1"], ["evidence", "I1", "--covers", "proof", "--type", "test", "--command", "npm test"]]) {
      const r = await cli(...argv, "--as", "agent-a");
      expect(r.code, argv.join(" ")).toBe(EXIT.refused);
      expect(r.err).toMatch(new RegExp(`I1 was reclaimed by agent-b at 20[^;]*; your session ${a.session} \\(epoch 1\\) ended: claim another issue`));
    }
    expect(repo.snapshot()).toEqual(before);
    expect((await cli("verify", "I1", "--as", "agent-b")).code).toBe(EXIT.ok);
  });

  it("a write that names its session is fenced by it: the same actor holding the issue again by a later session does not let the old one write", async () => {
    const first = await json<{ issue: string; session: string; epoch: number }>("claim", "--as", "agent-a");
    expect(first).toMatchObject({ issue: "I1", epoch: 1 });
    // agent-a's process dies; its lease runs out; agent-a, restarted under the same name, claims again.
    const store = openSqliteStore(repo.root);
    const ago = new Date(Date.now() - 60_000).toISOString();
    await store.write((tx) => tx.updateSession(first.session, { last_seen: ago, expires: ago }));
    const again = await json<{ issue: string; session: string; epoch: number; event: string }>("claim", "--as", "agent-a");
    expect(again).toMatchObject({ issue: "I1", event: "plan_reclaim", epoch: 2 });
    expect(again.session).not.toBe(first.session);

    // The old process comes back: every write naming its session is refused, by epoch, and writes nothing.
    const before = repo.snapshot();
    for (const argv of [["heartbeat", "I1"], ["verify", "I1"], ["release", "I1"], ["evidence", "I1", "--covers", "proof", "--type", "test", "--command", "npm test"]]) {
      const r = await cli(...argv, "--as", "agent-a", "--session", first.session);
      expect(r.code, argv.join(" ")).toBe(EXIT.refused);
      expect(r.err).toMatch(new RegExp(`I1 was reclaimed by agent-a at 20[^;]*; your session ${first.session} \\(epoch 1\\) ended: claim another issue`));
    }
    // A session that never held the issue, another actor's, a malformed one, and a start that names one.
    const unknown = await cli("heartbeat", "I1", "--as", "agent-a", "--session", "s-000000000000");
    expect([unknown.code, unknown.err]).toEqual([EXIT.refused, expect.stringContaining("session s-000000000000 never held I1")]);
    const others = await cli("heartbeat", "I1", "--as", "agent-b", "--session", again.session);
    expect([others.code, others.err]).toEqual([EXIT.refused, expect.stringContaining(`session ${again.session} on I1 is agent-a's, not agent-b's`)]);
    const malformed = await cli("heartbeat", "I1", "--as", "agent-a", "--session", "mine");
    expect([malformed.code, malformed.err]).toEqual([EXIT.usage, expect.stringContaining("session is the id a claim or a start answered")]);
    const start = await cli("start", "I2", "--as", "agent-a", "--session", again.session);
    expect(start.code).toBe(EXIT.usage);
    expect(repo.snapshot()).toEqual(before);

    // The live session writes; released, and the issue claimed by name again, it is fenced too.
    expect((await cli("heartbeat", "I1", "--as", "agent-a", "--session", again.session, "--note", "back")).code).toBe(EXIT.ok);
    expect((await cli("release", "I1", "--as", "agent-a", "--session", again.session)).code).toBe(EXIT.ok);
    const third = await json<{ session: string; epoch: number }>("claim", "I1", "--as", "agent-a");
    expect(third.epoch).toBe(3);
    const late = await cli("verify", "I1", "--as", "agent-a", "--session", again.session);
    expect(late.code).toBe(EXIT.refused);
    expect(late.err).toContain(`your session ${again.session} (epoch 2)`);
    const verified = await cli("verify", "I1", "--as", "agent-a", "--session", third.session);
    expect(verified.code, verified.err).toBe(EXIT.ok);
  });

  it("claim ID takes that issue only: a READY one is started, a held one refused, one whose lease ended taken over with the reason in the ledger and as the new note", async () => {
    process.env.COCKPIT_LEASE_TTL_S = "1";
    expect(await json("claim", "I3", "--as", "agent-a")).toMatchObject({ issue: "I3", event: "plan_start", epoch: 1 });
    const held = await cli("claim", "I3", "--as", "lead", "--reason", "mine now");
    expect(held.code).toBe(EXIT.refused);
    expect(held.err).toContain("I3 is ACTIVE and its session's lease has not ended");
    expect((await cli("claim", "I3", "--milestone", "M1", "--as", "lead")).code).toBe(EXIT.usage);
    await sleep(1200);
    const taken = await json<{ issue: string; event: string; epoch: number; reclaimed_from: { actor: string } }>("claim", "I3", "--as", "lead", "--reason", "agent-a went quiet");
    expect(taken).toMatchObject({ issue: "I3", event: "plan_reclaim", epoch: 2, reclaimed_from: { actor: "agent-a" } });
    expect(repo.ledgerLines().at(-1)).toMatchObject({ event: "plan_reclaim", by: "lead", issue: "I3", previous: "agent-a", reason: "agent-a went quiet" });
    // A person taking over stays a person (a claim of the next issue is what makes an agent).
    expect((await agents()).find((s) => s.issue === "I3" && s.actor === "lead")).toMatchObject({ state: "active", note: "agent-a went quiet", epoch: 2, kind: "person" });
    // Not READY and not ACTIVE: nothing to claim, and it says why.
    await json("verify", "I3", "--as", "lead");
    const over = await cli("claim", "I3", "--as", "lead");
    expect(over.code).toBe(EXIT.refused);
    expect(over.err).toContain("I3 is VERIFY: a claim starts a READY issue or takes over an ACTIVE one whose lease ended");
  });

  it("--lease-ttl and --stale-after of a command set its times, as the environment does; a time that is no number of seconds is refused", async () => {
    const claim = await json<{ session: string }>("claim", "--as", "agent-a", "--lease-ttl", "1");
    expect((await json<{ lease_ttl_s: number; stale_after_s: number }>("agents", "--lease-ttl", "7", "--stale-after", "0.5"))).toMatchObject({ lease_ttl_s: 7, stale_after_s: 0.5 });
    await sleep(700);
    expect((await json<{ sessions: { session: string; state: string }[] }>("agents", "--stale-after", "0.5")).sessions.find((s) => s.session === claim.session)?.state).toBe("stale");
    await sleep(600);
    expect((await agents()).find((s) => s.session === claim.session)?.state).toBe("expired");
    for (const bad of ["0", "-3", "soon"]) {
      const r = await cli("agents", "--lease-ttl", bad);
      expect(r.code, bad).toBe(EXIT.usage);
      expect(r.err).toContain(`--lease-ttl takes seconds above 0, not '${bad}'`);
    }
  });

  it("claim --no-reclaim leaves abandoned work and takes READY work", async () => {
    process.env.COCKPIT_LEASE_TTL_S = "1";
    expect((await json<{ issue: string }>("claim", "--as", "agent-a")).issue).toBe("I1");
    await sleep(1200);
    const b = await json<{ issue: string; event: string; epoch: number }>("claim", "--as", "agent-b", "--no-reclaim");
    expect(b).toMatchObject({ issue: "I2", event: "plan_start", epoch: 1 });
    expect((await agents()).find((s) => s.issue === "I1")!.state).toBe("expired");
  });

  it("a person overrides with --force and a reason, which the ledger keeps; an agent never may; reason without force is bad input", async () => {
    expect((await cli("claim", "--as", "agent-a")).code).toBe(EXIT.ok);
    expect((await cli("claim", "--as", "agent-b")).code).toBe(EXIT.ok);
    const agent = await cli("verify", "I1", "--as", "agent-b", "--force", "--reason", "mine now");
    expect(agent.code).toBe(EXIT.refused);
    expect(agent.err).toContain("agent-b is an agent");
    const noReason = await cli("verify", "I1", "--as", "lead", "--force");
    expect(noReason.code).toBe(EXIT.usage);
    expect(noReason.err).toContain("force needs a reason");
    const reasonOnly = await cli("verify", "I1", "--as", "lead", "--reason", "why");
    expect(reasonOnly.code).toBe(EXIT.usage);
    const forced = await cli("verify", "I1", "--as", "lead", "--force", "--reason", "agent-a crashed");
    expect(forced.code, forced.err).toBe(EXIT.ok);
    expect(repo.ledgerLines().at(-1)).toMatchObject({ event: "plan_verify", by: "lead", issue: "I1", forced: "true", reason: "agent-a crashed" });
    expect((await agents()).find((s) => s.issue === "I1")).toMatchObject({ actor: "agent-a", state: "finished" });
    // release --force: a person's, never an agent's.
    expect((await cli("release", "I2", "--as", "agent-a", "--force")).code).toBe(EXIT.refused);
    const released = await json<{ released: boolean; holder: string }>("release", "I2", "--as", "lead", "--force", "--note", "handed back");
    expect(released).toMatchObject({ released: true, holder: "agent-b" });
    const i2 = (await agents()).find((s) => s.issue === "I2")!;
    expect(i2.state).toBe("released");
    expect(i2.reason).toMatch(/^released by lead at 20.*: "handed back"$/);
  });

  it("a session left on an issue the files show READY (a claim killed before its record) is no holder: the next start takes the issue", async () => {
    const store = openSqliteStore(repo.root);
    const at = new Date().toISOString();
    await store.write((tx) =>
      tx.insertSession({ session: "s-000000000001", issue: "I1", actor: "ghost", kind: "agent", epoch: 1, since: at, last_seen: at, expires: new Date(Date.now() + 3_600_000).toISOString(), note: null, ended: null, ended_at: null, ended_by: null }),
    );
    expect((await cli("start", "I1", "--as", "ada")).code).toBe(EXIT.ok);
    const byActor = Object.fromEntries((await agents()).map((s) => [s.actor, s]));
    expect(byActor.ada).toMatchObject({ state: "active", epoch: 2 });
    expect(byActor.ghost.state).toBe("released");
  });

  it("the store allows one session not ended per issue", async () => {
    const store = openSqliteStore(repo.root);
    const at = new Date().toISOString();
    const row = (session: string, epoch: number) => ({ session, issue: "I3", actor: "x", kind: "agent" as const, epoch, since: at, last_seen: at, expires: at, note: null, ended: null, ended_at: null, ended_by: null });
    await store.write((tx) => tx.insertSession(row("s-00000000000a", 1)));
    await expect(store.write((tx) => tx.insertSession(row("s-00000000000b", 2)))).rejects.toThrow(/UNIQUE/);
  });
});

describe("handoff, and whom a claim leaves alone", () => {
  it("a release with a note hands the issue to the next claim, which reads the note; plan record shows it too", async () => {
    expect((await json<{ issue: string }>("claim", "--as", "agent-a")).issue).toBe("I1");
    expect((await cli("heartbeat", "I1", "--as", "agent-a", "--note", "parser half done")).code).toBe(EXIT.ok);
    expect((await cli("release", "I1", "--as", "agent-a", "--note", "out of budget; the tokenizer is next")).code).toBe(EXIT.ok);
    const b = await json<{ issue: string; event: string; epoch: number; handoff: { from: string; how: string; note: string; branch: string | null; commits: unknown[] } }>("claim", "--as", "agent-b");
    expect(b).toMatchObject({ issue: "I1", event: "plan_reclaim", epoch: 2, handoff: { from: "agent-a", how: "released", note: "out of budget; the tokenizer is next", branch: null, commits: [] } });
    const record = await json<{ handoff?: { from: string; note: string } }>("record", "I1");
    expect(record.handoff).toMatchObject({ from: "agent-a", note: "out of budget; the tokenizer is next" });
    const text = await cli("record", "I1");
    expect(text.out).toContain("handoff from agent-a (released 20");
    expect(text.out).toContain("note: out of budget; the tokenizer is next");
    // Once the issue moves on, there is nothing to hand off.
    expect((await cli("verify", "I1", "--as", "agent-b")).code).toBe(EXIT.ok);
    expect((await json<{ handoff?: unknown }>("record", "I1")).handoff).toBeUndefined();
  });

  it("a claim skips an issue another agent owns and one commits already work on, names them, and takes the claimer's own first; --any takes them", async () => {
    repo.writeIssue("I1", issueYaml({ id: "I1", extra: "owner: claude-code#3f2a\n" }));
    repo.writeIssue("I3", issueYaml({ id: "I3", extra: "owner: agent-d\n" }));
    repo.write("src/parser.ts", "export const parse = 1;\n");
    repo.commitAll("I2: begin the parser");
    // agent-d's own issue comes first; the two it may not take are named.
    const d = await json<{ issue: string; skipped: { id: string; reason: string }[] }>("claim", "--as", "agent-d");
    expect(d.issue).toBe("I3");
    expect(d.skipped).toEqual([
      { id: "I1", reason: "owned by the agent claude-code#3f2a" },
      { id: "I2", reason: "commits already work on it without a start (work_without_start)" },
    ]);
    const none = await cli("claim", "--as", "agent-e", "--no-reclaim");
    expect(none.code).toBe(EXIT.refused);
    expect(none.err).toContain("no READY issue is left for agent-e: I1 (owned by the agent claude-code#3f2a), I2 (commits already work on it without a start (work_without_start)); claim --any (any: true) takes them");
    expect((await json<{ issue: string }>("claim", "--as", "agent-e", "--any")).issue).toBe("I1");
  });

  it("an owner who is a person does not turn a claim away", async () => {
    repo.writeIssue("I1", issueYaml({ id: "I1", extra: "owner: lea\n" }));
    repo.commitAll("lea owns I1");
    const b = await json<{ issue: string; skipped?: unknown }>("claim", "--as", "agent-b");
    expect(b.issue).toBe("I1");
    expect(b.skipped).toBeUndefined();
  });
});

