// plan.create and plan.edit at the core: real files in temporary git repositories, the real corpus
// copied. The preview is checked against a derivation of the files as written.

import { afterAll, describe, expect, it } from "vitest";
import { CapabilityError } from "@/lib/plan/errors";
import { loadPlan } from "@/lib/repo";
import { diffPlans } from "@/lib/plan/plan-diff";
import { createRecord, editRecord, nextId, slugOf, type EditRequest } from "@/lib/repo/plan-edit";
import { recordVersion } from "@/lib/plan/records-with";
import { AT, cleanupRepos, copyCorpus, makePlanRepo } from "../support/repo";

afterAll(cleanupRepos);

const now = () => AT;

function repoWithTwo() {
  return makePlanRepo({
    milestones: [{ id: "M1", order: 1 }, { id: "M2", order: 2 }],
    issues: [{ id: "I0001" }, { id: "I0002", depends_on: ["I0001"] }],
    commit: true,
  });
}

async function failure(p: Promise<unknown>): Promise<CapabilityError> {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CapabilityError);
  return error as CapabilityError;
}

describe("plan.edit", () => {
  it("sets a field, writes only its line and updated_at, logs plan_record_edited, and previews the derived change", async () => {
    const repo = repoWithTwo();
    const before = repo.read("I0002");
    const r = await editRecord(repo.root, { id: "I0002", set: { priority: "p0" }, remove: { depends_on: ["I0001"] } }, { now });
    expect(r.written).toBe(true);
    expect(repo.read("I0002")).toBe(before.replace("priority: p1", "priority: p0").replace("depends_on: [I0001]", "depends_on: []").replace("created_at: 2026-10-01\n", `created_at: 2026-10-01\nupdated_at: ${AT}\n`));
    expect(r.previous_version).toBe(recordVersion(before));
    expect(r.version).toBe(recordVersion(repo.read("I0002")));
    // Issue 27: the preview's issue change is plan.changes's (id, title, milestone, from, to, wave, milestone_from, cause).
    expect(r.preview.issues).toMatchObject([{ id: "I0002", from: "BLOCKED", to: "READY", wave: { from: 1, to: 0 }, milestone_from: expect.any(String) }]);
    const line = repo.ledgerLines().at(-1)!;
    expect(line).toMatchObject({ event: "plan_record_edited", record: "I0002", kind: "issue", changes: "set priority=p0; remove depends_on=I0001", ts: AT });
  });

  it("a dry run previews the same and writes nothing", async () => {
    const repo = repoWithTwo();
    const snap = repo.snapshot();
    const r = await editRecord(repo.root, { id: "I0002", set: { cancelled: true }, dry_run: true }, { now });
    expect(r).toMatchObject({ written: false, dry_run: true });
    expect(r.preview.issues).toMatchObject([{ id: "I0002", from: "BLOCKED", to: "CANCELLED", cause: { kind: "cancelled" } }]);
    expect(repo.snapshot()).toEqual(snap);
  });

  it("refuses an edit that adds a FAIL finding, naming it, and writes nothing; allow_findings writes it", async () => {
    const repo = repoWithTwo();
    const snap = repo.snapshot();
    const request: EditRequest = { id: "I0001", add: { depends_on: ["I0002"] } };
    const e = await failure(editRecord(repo.root, request, { now }));
    expect(e.code).toBe("refused");
    expect(e.message).toMatch(/FAIL cycle/);
    expect(repo.snapshot()).toEqual(snap);
    const dry = await editRecord(repo.root, { ...request, dry_run: true }, { now });
    expect(dry.refused).toMatch(/FAIL cycle/);
    expect(dry.fail_findings.map((f) => f.code)).toContain("cycle");
    const forced = await editRecord(repo.root, { ...request, allow_findings: true }, { now });
    expect(forced.written).toBe(true);
    expect(loadPlan(repo.root).findings.some((f) => f.code === "cycle")).toBe(true);
  });

  it("refuses bad input with what is wrong, writing nothing", async () => {
    const repo = repoWithTwo();
    const snap = repo.snapshot();
    const cases: [EditRequest, RegExp][] = [
      [{ id: "I0001", set: { colour: "red" } }, /'colour' is not a field of an issue; the fields are/],
      [{ id: "I0001", set: { started_at: AT } }, /started_at is not edited here: stamps and seals/],
      [{ id: "I0001", add: { evidence: ["x"] } }, /evidence is recorded with cockpit plan evidence/],
      [{ id: "I0001", set: { parallel_safe: "maybe" } }, /parallel_safe is true or false/],
      [{ id: "I0001", set: { milestone: "M9" } }, /no milestone 'M9'/],
      [{ id: "I0001", set: { scope: "x" } }, /scope is a list; change its entries with add and remove/],
      [{ id: "I0001", add: { priority: ["p0"] } }, /priority holds one value/],
      [{ id: "I0001", unset: ["title"] }, /title is required/],
      [{ id: "I0001", remove: { scope: ["nope"] } }, /'nope' is not in scope/],
      [{ id: "I0001", add: { scope: ["src/I0001"] } }, /already in scope/],
      [{ id: "I0001", add: { serves: ["Not A Serve"] } }, /not a serves entry/],
      [{ id: "I0001" }, /nothing to change/],
      [{ id: "../M1", set: { title: "x" } }, /without path separators/],
      [{ id: "M1", set: { order: "first" } }, /order is a whole number/],
    ];
    for (const [request, message] of cases) {
      const e = await failure(editRecord(repo.root, request, { now }));
      expect(e.code, JSON.stringify(request)).toBe("invalid_input");
      expect(e.message).toMatch(message);
    }
    expect((await failure(editRecord(repo.root, { id: "I0404", set: { title: "x" } }))).code).toBe("not_found");
    expect(repo.snapshot()).toEqual(snap);
  });

  it("refuses an edit made against another version, with the current one, and writes nothing", async () => {
    const repo = repoWithTwo();
    const current = recordVersion(repo.read("I0001"));
    const e = await failure(editRecord(repo.root, { id: "I0001", set: { priority: "p0" }, if_version: "0123456789abcdef" }));
    expect(e.code).toBe("conflict");
    expect(e.details).toMatchObject({ id: "I0001", version: current, record: { issue: { id: "I0001", priority: "p1" } } });
    expect(recordVersion(repo.read("I0001"))).toBe(current);
    const ok = await editRecord(repo.root, { id: "I0001", set: { priority: "p0" }, if_version: current }, { now });
    expect(ok.written).toBe(true);
  });

  it("refuses to edit a corpus record that does not parse, saying so", async () => {
    const repo = copyCorpus();
    const plan = loadPlan(repo.root);
    const unreadable = plan.findings.filter((f) => f.code === "unreadable_record" && /does not parse/.test(f.message));
    expect(unreadable.length).toBeGreaterThan(0);
    const e = await failure(editRecord(repo.root, { id: unreadable[0].subject, set: { priority: "p0" } }));
    expect(e.code).toBe("refused");
    expect(e.message).toMatch(/does not parse.*fix the file by hand/);
  });
});

describe("the preview equals a derivation of the edited files", () => {
  it("for edits and a creation on the real corpus", async () => {
    const repo = copyCorpus();
    const plan = loadPlan(repo.root);
    const ready = plan.issues.find((i) => i.status === "READY")!;
    const blocked = plan.issues.find((i) => i.status === "BLOCKED" && i.depends_on.length > 0)!;
    const requests: EditRequest[] = [
      { id: ready.id, set: { cancelled: true } },
      { id: blocked.id, remove: { depends_on: [blocked.depends_on[0]] } },
      { id: ready.id, add: { depends_on: ["I9999"] }, allow_findings: true },
      { id: plan.milestones[0].id, set: { priority: "p3" }, add: { depends_on: [plan.milestones[1].id] }, allow_findings: true },
      { id: blocked.id, set: { milestone: plan.milestones[2].id }, add: { scope: ["apps"] }, allow_findings: true },
    ];
    for (const request of requests) {
      const before = loadPlan(repo.root);
      const r = await editRecord(repo.root, request, { now });
      expect(r.written).toBe(true);
      expect(r.preview, JSON.stringify(request)).toEqual(diffPlans(before, loadPlan(repo.root)));
      expect(r.preview.is_empty).toBe(false);
    }
    const before = loadPlan(repo.root);
    const created = await createRecord(
      repo.root,
      { kind: "issue", milestone: plan.milestones[0].id, title: "A new issue", add: { acceptance_criteria: ["it works"], validation: ["npm test"], scope: ["docs"] } },
      { now },
    );
    expect(created.preview).toEqual(diffPlans(before, loadPlan(repo.root)));
    // An issue added: from null (plan.changes's way of saying it).
    expect(created.preview.issues.find((i) => i.id === created.id)?.from).toBeNull();
  });
});

describe("plan.create", () => {
  it("mints the next id of the plan's pattern, writes the house key order and logs plan_record_created", async () => {
    const repo = repoWithTwo();
    const r = await createRecord(
      repo.root,
      { kind: "issue", milestone: "M2", title: "Ship the thing: now", add: { acceptance_criteria: ["shipped"], validation: ["true"], depends_on: ["I0002"] } },
      { now },
    );
    expect(r).toMatchObject({ id: "I0003", action: "created", written: true, path: ".ai/repo/project/issues/I0003.yaml" });
    expect(repo.read("I0003")).toBe(
      [
        "id: I0003",
        "milestone: M2",
        'title: "Ship the thing: now"',
        "slug: ship-the-thing-now",
        "depends_on:",
        "  - I0002",
        "acceptance_criteria:",
        "  - shipped",
        "validation:",
        '  - "true"',
        `created_at: ${AT}`,
        `updated_at: ${AT}`,
        "",
      ].join("\n"),
    );
    expect(repo.ledgerLines().at(-1)).toMatchObject({ event: "plan_record_created", record: "I0003", kind: "issue" });
    expect(loadPlan(repo.root).issues.find((i) => i.id === "I0003")?.status).toBe("BLOCKED");
  });

  it("refuses a new issue without acceptance criteria or validation, naming both failures", async () => {
    const repo = repoWithTwo();
    const snap = repo.snapshot();
    const e = await failure(createRecord(repo.root, { kind: "issue", milestone: "M1", title: "Placeholder" }, { now }));
    expect(e.code).toBe("refused");
    expect(e.message).toMatch(/no_acceptance/);
    expect(e.message).toMatch(/no_validation/);
    expect(repo.snapshot()).toEqual(snap);
  });

  it("refuses a milestone that does not exist, a taken id, an id with a path separator", async () => {
    const repo = repoWithTwo();
    const snap = repo.snapshot();
    for (const [request, message] of [
      [{ kind: "issue", milestone: "M9", title: "x" }, /no milestone 'M9'/],
      [{ kind: "issue", milestone: "M1", title: "x", id: "I0001" }, /already the id of a record/],
      [{ kind: "issue", milestone: "M1", title: "x", id: "M2" }, /already the id of a record/],
      [{ kind: "issue", milestone: "M1", title: "x", id: "a/b" }, /without path separators/],
      [{ kind: "issue", title: "x" }, /names its milestone/],
    ] as const) {
      const e = await failure(createRecord(repo.root, request as never, { now }));
      expect(e.code).toBe("invalid_input");
      expect(e.message).toMatch(message);
    }
    expect(repo.snapshot()).toEqual(snap);
  });

  it("creates a milestone named by the next number or, among slugs, by its title's slug", async () => {
    const repo = repoWithTwo();
    const r = await createRecord(
      repo.root,
      { kind: "milestone", title: "Third", set: { order: 3, priority: "p1", problem: "p", outcome: "o" }, add: { acceptance_criteria: ["a"], validation: ["v"], evidence_required: ["e"] } },
      { now },
    );
    expect(r.id).toBe("M3");
    expect(repo.read("M3")).toMatch(/^id: M3\ntitle: Third\nslug: third\norder: 3\npriority: p1\nproblem: p\noutcome: o\n/);
    expect(r.preview.milestones).toEqual([{ id: "M3", from: null, to: expect.any(String) }]);
  });
});

describe("ids and slugs", () => {
  it("follows the plan's own pattern", () => {
    expect(nextId(["I0001", "I0833", "I0100"], "I")).toBe("I0834");
    expect(nextId(["BK-001", "BK-033", "BK-010"], "I")).toBe("BK-034");
    expect(nextId(["I9", "I10"], "I")).toBe("I11");
    expect(nextId([], "I")).toBe("I0001");
    expect(nextId(["M000", "alpha", "beta", "gamma"], "M")).toBeUndefined();
    expect(slugOf("Ship the thing: now!")).toBe("ship-the-thing-now");
    expect(slugOf("Été à Paris")).toBe("ete-a-paris");
  });
});
