import { readFileSync } from "node:fs";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { LEDGER_FILE } from "@/lib/plan/constants";
import { EXIT } from "@/lib/surfaces/exit-codes";
import { planCli } from "../support/cli-in-process";
import { cleanupRepos, makePlanRepo, type PlanRepo } from "../support/repo";

// Needs a human, on the embedded store, through the command line's entry function: an ask opens
// on the asker's session (awaiting_input), a repeat is the same ask, a person answers (an agent
// may not), the waiting ask wakes, a wait runs out with exit 16, withdraw, and the asks of an issue
// that moved on close. Each ask, answer and withdrawal is a ledger line.

let repo: PlanRepo;
const saved = { ttl: process.env.COCKPIT_LEASE_TTL_S };

beforeEach(() => {
  repo = makePlanRepo({ files: { ".gitignore": ".ai/local/\n" }, issues: [{ id: "I1" }, { id: "I2" }, { id: "I3" }], commit: true });
});
afterEach(() => {
  if (saved.ttl === undefined) delete process.env.COCKPIT_LEASE_TTL_S;
  else process.env.COCKPIT_LEASE_TTL_S = saved.ttl;
});
afterAll(() => cleanupRepos());

const { cli, json } = planCli(() => repo.root);



/** A refusal under --json: its exit and the error body on stdout. */
async function refusal(...argv: string[]): Promise<{ code: number; error: { code: string; message: string } }> {
  const r = await cli(...argv, "--json");
  return { code: r.code, error: (JSON.parse(r.out) as { error: { code: string; message: string } }).error };
}

interface Ask {
  id: string;
  issue: string;
  asker: string;
  asker_kind: string;
  session: string | null;
  kind: string;
  question: string;
  options: string[];
  state: string;
  age_s: number;
  ended_by: string | null;
  answer: { yes?: boolean; choice?: string; text?: string; comment?: string } | null;
  reason: string | null;
  repeated?: boolean;
  timed_out?: boolean;
}
interface Inbox {
  asks: Ask[];
  sessions: { issue: string; state: string }[];
  count: number;
}
const ledger = () =>
  readFileSync(repo.path(LEDGER_FILE), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, string>);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const agents = async () => (await json<{ sessions: { session: string; issue: string; state: string; reason: string; actor: string }[] }>("agents")).sessions;

describe("an agent asks, a person answers", () => {
  it("an ask belongs to the asker's session (awaiting_input, the question its reason); the inbox lists it; the same question again is the same ask", async () => {
    const claim = await json<{ issue: string; session: string }>("claim", "--as", "builder-1");
    const asked = await json<Ask>("ask", "I1", "--question", "May I drop the legacy table?", "--kind", "approve", "--as", "builder-1");
    expect(asked).toMatchObject({ issue: "I1", asker: "builder-1", asker_kind: "agent", session: claim.session, kind: "approve", state: "open", repeated: false, answer: null });
    expect(asked.id).toMatch(/^a-[0-9a-f]{12}$/);
    const session = (await agents()).find((s) => s.session === claim.session)!;
    expect(session.state).toBe("awaiting_input");
    expect(session.reason).toContain(`asked "May I drop the legacy table?" (ask ${asked.id})`);

    const again = await json<Ask>("ask", "I1", "--question", "May I drop the legacy table?", "--kind", "approve", "--as", "builder-1");
    expect(again).toMatchObject({ id: asked.id, repeated: true });
    const inbox = await json<Inbox>("inbox");
    expect(inbox.asks.map((a) => a.id)).toEqual([asked.id]);
    expect(inbox.asks[0]).toMatchObject({ issue: "I1", asker: "builder-1", kind: "approve", state: "open" });
    expect(inbox.count).toBe(1);
    expect(ledger().filter((l) => l.event === "plan_ask")).toEqual([expect.objectContaining({ by: "builder-1", issue: "I1", ask: asked.id, kind: "approve", question: "May I drop the legacy table?" })]);
    const text = await cli("inbox");
    expect(text.out).toContain(`${asked.id} I1 approve open, asked by builder-1`);
    expect(text.out).toContain("inbox: 1 thing(s) need a person");
  });

  it("a person answers; an agent may not (its own ask included); a second answer is a conflict naming who answered and when; an unknown ask is not found", async () => {
    await json("claim", "--as", "builder-1");
    const asked = await json<Ask>("ask", "I1", "--question", "Ship it?", "--kind", "approve", "--as", "builder-1");
    const byAgent = await refusal("answer", asked.id, "--yes", "--as", "builder-1");
    expect(byAgent.code).toBe(EXIT.refused);
    expect(byAgent.error.message).toContain("builder-1 is an agent, and an agent never answers an ask");

    const answered = await json<Ask>("answer", asked.id, "--yes", "--comment", "after the backup", "--as", "lead");
    expect(answered).toMatchObject({ state: "answered", ended_by: "lead", answer: { yes: true, comment: "after the backup" }, reason: null });
    const second = await refusal("answer", asked.id, "--no", "--as", "lead");
    expect(second.code).toBe(EXIT.refused);
    expect(second.error.code).toBe("conflict");
    expect(second.error.message).toMatch(new RegExp(`ask ${asked.id} was already answered by lead at \\d{4}-\\d\\d-\\d\\dT`));
    const unknown = await refusal("answer", "a-000000000000", "--yes", "--as", "lead");
    expect(unknown).toMatchObject({ code: EXIT.missing, error: { code: "not_found" } });

    const waited = await json<Ask>("wait", asked.id, "--timeout", "0");
    expect(waited).toMatchObject({ state: "answered", timed_out: false, answer: { yes: true } });
    expect((await agents())[0].state).toBe("active");
    expect((await json<Inbox>("inbox")).count).toBe(0);
    expect(ledger().filter((l) => l.event === "plan_answer")).toEqual([expect.objectContaining({ by: "lead", issue: "I1", ask: asked.id, answer: "yes (after the backup)" })]);
  });

  it("ask --wait blocks until a person answers, and prints the answer; a wait that runs out exits 16 naming the open ask", async () => {
    await json("claim", "--as", "builder-1");
    const waiting = cli("ask", "I1", "--question", "Which queue?", "--kind", "choose", "--option", "sqs", "--option", "rabbit", "--wait", "--as", "builder-1");
    let id: string | undefined;
    for (let i = 0; i < 100 && !id; i++) {
      await sleep(50);
      id = (await json<Inbox>("inbox")).asks[0]?.id;
    }
    expect(id).toBeDefined();
    const wrong = await refusal("answer", id!, "--choice", "kafka", "--as", "lead");
    expect(wrong.code).toBe(EXIT.usage);
    expect(wrong.error.message).toBe(`'kafka' is not an option of ask ${id}; the options are 'sqs', 'rabbit'`);
    await json("answer", id!, "--choice", "rabbit", "--as", "lead");
    const done = await waiting;
    expect(done.code, done.err).toBe(EXIT.ok);
    expect(done.out.replace(/\n\s+/g, " ")).toBe(`plan: ask ${id} on I1 answered by lead: rabbit`);

    const open = await json<Ask>("ask", "I1", "--question", "And the retry count?", "--as", "builder-1");
    const ran = await cli("wait", open.id, "--timeout", "0.3", "--json");
    expect(ran.code).toBe(EXIT.waiting);
    expect(JSON.parse(ran.out)).toMatchObject({ id: open.id, state: "open", timed_out: true });
    const ranText = await cli("ask", "I1", "--question", "And the retry count?", "--wait", "--timeout", "0.2", "--as", "builder-1");
    expect(ranText.code).toBe(EXIT.waiting);
    expect(ranText.out.replace(/\n\s+/g, " ")).toBe(`plan: ask ${open.id} on I1 is still open after the wait (cockpit plan wait ${open.id} waits again)`);
  });

  it("only the asker withdraws; a withdrawn ask ends its wait and cannot be answered", async () => {
    const asked = await json<Ask>("ask", "I2", "--question", "Is I2 still wanted?", "--as", "lead");
    expect(asked).toMatchObject({ asker: "lead", asker_kind: "person", session: null, kind: "answer" });
    const other = await refusal("withdraw", asked.id, "--as", "someone");
    expect(other.code).toBe(EXIT.refused);
    expect(other.error.message).toBe(`ask ${asked.id} is lead's; only its asker withdraws it (a person answers it instead)`);
    const withdrawn = await json<Ask>("withdraw", asked.id, "--reason", "settled at standup", "--as", "lead");
    expect(withdrawn).toMatchObject({ state: "withdrawn", ended_by: "lead", reason: "settled at standup" });
    expect(await json<Ask>("wait", asked.id)).toMatchObject({ state: "withdrawn", timed_out: false });
    const late = await refusal("answer", asked.id, "--text", "yes", "--as", "lead");
    expect(late.code).toBe(EXIT.missing);
    expect(late.error.message).toMatch(new RegExp(`^ask ${asked.id} was withdrawn by lead at `));
    expect(ledger().filter((l) => l.event === "plan_ask_ended")).toEqual([expect.objectContaining({ ask: asked.id, ended: "withdrawn" })]);
  });

  it("the asks of an issue that reached VERIFY close, saying so; asking on it is refused", async () => {
    await json("claim", "--as", "builder-1");
    const asked = await json<Ask>("ask", "I1", "--question", "Anything else?", "--as", "builder-1");
    await json("verify", "I1", "--as", "builder-1");
    const closed = await json<Ask>("wait", asked.id);
    expect(closed).toMatchObject({ state: "closed", reason: "I1 reached VERIFY" });
    const late = await refusal("answer", asked.id, "--text", "no", "--as", "lead");
    expect(late.code).toBe(EXIT.missing);
    expect(late.error.message).toMatch(/is closed at .*: I1 reached VERIFY$/);
    const refused = await refusal("ask", "I1", "--question", "Now?", "--as", "builder-1");
    expect(refused.code).toBe(EXIT.refused);
    expect(refused.error.message).toContain("I1 is VERIFY: its work is over");
    const timeline = await json<Inbox>("inbox", "--issue", "I1");
    expect(timeline.asks.map((a) => a.state)).toEqual(["closed"]);
  });

  it("a session awaiting an answer holds its issue past its lease; the answer renews the lease", async () => {
    process.env.COCKPIT_LEASE_TTL_S = "1";
    const claim = await json<{ session: string }>("claim", "--as", "builder-1");
    const asked = await json<Ask>("ask", "I1", "--question", "Approve the schema?", "--kind", "approve", "--as", "builder-1");
    await sleep(1300);
    expect((await agents()).find((s) => s.session === claim.session)?.state).toBe("awaiting_input");
    const next = await json<{ issue: string }>("claim", "--as", "builder-2");
    expect(next.issue).toBe("I2");
    await json("answer", asked.id, "--no", "--as", "lead");
    expect((await agents()).find((s) => s.session === claim.session)?.state).toBe("active");
    await sleep(1300);
    // The answer renewed it; its lease then ran out as any other, and it is open to reclaim.
    expect((await agents()).find((s) => s.session === claim.session)?.state).toBe("expired");
    expect((await json<{ issue: string }>("claim", "--as", "builder-3")).issue).toBe("I1");
  });

  it("what is refused says what to fix: a control character, a choose with one option, options on an approve, a missing question, no answer of the ask's kind", async () => {
    const ctrl = await refusal("ask", "I1", "--question", "bell\u0007", "--as", "lead");
    expect(ctrl.code).toBe(EXIT.usage);
    expect(ctrl.error.message).toContain("question holds the control character U+0007");
    expect((await refusal("ask", "I1", "--question", "which?", "--kind", "choose", "--option", "only", "--as", "lead")).error.message).toBe(
      "a choose ask needs at least 2 options (--option TEXT, repeated; options)",
    );
    expect((await refusal("ask", "I1", "--question", "ok?", "--kind", "approve", "--option", "a", "--as", "lead")).error.message).toBe("options belong to a choose ask; a approve ask takes none");
    expect((await refusal("ask", "I1", "--question", "x".repeat(4001), "--as", "lead")).error.message).toContain("question is at most 4000 characters");
    const missing = await cli("ask", "I1", "--as", "lead");
    expect(missing.code).toBe(EXIT.usage);
    expect((await refusal("ask", "NOPE", "--question", "?", "--as", "lead")).code).toBe(EXIT.missing);
    const approve = await json<Ask>("ask", "I1", "--question", "ok?", "--kind", "approve", "--as", "lead");
    expect((await refusal("answer", approve.id, "--text", "sure", "--as", "boss")).error.message).toBe(
      `ask ${approve.id} asks for approval: answer yes or no (--yes or --no; yes: true or false), with an optional comment`,
    );
    // Nothing was opened by the refusals: one ask, the approve.
    expect((await json<Inbox>("inbox")).asks.map((a) => a.id)).toEqual([approve.id]);
  });
});
