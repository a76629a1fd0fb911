import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  AT,
  AT2,
  AT3,
  ISSUES,
  LEDGER,
  LOCK,
  cleanupRepos,
  copyCorpus,
  issueYaml,
  makePlanRepo,
  milestoneYaml,
  tempDir,
  type PlanRepo,
} from "@/tests/support/repo";
import { CapabilityError } from "../plan/errors";
import { SEALED_FROM } from "../plan/constants";
import { loadPlan } from "./";
import { loadRecords } from "./load";
import { NOTHING_DECLARED } from "../plan/queries";
import { sealOf, type Move } from "../plan/seal";
import { yamlScalar } from "../plan/edit";
import { derivePlan } from "../plan/derive";
import { withPlanLock } from "./lock";
import type { PlanRecords } from "../plan/records";
import { adoptLegacyStamps, claim, recordEvidence, transition, type EvidenceInput, type WriteOptions } from "./transition";
import { parseYaml, type YamlMap } from "../plan/yaml";

afterAll(cleanupRepos);

const clock = (at: string) => ({ now: () => at });

/** Stamp lines with their seals, as a transition writes them. */
function sealed(id: string, stamps: { start?: string; verify?: string; done?: string }): string {
  let out = "";
  if (stamps.start) out += `started_at: ${stamps.start}\nstarted_event: ${sealOf("plan_start", id, stamps.start)}\n`;
  if (stamps.verify) out += `verified_at: ${stamps.verify}\nverified_event: ${sealOf("plan_verify", id, stamps.verify)}\n`;
  if (stamps.done) out += `completed_at: ${stamps.done}\ncompleted_event: ${sealOf("plan_done", id, stamps.done)}\n`;
  return out;
}

const evidence = (...covers: string[]) =>
  "evidence:\n" + covers.map((c) => `  - covers: ${c}\n    type: test\n    command: "true"\n`).join("");

const T0 = "2026-10-10T09:00:00Z";

/** Expect a rejection with this code and exactly this message. */
async function rejects(p: Promise<unknown>, code: CapabilityError["code"], message: string | RegExp): Promise<void> {
  let error: unknown;
  try {
    await p;
  } catch (e) {
    error = e;
  }
  expect(error, "the call was expected to fail").toBeInstanceOf(CapabilityError);
  const ce = error as CapabilityError;
  if (typeof message === "string") expect(ce.message).toBe(message);
  else expect(ce.message).toMatch(message);
  expect(ce.code).toBe(code);
}

/** Run a call that must be refused and prove it wrote nothing: every byte and the ledger as before. */
async function refusedWithoutWriting(
  repo: PlanRepo,
  call: () => Promise<unknown>,
  code: CapabilityError["code"],
  message: string | RegExp,
): Promise<void> {
  const before = repo.snapshot();
  const ledgerBefore = repo.ledger();
  await rejects(call(), code, message);
  expect(repo.snapshot()).toEqual(before);
  expect(repo.ledger()).toBe(ledgerBefore);
}

// The guard plan: every status, the milestone gate, a cancelled issue with an unfinished dependency.
function guardRepo(): PlanRepo {
  return makePlanRepo({
    milestones: [{ id: "M1", evidence_required: ["ms_proof"] }, { id: "M2", order: 2, depends_on: ["M1"] }],
    issues: [
      { id: "I0001" }, // READY
      { id: "I0002", depends_on: ["I0001", "I0003"] }, // BLOCKED
      { id: "I0003" }, // READY
      { id: "I0004", extra: sealed("I0004", { start: T0 }) }, // ACTIVE
      { id: "I0005", extra: sealed("I0005", { start: T0, verify: T0 }) }, // VERIFY
      { id: "I0006", extra: sealed("I0006", { start: T0, verify: T0, done: T0 }) + evidence("proof") }, // DONE
      { id: "I0007", cancelled: true, depends_on: ["I0001"] }, // CANCELLED, waits on I0001
      { id: "I0008", cancelled: true }, // CANCELLED
      { id: "I0009", milestone: "M2" }, // BLOCKED by the gate of M2
      { id: "I0010", depends_on: ["I0001"], extra: sealed("I0010", { start: T0 }) }, // ACTIVE, premature
      { id: "I0011", extra: sealed("I0011", { start: T0 }) + evidence("proof") }, // ACTIVE, evidence complete
      { id: "I0012", evidence_required: ["proof", "other"], extra: sealed("I0012", { start: T0, verify: T0 }) + evidence("proof") }, // VERIFY, 1 of 2
      { id: "I0013", extra: "started_at: 2026-12-01T00:00:00Z\n" }, // READY: forged stamp
    ],
  });
}

describe("the guard plan derives as intended", () => {
  it("statuses and blocked_by", () => {
    const plan = loadPlan(guardRepo().root);
    const by = Object.fromEntries(plan.issues.map((i) => [i.id, [i.status, i.blocked_by.join(" ")]]));
    expect(by).toEqual({
      I0001: ["READY", ""],
      I0002: ["BLOCKED", "I0001 I0003"],
      I0003: ["READY", ""],
      I0004: ["ACTIVE", ""],
      I0005: ["VERIFY", ""],
      I0006: ["DONE", ""],
      I0007: ["CANCELLED", "I0001"],
      I0008: ["CANCELLED", ""],
      I0009: ["BLOCKED", "milestone:M2"],
      I0010: ["ACTIVE", "I0001"],
      I0011: ["ACTIVE", ""],
      I0012: ["VERIFY", ""],
      I0013: ["READY", ""],
    });
  });
});

describe("§6.2 guards: exact messages, and a refusal writes nothing", () => {
  let repo: PlanRepo;
  beforeAll(() => {
    repo = guardRepo();
  });

  const cases: [string, Move, string][] = [
    // start: status must be READY; " (waiting on …)" only when blocked_by is non-empty
    ["I0002", "start", "I0002 is BLOCKED, not READY (waiting on I0001 I0003)"],
    ["I0009", "start", "I0009 is BLOCKED, not READY (waiting on milestone:M2)"],
    ["I0004", "start", "I0004 is ACTIVE, not READY"],
    ["I0005", "start", "I0005 is VERIFY, not READY"],
    ["I0006", "start", "I0006 is DONE, not READY"],
    ["I0008", "start", "I0008 is CANCELLED, not READY"],
    ["I0007", "start", "I0007 is CANCELLED, not READY (waiting on I0001)"],
    ["I0010", "start", "I0010 is ACTIVE, not READY (waiting on I0001)"],
    // verify: ACTIVE or VERIFY only
    ["I0001", "verify", "I0001 is READY; only an ACTIVE issue can move to VERIFY"],
    ["I0002", "verify", "I0002 is BLOCKED; only an ACTIVE issue can move to VERIFY"],
    ["I0006", "verify", "I0006 is DONE; only an ACTIVE issue can move to VERIFY"],
    ["I0008", "verify", "I0008 is CANCELLED; only an ACTIVE issue can move to VERIFY"],
    // done 1: blocked_by first (even for a CANCELLED issue and for an ACTIVE, premature one)
    ["I0002", "done", "I0002 cannot be DONE while I0001 I0003 is not DONE"],
    ["I0007", "done", "I0007 cannot be DONE while I0001 is not DONE"],
    ["I0009", "done", "I0009 cannot be DONE while milestone:M2 is not DONE"],
    ["I0010", "done", "I0010 cannot be DONE while I0001 is not DONE"],
    // done 2: status ACTIVE or VERIFY
    ["I0001", "done", "I0001 is READY; only an ACTIVE or VERIFY issue can move to DONE"],
    ["I0006", "done", "I0006 is DONE; only an ACTIVE or VERIFY issue can move to DONE"],
    ["I0008", "done", "I0008 is CANCELLED; only an ACTIVE or VERIFY issue can move to DONE"],
    ["I0013", "done", "I0013 is READY; only an ACTIVE or VERIFY issue can move to DONE"],
    // done 3: evidence, re-derived with the stamp in memory
    ["I0004", "done", "I0004 still needs evidence for: proof (record it: cockpit plan evidence I0004 --covers proof …)"],
    ["I0005", "done", "I0005 still needs evidence for: proof (record it: cockpit plan evidence I0005 --covers proof …)"],
    ["I0012", "done", "I0012 still needs evidence for: other (record it: cockpit plan evidence I0012 --covers other …)"],
  ];

  it.each(cases)("%s %s ⇒ refused: %s", async (id, move, message) => {
    await refusedWithoutWriting(repo, () => transition(repo.root, id, move, clock(AT)), "refused", message);
    expect(repo.ledger()).toBeUndefined(); // absent stays absent
  });

  it.each(["start", "verify", "done"] as Move[])("%s of an unknown issue ⇒ not found, nothing written", async (move) => {
    await refusedWithoutWriting(repo, () => transition(repo.root, "I9999", move, clock(AT)), "not_found", "no issue 'I9999'; cockpit plan issues lists every one");
    expect(repo.ledger()).toBeUndefined();
  });

  it("a milestone id is not an issue", async () => {
    await refusedWithoutWriting(repo, () => transition(repo.root, "M1", "start", clock(AT)), "not_found", "no issue 'M1'; cockpit plan issues lists every one");
  });

  it("a refusal leaves an existing ledger byte for byte as it was", async () => {
    const r = guardRepo();
    await transition(r.root, "I0001", "start", clock(AT));
    const ledger = r.ledger();
    expect(ledger).toBeDefined();
    await refusedWithoutWriting(r, () => transition(r.root, "I0001", "start", clock(AT2)), "refused", "I0001 is ACTIVE, not READY");
    await refusedWithoutWriting(r, () => transition(r.root, "I0003", "done", clock(AT2)), "refused", /^I0003 is READY; only/);
    expect(r.ledger()).toBe(ledger);
  });

  it("the plan lock is released after a refusal (no lock file is left)", async () => {
    await rejects(transition(repo.root, "I0004", "start"), "refused", "I0004 is ACTIVE, not READY");
    expect(readdirSync(join(repo.root, ".ai/local/state"))).toEqual([]);
  });
});

describe("§6.2 legal moves", () => {
  it("ACTIVE → done directly is legal when the evidence is complete (no verified_at needed)", async () => {
    const repo = guardRepo();
    const r = await transition(repo.root, "I0011", "done", clock(AT));
    expect(r).toMatchObject({ from: "ACTIVE", to: "DONE", field: "completed_at", event: "plan_done" });
    const text = repo.read("I0011");
    expect(text).not.toContain("verified_at");
    expect(text).toContain(`completed_at: ${AT}\ncompleted_event: ${sealOf("plan_done", "I0011", AT)}\nupdated_at: ${AT}\nevidence:`);
  });

  it("re-verify is allowed: VERIFY → verify overwrites stamp and seal in place", async () => {
    const repo = guardRepo();
    const before = repo.read("I0005");
    const r = await transition(repo.root, "I0005", "verify", clock(AT));
    expect(r).toMatchObject({ from: "VERIFY", to: "VERIFY" });
    const once = repo.read("I0005");
    expect(once).toBe(
      before
        .replace(`verified_at: ${T0}`, `verified_at: ${AT}`)
        .replace(`verified_event: ${sealOf("plan_verify", "I0005", T0)}`, `verified_event: ${sealOf("plan_verify", "I0005", AT)}`) +
        `updated_at: ${AT}\n`,
    );
    await transition(repo.root, "I0005", "verify", clock(AT2));
    expect(repo.read("I0005")).toBe(once.replaceAll(AT, AT2).replace(sealOf("plan_verify", "I0005", AT), sealOf("plan_verify", "I0005", AT2)));
  });

  it("start heals a forged started_at of a READY issue in place", async () => {
    const repo = guardRepo();
    const before = repo.read("I0013");
    await transition(repo.root, "I0013", "start", clock(AT));
    expect(repo.read("I0013")).toBe(
      before.replace("started_at: 2026-12-01T00:00:00Z", `started_at: ${AT}`) +
        `started_event: ${sealOf("plan_start", "I0013", AT)}\nupdated_at: ${AT}\n`,
    );
  });

  it("start → verify → evidence → done, through to DONE, each move checked against the records of the moment", async () => {
    const repo = guardRepo();
    await transition(repo.root, "I0001", "start", clock(AT));
    await transition(repo.root, "I0001", "verify", clock(AT2));
    await rejects(transition(repo.root, "I0001", "done", clock(AT3)), "refused", /^I0001 still needs evidence for: proof /);
    await recordEvidence(repo.root, { record: "I0001", covers: "proof", type: "test", command: "npm test" }, clock(AT3));
    const r = await transition(repo.root, "I0001", "done", clock(AT3));
    expect(r).toMatchObject({ from: "VERIFY", to: "DONE" });
    expect(repo.ledgerLines().map((l) => l.event)).toEqual(["plan_start", "plan_verify", "plan_evidence", "plan_done"]);
  });
});

describe("§6.3 the write, byte for byte, through transition()", () => {
  it("`id: I0001\\ntitle: t\\n` + start at AT ⇒ the R unit-test bytes", async () => {
    const repo = makePlanRepo({ issues: [{ id: "I0001", raw: "id: I0001\ntitle: t\n" }] });
    await transition(repo.root, "I0001", "start", clock(AT));
    expect(repo.read("I0001")).toBe(`id: I0001\ntitle: t\nstarted_at: ${AT}\nstarted_event: ${sealOf("plan_start", "I0001", AT)}\nupdated_at: ${AT}\n`);
  });

  it("no final newline gains one; CRLF becomes LF", async () => {
    const repo = makePlanRepo({
      issues: [
        { id: "I0001", raw: "id: I0001\ntitle: t" },
        { id: "I0002", raw: "id: I0002\r\ntitle: t\r\n" },
      ],
    });
    await transition(repo.root, "I0001", "start", clock(AT));
    await transition(repo.root, "I0002", "start", clock(AT));
    expect(repo.read("I0001")).toBe(`id: I0001\ntitle: t\nstarted_at: ${AT}\nstarted_event: ${sealOf("plan_start", "I0001", AT)}\nupdated_at: ${AT}\n`);
    expect(repo.read("I0002")).toBe(`id: I0002\ntitle: t\nstarted_at: ${AT}\nstarted_event: ${sealOf("plan_start", "I0002", AT)}\nupdated_at: ${AT}\n`);
  });

  it("an indented key of the same name is not matched; fields go before `evidence:`", async () => {
    const raw = "id: I0001\nmeta:\n  started_at: x\nevidence_required: [proof]\nevidence:\n  - covers: other\n";
    const repo = makePlanRepo({ issues: [{ id: "I0001", raw }] });
    await transition(repo.root, "I0001", "start", clock(AT));
    expect(repo.read("I0001")).toBe(
      `id: I0001\nmeta:\n  started_at: x\nevidence_required: [proof]\nstarted_at: ${AT}\nstarted_event: ${sealOf("plan_start", "I0001", AT)}\nupdated_at: ${AT}\nevidence:\n  - covers: other\n`,
    );
  });

  it("only the record of the moved issue changes", async () => {
    const repo = guardRepo();
    const before = repo.snapshot();
    await transition(repo.root, "I0001", "start", clock(AT));
    const after = repo.snapshot();
    const changed = [...after.keys()].filter((k) => before.get(k) !== after.get(k));
    // The ledger, the record, and what undoes the move (the clone's own state).
    expect(changed.sort()).toEqual([LEDGER, ".ai/local/state/undo/1.json", `${ISSUES}/I0001.yaml`].sort());
  });
});

describe("§6.5 the result", () => {
  it("start: every field, in order, `to` derived after the write, next_ready present", async () => {
    const repo = makePlanRepo({ issues: [{ id: "I0001" }, { id: "I0002", depends_on: ["I0001"] }, { id: "I0003", priority: "p2" }] });
    const r = await transition(repo.root, "I0001", "start", clock(AT));
    expect(r).toEqual({
      issue: "I0001",
      transition: "start",
      from: "READY",
      to: "ACTIVE",
      field: "started_at",
      at: AT,
      event: "plan_start",
      ledger_id: 1,
      next_ready: "I0003",
    });
    expect(Object.keys(r)).toEqual(["issue", "transition", "from", "to", "field", "at", "event", "ledger_id", "next_ready"]);
  });

  it("next_ready is absent (not undefined-valued) when nothing is READY after the move", async () => {
    const repo = makePlanRepo({ issues: [{ id: "I0001" }, { id: "I0002", depends_on: ["I0001"] }] });
    const r = await transition(repo.root, "I0001", "start", clock(AT));
    expect("next_ready" in r).toBe(false);
    expect(JSON.stringify(r)).toBe(
      `{"issue":"I0001","transition":"start","from":"READY","to":"ACTIVE","field":"started_at","at":"${AT}","event":"plan_start","ledger_id":1}`,
    );
  });

  it("verify and done: fields and events; done with evidence ⇒ DONE and the dependent becomes next_ready", async () => {
    const repo = makePlanRepo({ issues: [{ id: "I0001", extra: evidence("proof") }, { id: "I0002", depends_on: ["I0001"] }] });
    await transition(repo.root, "I0001", "start", clock(AT));
    const v = await transition(repo.root, "I0001", "verify", clock(AT2));
    expect(v).toEqual({ issue: "I0001", transition: "verify", from: "ACTIVE", to: "VERIFY", field: "verified_at", at: AT2, event: "plan_verify", ledger_id: 2 });
    const d = await transition(repo.root, "I0001", "done", clock(AT3));
    expect(d).toEqual({
      issue: "I0001",
      transition: "done",
      from: "VERIFY",
      to: "DONE",
      field: "completed_at",
      at: AT3,
      event: "plan_done",
      ledger_id: 3,
      next_ready: "I0002",
    });
    expect(loadPlan(repo.root).issues.map((i) => i.status)).toEqual(["DONE", "READY"]);
  });

  it("the default clock is UTC now at second precision, the same instant in stamp, seal, updated_at and ledger ts", async () => {
    const repo = makePlanRepo({ issues: [{ id: "I0001" }] });
    const before = new Date().toISOString().slice(0, 19) + "Z";
    const r = await transition(repo.root, "I0001", "start");
    const after = new Date().toISOString().slice(0, 19) + "Z";
    expect(r.at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(r.at >= before && r.at <= after).toBe(true);
    const text = repo.read("I0001");
    expect(text).toContain(`started_at: ${r.at}\nstarted_event: ${sealOf("plan_start", "I0001", r.at)}\nupdated_at: ${r.at}\n`);
    expect(repo.ledgerLines()[0].ts).toBe(r.at);
  });
});

describe("claim", () => {
  it("starts the §3.5 choice (wave, priority, id) and answers like start", async () => {
    const repo = makePlanRepo({
      issues: [{ id: "I0001", priority: "p2" }, { id: "I0002", priority: "p0" }, { id: "I0003", priority: "p0", depends_on: ["I0001"] }],
    });
    const r = await claim(repo.root, undefined, clock(AT));
    expect(r).toEqual({ issue: "I0002", transition: "start", from: "READY", to: "ACTIVE", field: "started_at", at: AT, event: "plan_start", ledger_id: 1, next_ready: "I0001" });
    expect((await claim(repo.root, undefined, clock(AT))).issue).toBe("I0001");
    await refusedWithoutWriting(repo, () => claim(repo.root, undefined, clock(AT)), "refused", "no issue is READY: 2 taken, started and not done (I0001, I0002); 1 blocked by an unfinished dependency (I0003)");
  });

  it("with a milestone: only its issues; unknown milestone ⇒ not found; none declared ⇒ refused", async () => {
    const repo = makePlanRepo({ milestones: [{ id: "M1" }, { id: "M2" }, { id: "M3" }], issues: [{ id: "I0001" }, { id: "I0002", milestone: "M2" }] });
    expect((await claim(repo.root, "M2", clock(AT))).issue).toBe("I0002");
    await refusedWithoutWriting(repo, () => claim(repo.root, "M2", clock(AT)), "refused", "no issue is READY: 1 taken, started and not done (I0002)");
    await refusedWithoutWriting(repo, () => claim(repo.root, "M9", clock(AT)), "not_found", "no milestone 'M9'");
    await refusedWithoutWriting(repo, () => claim(repo.root, "M3", clock(AT)), "refused", NOTHING_DECLARED);
  });

  it("a plan without issues ⇒ refused, nothing written", async () => {
    const repo = makePlanRepo({});
    await refusedWithoutWriting(repo, () => claim(repo.root, undefined, clock(AT)), "refused", NOTHING_DECLARED);
    expect(repo.ledger()).toBeUndefined();
  });
});

describe("what the plan lock holds", () => {
  const lockHeld = (repo: PlanRepo) => existsSync(repo.path(LOCK));

  it("the plan after a start or a verify is derived once the lock is released; after a done, inside it (its evidence guard)", async () => {
    const repo = makePlanRepo({ issues: [{ id: "I0001", extra: evidence("proof") }, { id: "I0002", depends_on: ["I0001"] }] });
    for (const [move, inside] of [["start", [true, false]], ["verify", [true, false]], ["done", [true, true]]] as const) {
      const held: boolean[] = [];
      const derive = (records: PlanRecords) => {
        held.push(lockHeld(repo));
        return derivePlan(records);
      };
      await transition(repo.root, "I0001", move, { ...clock(AT), derive });
      expect([move, held]).toEqual([move, inside]);
    }
    expect(loadPlan(repo.root).issues.map((i) => i.status)).toEqual(["DONE", "READY"]);
  });

  it("a caller that keeps nothing parses the records before it waits; an edit made during the wait is still seen", async () => {
    const repo = makePlanRepo({ issues: [{ id: "I0001" }, { id: "I0002" }, { id: "I0003" }] });
    let release!: () => void;
    const holder = withPlanLock(repo.root, "tests/holder", () => new Promise<void>((r) => (release = r)));
    await vi.waitFor(() => expect(lockHeld(repo)).toBe(true));
    const o: WriteOptions = clock(AT);
    const move = transition(repo.root, "I0002", "start", o);
    // Parsed while another writer holds the lock.
    expect(o.cache?.version).toBeGreaterThan(0);
    repo.writeIssue("I0002", issueYaml({ id: "I0002", depends_on: ["I0003"] }));
    release();
    await holder;
    await expect(move).rejects.toThrow("I0002 is BLOCKED, not READY (waiting on I0003)");
  });
});

describe("invalid ids are refused before anything is read or written", () => {
  const bad = ["../x", "a/b", "/etc/passwd", "..", "", ".hidden", "a\\b", "..x", "x\n"];
  let repo: PlanRepo;
  beforeAll(() => {
    repo = guardRepo();
  });

  it.each(bad)("transition(%j) ⇒ invalid input", async (id) => {
    for (const move of ["start", "verify", "done"] as Move[]) {
      await refusedWithoutWriting(repo, () => transition(repo.root, id, move), "invalid_input", /./);
    }
    expect(repo.ledger()).toBeUndefined();
  });

  it.each(bad)("recordEvidence(%j) ⇒ invalid input", async (id) => {
    await refusedWithoutWriting(repo, () => recordEvidence(repo.root, { record: id, covers: "proof", type: "test", command: "c" }), "invalid_input", /./);
  });

  it("the messages say why", async () => {
    await rejects(transition(repo.root, "../x", "start"), "invalid_input", "'../x' is not an id: an id names a file of the records folder, without path separators");
    await rejects(transition(repo.root, "/etc/passwd", "start"), "invalid_input", /^'\/etc\/passwd' is not an id/);
    await rejects(transition(repo.root, "..", "start"), "invalid_input", "'..' is not an id: '..' may not appear in an id");
    await rejects(transition(repo.root, ".hidden", "start"), "invalid_input", "'.hidden' is not an id: it may not start with '.'");
  });

  it("a symlink I9.yaml pointing outside the repository is not loaded (a finding) and never written through", async () => {
    const repo = guardRepo();
    const outside = tempDir("cockpit-outside-");
    const target = join(outside, "I9.yaml");
    writeFileSync(target, issueYaml({ id: "I9", extra: sealed("I9", { start: T0 }) }));
    symlinkSync(target, repo.issuePath("I9"));
    const plan = loadPlan(repo.root);
    expect(plan.issues.find((i) => i.id === "I9")).toBeUndefined();
    expect(plan.findings.filter((f) => f.subject === "I9").map((f) => f.code)).toEqual(["unreadable_record"]);
    const targetBefore = readFileSync(target);
    await refusedWithoutWriting(repo, () => transition(repo.root, "I9", "verify", clock(AT)), "not_found", "no issue 'I9'; cockpit plan issues lists every one");
    await refusedWithoutWriting(repo, () => recordEvidence(repo.root, { record: "I9", covers: "proof", type: "test", command: "c" }, clock(AT)), "not_found", "no milestone or issue 'I9'");
    expect(readFileSync(target).equals(targetBefore)).toBe(true);
    expect(repo.ledger()).toBeUndefined();
  });

  it("a symlink I9.yaml pointing inside the repository but outside issues/ is loaded but never written through", async () => {
    const repo = guardRepo();
    const target = repo.path("elsewhere/I9.yaml");
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, issueYaml({ id: "I9", extra: sealed("I9", { start: T0 }) }));
    symlinkSync(target, repo.issuePath("I9"));
    expect(loadPlan(repo.root).issues.find((i) => i.id === "I9")?.status).toBe("ACTIVE");
    const targetBefore = readFileSync(target);
    const msg = "I9.yaml is a link that leaves the records folder; it is not written through";
    await refusedWithoutWriting(repo, () => transition(repo.root, "I9", "verify", clock(AT)), "refused", msg);
    await refusedWithoutWriting(repo, () => recordEvidence(repo.root, { record: "I9", covers: "proof", type: "test", command: "c" }, clock(AT)), "refused", msg);
    expect(readFileSync(target).equals(targetBefore)).toBe(true);
    expect(repo.ledger()).toBeUndefined();
  });

  it("a symlink to a sibling record folder (milestones/) is refused as well", async () => {
    const repo = guardRepo();
    writeFileSync(repo.milestonePath("X1"), issueYaml({ id: "I8" }));
    symlinkSync("../milestones/X1.yaml", repo.issuePath("I8"));
    await refusedWithoutWriting(repo, () => transition(repo.root, "I8", "start", clock(AT)), "refused", /link that leaves the records folder/);
  });

  it("a symlink inside issues/ is written through to its target", async () => {
    const repo = makePlanRepo({ issues: [{ id: "I0001" }] });
    writeFileSync(repo.path(`${ISSUES}/real-I0002.yml`), issueYaml({ id: "I0002" }));
    symlinkSync("real-I0002.yml", repo.issuePath("I0002"));
    await transition(repo.root, "I0002", "start", clock(AT));
    expect(readFileSync(repo.path(`${ISSUES}/real-I0002.yml`), "utf8")).toContain(`started_at: ${AT}`);
  });

  // BUG (see the report): `move in MOVES` also accepts inherited property names.
  it.each(["constructor", "toString", "__proto__", "hasOwnProperty", "Start", "DONE"])(
    "an unknown move %j is invalid input, and nothing is written",
    async (move) => {
      await refusedWithoutWriting(
        repo,
        () => transition(repo.root, "I0001", move as Move, clock(AT)),
        "invalid_input",
        `'${move}' is not a transition; the transitions are start, verify, done`,
      );
    },
  );
});

describe("§6.6 evidence", () => {
  const input = (over: Partial<EvidenceInput> = {}): EvidenceInput => ({ record: "I0001", covers: "proof", type: "test", command: "npm test", ...over });

  it("refusals: undeclared token (exit-15 kind), with the declared list comma-joined", async () => {
    const repo = guardRepo();
    await refusedWithoutWriting(repo, () => recordEvidence(repo.root, input({ covers: "nope" }), clock(AT)), "refused", "I0001 does not require evidence 'nope' (declared: proof)");
    await refusedWithoutWriting(
      repo,
      () => recordEvidence(repo.root, input({ record: "I0012", covers: "extra" }), clock(AT)),
      "refused",
      "I0012 does not require evidence 'extra' (declared: proof,other)",
    );
    await refusedWithoutWriting(repo, () => recordEvidence(repo.root, input({ record: "M1", covers: "proof" }), clock(AT)), "refused", "M1 does not require evidence 'proof' (declared: ms_proof)");
    await refusedWithoutWriting(repo, () => recordEvidence(repo.root, input({ record: "M2", covers: "x" }), clock(AT)), "refused", "M2 does not require evidence 'x' (declared: )");
    expect(repo.ledger()).toBeUndefined();
  });

  it("refusals: unknown record ⇒ not found; bad type, no command or artifact, blank covers ⇒ invalid input", async () => {
    const repo = guardRepo();
    await refusedWithoutWriting(repo, () => recordEvidence(repo.root, input({ record: "I9999" }), clock(AT)), "not_found", "no milestone or issue 'I9999'");
    await refusedWithoutWriting(repo, () => recordEvidence(repo.root, input({ type: "vibes" }), clock(AT)), "invalid_input", "'vibes' is not an evidence type; the types are test, build, ci, artifact, manual");
    await refusedWithoutWriting(
      repo,
      () => recordEvidence(repo.root, { record: "I0001", covers: "proof", type: "test" }, clock(AT)),
      "invalid_input",
      "evidence names the command that proves it or the artifact it produced; narrative is not evidence",
    );
    await refusedWithoutWriting(repo, () => recordEvidence(repo.root, input({ covers: "  " }), clock(AT)), "invalid_input", /covers/);
    expect(repo.ledger()).toBeUndefined();
  });

  it("no status guard: evidence on a READY issue is recorded; the entry is §1.6's, updated_at is set", async () => {
    const repo = makePlanRepo({ issues: [{ id: "I0001", evidence_required: ["proof", "other"] }] });
    const r = await recordEvidence(repo.root, input({ result: "3 passed", artifact: undefined }), clock(AT));
    expect(r).toEqual({ record: "I0001", covers: "proof", event: "plan_evidence", at: AT, evidence_have: 1, evidence_need: 2, evidence_missing: ["other"] });
    expect(repo.read("I0001")).toBe(
      issueYaml({ id: "I0001", evidence_required: ["proof", "other"] }) +
        `updated_at: ${AT}\nevidence:\n  - covers: proof\n    type: test\n    command: "npm test"\n    result: "3 passed"\n    commit: NONE\n    recorded_at: ${AT}\n`,
    );
  });

  it("commit is the real HEAD once there is a commit; an artifact instead of a command", async () => {
    const repo = makePlanRepo({ issues: [{ id: "I0001" }], commit: true });
    const head = repo.git("rev-parse", "HEAD");
    await recordEvidence(repo.root, { record: "I0001", covers: "proof", type: "artifact", artifact: "dist/x.tgz" }, clock(AT));
    // a sha is written so that it reads back as itself (quoted when YAML could take it for a number)
    expect(repo.read("I0001")).toContain(`  - covers: proof\n    type: artifact\n    artifact: "dist/x.tgz"\n    commit: ${yamlScalar(head)}\n    recorded_at: ${AT}\n`);
    const parsed = parseYaml(repo.read("I0001"));
    const entry = parsed.ok && ((parsed.value as YamlMap).get("evidence") as YamlMap[])[0];
    expect(entry && entry.get("commit")).toBe(head);
  });

  it("appends at the END of the evidence block when keys follow it; the record parses and reads back", async () => {
    const raw = issueYaml({ id: "I0001", evidence_required: ["proof", "b"] }).replace("created_at: 2026-10-01\n", "") +
      "evidence:\n  - covers: b\n    type: test\ncreated_at: 2026-09-05\nupdated_at: 2026-09-05\n";
    const repo = makePlanRepo({ issues: [{ id: "I0001", raw }] });
    await recordEvidence(repo.root, input(), clock(AT));
    const text = repo.read("I0001");
    expect(text).toBe(
      raw.replace("updated_at: 2026-09-05", `updated_at: ${AT}`).replace(
        "    type: test\ncreated_at",
        `    type: test\n  - covers: proof\n    type: test\n    command: "npm test"\n    commit: NONE\n    recorded_at: ${AT}\ncreated_at`,
      ),
    );
    const rec = loadRecords(repo.root).issues[0];
    expect(rec.covers).toEqual(["b", "proof"]);
  });

  it("flow and empty evidence lists become block lists that keep their entries", async () => {
    const base = issueYaml({ id: "I0001", evidence_required: ["proof", "a"] });
    for (const shape of ["evidence: []\n", "evidence:\n", "evidence: [{covers: a, type: test}]\n"]) {
      const repo = makePlanRepo({ issues: [{ id: "I0001", raw: base + shape }] });
      await recordEvidence(repo.root, input(), clock(AT));
      const rec = loadRecords(repo.root);
      expect(rec.loadFindings).toEqual([]);
      expect(rec.issues[0].covers).toEqual(shape.includes("covers: a") ? ["a", "proof"] : ["proof"]);
    }
  });

  it("evidence on a milestone goes to milestones/<id>.yaml; the ledger line carries issue, covers, type", async () => {
    const repo = makePlanRepo({ milestones: [{ id: "M1", evidence_required: ["ms_proof"] }] });
    const r = await recordEvidence(repo.root, { record: "M1", covers: "ms_proof", type: "manual", command: "look" }, clock(AT));
    expect(r).toMatchObject({ record: "M1", evidence_have: 1, evidence_need: 1 });
    expect(repo.read("M1")).toBe(
      milestoneYaml({ id: "M1", evidence_required: ["ms_proof"] }) +
        `updated_at: ${AT}\nevidence:\n  - covers: ms_proof\n    type: manual\n    command: "look"\n    commit: NONE\n    recorded_at: ${AT}\n`,
    );
    const [line] = repo.ledgerLines();
    expect(Object.keys(line)).toEqual(["ts", "event", "head", "branch", "by", "issue", "covers", "type"]);
    expect(line).toMatchObject({ event: "plan_evidence", issue: "M1", covers: "ms_proof", type: "manual" });
    expect(loadPlan(repo.root).milestones[0].status).toBe("DONE");
  });

  // BUG (see the report): a record whose `evidence:` is a block mapping is turned into a file that
  // does not parse, the issue drops out of the plan, and the call still reports success.
  it("a record whose evidence block is a mapping is refused or stays readable, never destroyed", async () => {
    const raw = issueYaml({ id: "I0001" }) + "evidence:\n  covers: proof\n  type: test\n";
    const repo = makePlanRepo({ issues: [{ id: "I0001", raw }] });
    const unreadable = () => loadRecords(repo.root).loadFindings.filter((f) => f.code === "unreadable_record");
    expect(unreadable()).toEqual([]);
    let ok = true;
    try {
      await recordEvidence(repo.root, input(), clock(AT));
    } catch (e) {
      ok = false;
      expect(e).toBeInstanceOf(CapabilityError);
    }
    if (!ok) expect(repo.read("I0001")).toBe(raw);
    expect(unreadable()).toEqual([]);
    expect(loadPlan(repo.root).issues.map((i) => i.id)).toEqual(["I0001"]);
  });
});

describe("write failures (§6.3 order: guard → read → edit → write file → append ledger)", () => {
  it("a ledger path that is not a regular file is refused before the record is written", async () => {
    const repo = makePlanRepo({ issues: [{ id: "I0001" }] });
    repo.write(`${LEDGER}/x`, "a folder where the ledger should be\n");
    const before = repo.read("I0001");
    await rejects(
      transition(repo.root, "I0001", "start", clock(AT)),
      "refused",
      `${LEDGER} is a folder, not a regular file, so the Cockpit cannot keep its state in it: remove ${LEDGER}`,
    );
    expect(repo.read("I0001")).toBe(before);
    expect(loadPlan(repo.root).issues[0].status).toBe("READY");
  });

  // BUG (see the report): a failure to create the lock (here `.ai/local/state` is a file) escapes
  // as a plain Error instead of a refusal (§6.5 error mapping), so the CLI exits 13, not 15.
  it("a state folder that cannot be created is a refusal (CapabilityError), and nothing is written", async () => {
    const repo = makePlanRepo({ issues: [{ id: "I0001" }] });
    repo.write(".ai/local/state", "not a folder\n");
    const before = repo.read("I0001");
    let error: unknown;
    try {
      await transition(repo.root, "I0001", "start", clock(AT));
    } catch (e) {
      error = e;
    }
    expect(repo.read("I0001")).toBe(before);
    expect(error).toBeInstanceOf(CapabilityError);
    expect((error as CapabilityError).code).toBe("refused");
  });
});

// ---- adopt (§1.7 unsealed_stamps for a plan written before seals) --------------------------------

interface Stamp {
  issue: string;
  field: string;
  stamp: string;
}

const FIELDS = [
  ["started_at", "started_event"],
  ["verified_at", "verified_event"],
  ["completed_at", "completed_event"],
] as const;

/** Read every issue file directly (not through the loader) and classify its stamps. */
function classify(repo: PlanRepo): { adoptable: Stamp[]; late: Stamp[]; wrongSeal: Stamp[]; unreadable: string[] } {
  const out = { adoptable: [] as Stamp[], late: [] as Stamp[], wrongSeal: [] as Stamp[], unreadable: [] as string[] };
  const dir = repo.path(ISSUES);
  const ids = readdirSync(dir)
    .filter((n) => n.endsWith(".yaml"))
    .map((n) => n.slice(0, -5))
    .sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  for (const id of ids) {
    const name = `${id}.yaml`;
    const r = parseYaml(readFileSync(join(dir, name), "utf8"));
    if (!r.ok || !(r.value instanceof Map)) {
      out.unreadable.push(id);
      continue;
    }
    const m = r.value as YamlMap;
    const text = (k: string) => (typeof m.get(k) === "string" ? (m.get(k) as string) : "");
    const listed = Array.isArray(m.get("unsealed_stamps")) ? (m.get("unsealed_stamps") as string[]) : [];
    const events = { started_at: "plan_start", verified_at: "plan_verify", completed_at: "plan_done" } as const;
    for (const [field, seal] of FIELDS) {
      const stamp = text(field);
      if (stamp === "") continue;
      const s = { issue: id, field, stamp };
      if (text(seal) === sealOf(events[field], id, stamp)) continue;
      if (text(seal) !== "") out.wrongSeal.push(s);
      else if (stamp >= SEALED_FROM) out.late.push(s);
      else if (!listed.includes(`${field} ${stamp}`)) out.adoptable.push(s);
    }
  }
  return out;
}

function stampFindings(repo: PlanRepo): string[] {
  return loadPlan(repo.root)
    .findings.filter((f) => f.code === "stamp_without_event")
    .map((f) => `${f.subject} ${f.message.split(" ").slice(0, 2).join(" ")}`);
}

const key = (s: Stamp) => `${s.issue} ${s.field} ${s.stamp}`;

describe("adoptLegacyStamps on a copy of the majordomus corpus", () => {
  let repo: PlanRepo;
  let original: Map<string, string>;

  beforeAll(() => {
    repo = copyCorpus();
    const plant = (id: string, extra: string) => repo.writeIssue(id, issueYaml({ id, milestone: "development-runtime", extra }));
    plant("I9001", "started_at: 2026-10-02T08:00:00Z\n"); // after SEALED_FROM, unsealed
    plant("I9002", `started_at: ${SEALED_FROM}\nunsealed_stamps:\n  - started_at ${SEALED_FROM}\n`); // exactly SEALED_FROM, even listed
    plant("I9003", `started_at: 2026-09-10T00:00:00Z\nstarted_event: sha256:${"0".repeat(64)}\n`); // pre-seal, wrong seal
    plant("I9004", `started_at: 2026-09-10T00:00:00Z\nstarted_event: ${sealOf("plan_start", "I9003", "2026-09-10T00:00:00Z")}\n`); // another issue's seal
    plant("I9005", sealed("I9005", { start: "2026-09-11T00:00:00Z" }) + "completed_at: 2026-09-12T00:00:00Z\n" + evidence("proof")); // only completed_at
    plant("I9006", "started_at: 2026-09-11T00:00:00Z\nverified_at: 2026-09-11T01:00:00Z\nunsealed_stamps:\n  - started_at 2026-09-11T00:00:00Z\nupdated_at: 2026-09-11T01:00:00Z\n"); // partial list
    original = repo.snapshot();
  });

  it("the corpus copy is what the test expects: pre-seal stamps to adopt, and planted late / wrongly sealed ones", () => {
    const c = classify(repo);
    expect(c.adoptable.length).toBeGreaterThan(50);
    expect(c.late.map(key)).toEqual(["I9001 started_at 2026-10-02T08:00:00Z", `I9002 started_at ${SEALED_FROM}`]);
    expect(c.wrongSeal.map(key)).toEqual(["I9003 started_at 2026-09-10T00:00:00Z", "I9004 started_at 2026-09-10T00:00:00Z"]);
    // every one of them is a stamp_without_event finding now
    expect(stampFindings(repo).sort()).toEqual([...c.adoptable, ...c.late, ...c.wrongSeal].map((s) => `${s.issue} ${s.field} ${s.stamp}`).sort());
  });

  it("--dry-run lists exactly the pre-SEALED_FROM unsealed, unlisted stamps and writes nothing", async () => {
    const c = classify(repo);
    const r = await adoptLegacyStamps(repo.root, { dryRun: true, now: () => AT });
    expect(r.dry_run).toBe(true);
    const listed = r.adopted.flatMap((a) => a.stamps.map((s) => `${a.issue} ${s}`));
    expect(listed).toEqual(c.adoptable.map(key));
    expect(r.records).toBe(new Set(c.adoptable.map((s) => s.issue)).size);
    expect(r.stamps).toBe(c.adoptable.length);
    for (const s of listed) expect(s.split(" ")[2] < SEALED_FROM).toBe(true);
    expect(repo.snapshot()).toEqual(original);
    expect(repo.ledger()).toBeUndefined();
  });

  it("adopts them, one plan_adopt ledger line per record; records only gain lines and still parse", async () => {
    const c = classify(repo);
    const before = new Map(c.adoptable.map((s) => [s.issue, readFileSync(repo.issuePath(s.issue), "utf8")]));
    const r = await adoptLegacyStamps(repo.root, { now: () => AT });
    expect(r.dry_run).toBe(false);
    expect(r.adopted.flatMap((a) => a.stamps.map((s) => `${a.issue} ${s}`))).toEqual(c.adoptable.map(key));
    expect(r.adopted.map((a) => a.issue)).toEqual([...new Set(c.adoptable.map((s) => s.issue))]);
    expect(r.adopted.find((a) => a.issue === "I9005")?.stamps).toEqual(["completed_at 2026-09-12T00:00:00Z"]);
    expect(r.adopted.find((a) => a.issue === "I9006")?.stamps).toEqual(["verified_at 2026-09-11T01:00:00Z"]);

    const ledger = repo.ledgerLines();
    expect(ledger).toHaveLength(r.records);
    ledger.forEach((line, i) => {
      expect(Object.keys(line)).toEqual(["ts", "event", "head", "branch", "by", "issue", "stamps"]);
      expect(line).toMatchObject({ ts: AT, event: "plan_adopt", head: "NONE", branch: "main", issue: r.adopted[i].issue, stamps: r.adopted[i].stamps.join(", ") });
    });

    for (const a of r.adopted) {
      const old = before.get(a.issue)!.split("\n");
      const now = readFileSync(repo.issuePath(a.issue), "utf8");
      const parsedNow = parseYaml(now);
      expect(parsedNow.ok, a.issue).toBe(true);
      // old lines are kept in order; the only new lines are the list (and its key when it was missing)
      const added: string[] = [];
      let j = 0;
      for (const line of now.split("\n")) {
        if (j < old.length && line === old[j]) j++;
        else added.push(line);
      }
      expect(j, `${a.issue} kept every old line`).toBe(old.length);
      const expectedAdded = a.stamps.map((s) => `  - ${s}`);
      expect(added.filter((l) => l !== "unsealed_stamps:"), a.issue).toEqual(expectedAdded);
      const list = (parsedNow.ok && (parsedNow.value as YamlMap).get("unsealed_stamps")) as string[];
      for (const s of a.stamps) expect(list).toContain(s);
    }
    // nothing else changed
    const after = repo.snapshot();
    const changed = [...after.keys()].filter((k) => original.get(k) !== after.get(k)).sort();
    expect(changed).toEqual([LEDGER, ...r.adopted.map((a) => `${ISSUES}/${a.issue}.yaml`)].sort());
  });

  it("afterwards stamp_without_event names exactly the stamps at/after SEALED_FROM or with a wrong seal", () => {
    expect(stampFindings(repo).sort()).toEqual([
      "I9001 started_at 2026-10-02T08:00:00Z",
      `I9002 started_at ${SEALED_FROM}`,
      "I9003 started_at 2026-09-10T00:00:00Z",
      "I9004 started_at 2026-09-10T00:00:00Z",
    ]);
    // the records that did not parse before are the only unreadable ones after
    const unreadable = loadRecords(repo.root).loadFindings.filter((f) => f.code === "unreadable_record").map((f) => f.subject);
    expect(unreadable).toEqual(classify(repo).unreadable);
    expect(unreadable).toEqual(["I0823", "I1105", "I1108", "I1109", "I1111", "I2067"]);
  });

  it("a second run adopts nothing, writes nothing and appends no ledger line", async () => {
    const snap = repo.snapshot();
    const r = await adoptLegacyStamps(repo.root, { now: () => AT2 });
    expect(r).toEqual({ adopted: [], records: 0, stamps: 0, dry_run: false });
    expect(repo.snapshot()).toEqual(snap);
  });
});

describe("adopt edge cases", () => {
  it("a stamp already listed is not listed again; an inline list becomes a block list", async () => {
    const repo = makePlanRepo({
      issues: [{ id: "I0001", extra: "started_at: 2026-09-01T00:00:00Z\nverified_at: 2026-09-02T00:00:00Z\nunsealed_stamps: [started_at 2026-09-01T00:00:00Z]\n" }],
    });
    const r = await adoptLegacyStamps(repo.root, { now: () => AT });
    expect(r.adopted).toEqual([{ issue: "I0001", stamps: ["verified_at 2026-09-02T00:00:00Z"] }]);
    expect(loadRecords(repo.root).issues[0].unsealed_stamps).toEqual(["started_at 2026-09-01T00:00:00Z", "verified_at 2026-09-02T00:00:00Z"]);
    expect(loadPlan(repo.root).issues[0].status).toBe("VERIFY");
  });

  it("the same stamp text in two fields is listed once per field", async () => {
    const s = "2026-09-01T00:00:00Z";
    const repo = makePlanRepo({ issues: [{ id: "I0001", extra: `started_at: ${s}\nverified_at: ${s}\ncompleted_at: ${s}\n` + evidence("proof") }] });
    const r = await adoptLegacyStamps(repo.root, { now: () => AT });
    expect(r.adopted[0].stamps).toEqual([`started_at ${s}`, `verified_at ${s}`, `completed_at ${s}`]);
    expect(loadPlan(repo.root).issues[0].status).toBe("DONE");
    expect(repo.read("I0001")).toContain(`unsealed_stamps:\n  - started_at ${s}\n  - verified_at ${s}\n  - completed_at ${s}\nevidence:\n`);
  });

  // BUG (see the report): the `<` test is byte-wise, so a stamp written without the canonical `T…Z`
  // form on the day of SEALED_FROM sorts before it and is adopted although it is after it.
  it("never lists a stamp recorded on or after SEALED_FROM, even one not written in canonical form", async () => {
    const repo = makePlanRepo({
      issues: [
        { id: "I0001", extra: "started_at: 2026-10-01 09:30:00\n" },
        { id: "I0002", extra: "started_at: 2026-10-01\n" },
      ],
    });
    const r = await adoptLegacyStamps(repo.root, { dryRun: true });
    expect(r.adopted).toEqual([]);
  });
});
