import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { derivePlan } from "../plan/derive";
import { RACY_MS, RecordCache, loadRecords } from "./load";
import { fail } from "@/tests/support/records";

const made: string[] = [];
afterEach(() => {
  while (made.length > 0) rmSync(made.pop()!, { recursive: true, force: true });
});

function repo(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), "plan-load-"));
  made.push(dir);
  for (const [rel, text] of Object.entries(files)) {
    const path = join(dir, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
  return dir;
}

const P = ".ai/repo/project";
const issuePath = (id: string) => `${P}/issues/${id}.yaml`;
const milestonePath = (id: string) => `${P}/milestones/${id}.yaml`;

const PROJECT = "schema_version: 1\nname: Demo\nrepository: o/demo\ndefault_branch: master\n";

function milestoneYaml(id: string, extra = ""): string {
  return [
    `id: ${id}`,
    `title: Milestone ${id}`,
    `slug: ${id.toLowerCase()}`,
    "order: 1",
    "priority: p0",
    "problem: p",
    "outcome: o",
    "acceptance_criteria: [a]",
    "validation: [v]",
    "evidence_required: []",
    extra,
  ].join("\n");
}

function issueYaml(id: string, extra = "", milestone = "M1"): string {
  return [
    `id: ${id}`,
    `milestone: ${milestone}`,
    `title: Issue ${id}`,
    `slug: ${id.toLowerCase()}`,
    "priority: p1",
    "profile: implementation",
    "objective: do it",
    `scope: [src/${id}]`,
    "acceptance_criteria: [works]",
    'validation: ["true"]',
    "evidence_required: [proof]",
    extra,
  ].join("\n");
}

describe("§1.1 loading from the directory", () => {
  it("no project directory is an empty plan, not an error", () => {
    const dir = repo();
    const recs = loadRecords(dir);
    expect(recs).toEqual({
      project: { name: "", repository: "", default_branch: "" },
      milestones: [],
      issues: [],
      loadFindings: [],
    });
    const plan = derivePlan(recs);
    expect(plan.project).toEqual({ name: "", repository: "", default_branch: "", active_milestone: "" });
    expect(plan.milestones).toEqual([]);
    expect(plan.issues).toEqual([]);
    expect(plan.findings).toEqual([]);
  });

  it("milestones and issues are read without project.yaml; the header stays empty", () => {
    const dir = repo({ [milestonePath("M1")]: milestoneYaml("M1"), [issuePath("I1")]: issueYaml("I1") });
    const recs = loadRecords(dir);
    expect(recs.project).toEqual({ name: "", repository: "", default_branch: "" });
    expect(recs.milestones.map((m) => m.id)).toEqual(["M1"]);
    expect(recs.issues.map((i) => i.id)).toEqual(["I1"]);
  });

  it("project.yaml gives name, repository and default_branch", () => {
    const dir = repo({ [`${P}/project.yaml`]: PROJECT });
    expect(loadRecords(dir).project).toEqual({ name: "Demo", repository: "o/demo", default_branch: "master" });
  });

  it("files are processed in byte-wise order of id: I10 before I2, uppercase before lowercase", () => {
    const dir = repo({
      [milestonePath("M1")]: milestoneYaml("M1"),
      [issuePath("I2")]: issueYaml("I2"),
      [issuePath("a1")]: issueYaml("a1"),
      [issuePath("I10")]: issueYaml("I10"),
      [issuePath("B1")]: issueYaml("B1"),
    });
    const recs = loadRecords(dir);
    expect(recs.issues.map((i) => i.id)).toEqual(["B1", "I10", "I2", "a1"]);
    expect(derivePlan(recs).issues.map((i) => i.id)).toEqual(["B1", "I10", "I2", "a1"]);
  });

  it("byte order, not UTF-16 order: a name with a character beyond U+FFFF sorts after one with U+E000-U+FFFF", () => {
    // UTF-16 puts the surrogate pair (D83D…) before U+FF21; UTF-8 bytes put F0… after EF….
    const astral = "I\u{1F600}";
    const fullwidth = "I\uFF21";
    const dir = repo({
      [milestonePath("M1")]: milestoneYaml("M1"),
      [issuePath(astral)]: issueYaml(astral),
      [issuePath(fullwidth)]: issueYaml(fullwidth),
      [issuePath("I1")]: issueYaml("I1"),
    });
    expect(loadRecords(dir).issues.map((i) => i.id)).toEqual(["I1", fullwidth, astral]);
  });

  it("with a cache, an unchanged file hands back the same record; a changed one is read again", () => {
    const dir = repo({
      [milestonePath("M1")]: milestoneYaml("M1"),
      [issuePath("I1")]: issueYaml("I1", "owner: x"),
      [issuePath("I2")]: issueYaml("I2"),
    });
    const cache = new RecordCache();
    const first = loadRecords(dir, cache);
    const version = cache.version;
    const again = loadRecords(dir, cache);
    expect(cache.version).toBe(version);
    expect(again.issues[0]).toBe(first.issues[0]);
    expect(again.milestones[0]).toBe(first.milestones[0]);
    expect(again.loadFindings).toEqual(first.loadFindings);

    writeFileSync(join(dir, issuePath("I1")), issueYaml("I1", "unknown_thing: 1", "M2"));
    const changed = loadRecords(dir, cache);
    expect(cache.version).toBeGreaterThan(version);
    expect(changed.issues[0]).not.toBe(first.issues[0]);
    expect(changed.issues[0].milestone).toBe("M2");
    expect(changed.issues[1]).toBe(first.issues[1]);
    expect(changed.loadFindings).toEqual([fail("schema", "I1", "unknown keys: unknown_thing")]);

    rmSync(join(dir, issuePath("I2")));
    expect(loadRecords(dir, cache).issues.map((i) => i.id)).toEqual(["I1"]);
  });

  it("a file changed again within its clock tick (same size, inode and times) is still seen", () => {
    // Linux stamps files with a coarse clock: two writes a millisecond apart can leave the same
    // stat. The cache compares the bytes of a recently modified file instead of trusting its stat.
    const dir = repo({ [issuePath("I1")]: issueYaml("I1", "", "M1") });
    const path = join(dir, issuePath("I1"));
    const cache = new RecordCache();
    const now = Date.now();
    const milestoneOf = (p: ReturnType<RecordCache["read"]>) => (p.ok ? p.map.get("milestone") : undefined);
    const same = { ino: 1, size: 100, mtimeMs: now, ctimeMs: now };
    expect(milestoneOf(cache.read(path, same, now))).toBe("M1");
    writeFileSync(path, issueYaml("I1", "", "M2"));
    expect(milestoneOf(cache.read(path, { ...same }, now + 1))).toBe("M2");
    // Unchanged bytes: the parse is kept; once the file is older than RACY_MS its stat is trusted.
    const kept = cache.read(path, { ...same }, now + RACY_MS);
    expect(milestoneOf(kept)).toBe("M2");
    writeFileSync(path, issueYaml("I1", "", "M3"));
    expect(cache.read(path, { ...same }, now + RACY_MS + 1)).toBe(kept);
    const later = now + RACY_MS + 1;
    expect(milestoneOf(cache.read(path, { ...same, mtimeMs: later, ctimeMs: later }, later))).toBe("M3");
  });

  it("load findings come in file order: project, then milestones, then issues, each in byte order", () => {
    const dir = repo({
      [`${P}/project.yaml`]: PROJECT + "status: x\n",
      [milestonePath("Mb")]: milestoneYaml("Mb", "zz: 1"),
      [milestonePath("MA")]: milestoneYaml("MA", "yy: 1"),
      [issuePath("I2")]: issueYaml("I2", "status: READY", "MA"),
      [issuePath("I10")]: issueYaml("I10", "status: READY", "MA"),
    });
    const recs = loadRecords(dir);
    expect(recs.loadFindings.map((f) => f.subject)).toEqual(["PROJECT", "MA", "Mb", "I10", "I2"]);
  });
});

describe("§1.1 load errors become unreadable_record findings", () => {
  it("a file that does not parse: FAIL naming its relative path and the line/column; the record is dropped", () => {
    const bad = `id: I1\nmilestone: M1\ntitle: [unclosed\nslug: s\n`;
    const dir = repo({ [milestonePath("M1")]: milestoneYaml("M1"), [issuePath("I1")]: bad, [issuePath("I2")]: issueYaml("I2") });
    const recs = loadRecords(dir);
    expect(recs.issues.map((i) => i.id)).toEqual(["I2"]);
    expect(recs.loadFindings).toHaveLength(1);
    const f = recs.loadFindings[0];
    expect(f.level).toBe("FAIL");
    expect(f.code).toBe("unreadable_record");
    expect(f.subject).toBe("I1");
    expect(f.message.startsWith(`${P}/issues/I1.yaml `)).toBe(true);
    expect(f.message).toContain("does not parse");
    expect(f.message).toMatch(/line \d+, column \d+/);
  });

  it("a duplicate key is a parse failure naming the line of the second occurrence", () => {
    const text = issueYaml("I1") + "\npriority: p0\n";
    const dir = repo({ [milestonePath("M1")]: milestoneYaml("M1"), [issuePath("I1")]: text });
    const recs = loadRecords(dir);
    expect(recs.issues).toEqual([]);
    expect(recs.loadFindings).toHaveLength(1);
    const f = recs.loadFindings[0];
    expect(f.code).toBe("unreadable_record");
    expect(f.subject).toBe("I1");
    expect(f.message.startsWith(`${P}/issues/I1.yaml `)).toBe(true);
    const secondLine = text.split("\n").findIndex((l, i) => i > 4 && l.startsWith("priority:")) + 1;
    expect(f.message).toMatch(new RegExp(`line ${secondLine}, column \\d+`));
  });

  it("a file that is not a mapping (a list, a scalar, empty) is unreadable", () => {
    const dir = repo({
      [milestonePath("M1")]: "- a\n- b\n",
      [milestonePath("M2")]: "just text\n",
      [milestonePath("M3")]: "",
    });
    const recs = loadRecords(dir);
    expect(recs.milestones).toEqual([]);
    expect(recs.loadFindings.map((f) => [f.level, f.code, f.subject])).toEqual([
      ["FAIL", "unreadable_record", "M1"],
      ["FAIL", "unreadable_record", "M2"],
      ["FAIL", "unreadable_record", "M3"],
    ]);
    expect(recs.loadFindings[0].message.startsWith(`${P}/milestones/M1.yaml `)).toBe(true);
    expect(recs.loadFindings[1].message.startsWith(`${P}/milestones/M2.yaml `)).toBe(true);
  });

  it("an id that disagrees with the file name is a load error: \"<file> declares id '<x>' but its filename says <id>\"", () => {
    const dir = repo({ [milestonePath("M1")]: milestoneYaml("M1"), [issuePath("I1")]: issueYaml("I9") });
    const recs = loadRecords(dir);
    expect(recs.issues).toEqual([]);
    expect(recs.loadFindings).toHaveLength(1);
    expect(recs.loadFindings[0].code).toBe("unreadable_record");
    expect(recs.loadFindings[0].subject).toBe("I1");
    expect(recs.loadFindings[0].message).toBe(`${P}/issues/I1.yaml declares id 'I9' but its filename says I1`);
  });

  it("an issue reusing a milestone id is a load error: \"duplicate id <id> (<file>)\"", () => {
    const dir = repo({ [milestonePath("X1")]: milestoneYaml("X1"), [issuePath("X1")]: issueYaml("X1", "", "X1") });
    const recs = loadRecords(dir);
    expect(recs.milestones.map((m) => m.id)).toEqual(["X1"]);
    expect(recs.issues).toEqual([]);
    expect(recs.loadFindings).toHaveLength(1);
    expect(recs.loadFindings[0].code).toBe("unreadable_record");
    expect(recs.loadFindings[0].subject).toBe("X1");
    expect(recs.loadFindings[0].message).toContain(`${P}/issues/X1.yaml`);
    expect(recs.loadFindings[0].message).toContain("duplicate id X1");
  });

  it("load findings lead the derived plan's findings", () => {
    const dir = repo({ [issuePath("I1")]: "- not\n- a mapping\n", [issuePath("I2")]: issueYaml("I2", "", "") });
    const plan = derivePlan(loadRecords(dir));
    expect(plan.findings.map((f) => f.code)).toEqual(["unreadable_record", "no_milestone"]);
  });
});

describe("§4 shell-only schema finding: unknown keys", () => {
  it("one FAIL per record, code schema, subject the id, 'unknown keys: <k1 k2>' with flattened keys in file order", () => {
    const extra = [
      "status: READY",
      "meta:",
      "  a: 1",
      "  b: [x, y]",
      "evidence:",
      "  - covers: proof",
      "    note: n",
      "acceptance_criteria_extra: z",
    ].join("\n");
    const dir = repo({ [milestonePath("M1")]: milestoneYaml("M1"), [issuePath("I1")]: issueYaml("I1", extra) });
    const recs = loadRecords(dir);
    expect(recs.loadFindings).toEqual([
      fail("schema", "I1", "unknown keys: status meta.a meta.b.0 meta.b.1 evidence.0.note acceptance_criteria_extra"),
    ]);
    // the record itself still loads
    expect(recs.issues.map((i) => i.id)).toEqual(["I1"]);
    expect(recs.issues[0].covers).toEqual(["proof"]);
  });

  it("an empty list or mapping gives no key; a null gives its key", () => {
    const dir = repo({
      [milestonePath("M1")]: milestoneYaml("M1"),
      [issuePath("I1")]: issueYaml("I1", "emptylist: []\nemptymap: {}\nnothing:\nalso: ~"),
    });
    expect(loadRecords(dir).loadFindings).toEqual([fail("schema", "I1", "unknown keys: nothing also")]);
  });

  it("every position of a list is checked, and an unknown key names its own position", () => {
    const evidence = [
      "evidence:",
      "  - covers: proof",
      "    type: test",
      "  - covers: proof",
      "    bogus: 1",
      "  - - nested",
      "  - type: [a, b]",
      "scope:",
      "  - a",
      "  - odd: key",
      "'scope.7': literal dotted key",
      "'evidence.2.covers': also literal",
    ].join("\n");
    const dir = repo({
      [milestonePath("M1")]: milestoneYaml("M1"),
      [issuePath("I1")]: issueYaml("I1", "").replace(/^scope: .*$/m, "") + evidence,
      [issuePath("I2")]: issueYaml("I2", "evidence:\n  - bogus: 2\n  - covers: x"),
    });
    expect(loadRecords(dir).loadFindings).toEqual([
      fail("schema", "I1", "unknown keys: evidence.1.bogus evidence.2.0 evidence.3.type.0 evidence.3.type.1 scope.1.odd"),
      fail("schema", "I2", "unknown keys: evidence.0.bogus"),
    ]);
  });

  it("project.yaml unknown keys have subject PROJECT", () => {
    const dir = repo({ [`${P}/project.yaml`]: PROJECT + "active_milestone: M1\nstatuses: [A]\n" });
    expect(loadRecords(dir).loadFindings).toEqual([fail("schema", "PROJECT", "unknown keys: active_milestone statuses.0")]);
  });

  it("a milestone's unknown keys have the milestone id as subject", () => {
    const dir = repo({ [milestonePath("M1")]: milestoneYaml("M1", "issues: [I1]") });
    expect(loadRecords(dir).loadFindings).toEqual([fail("schema", "M1", "unknown keys: issues.0")]);
  });

  it("serves, seal fields and unsealed_stamps are allowed issue keys", () => {
    const extra = [
      "serves:",
      '  - "intent-a#c1"',
      "started_at: 2026-09-05T02:06:00Z",
      "started_event: sha256:00",
      "verified_at: 2026-09-05T02:06:00Z",
      "verified_event: sha256:00",
      "completed_at: 2026-09-05T02:06:00Z",
      "completed_event: sha256:00",
      "unsealed_stamps:",
      "  - started_at 2026-09-05T02:06:00Z",
    ].join("\n");
    const dir = repo({ [milestonePath("M1")]: milestoneYaml("M1"), [issuePath("I1")]: issueYaml("I1", extra) });
    const recs = loadRecords(dir);
    expect(recs.loadFindings).toEqual([]);
    expect(recs.issues[0].serves).toEqual(["intent-a#c1"]);
    expect(derivePlan(recs).issues[0].serves).toEqual(["intent-a#c1"]);
    expect(recs.issues[0].unsealed_stamps).toEqual(["started_at 2026-09-05T02:06:00Z"]);
  });

  it("a status field is an unknown key", () => {
    const dir = repo({ [milestonePath("M1")]: milestoneYaml("M1"), [issuePath("I1")]: issueYaml("I1", "status: DONE") });
    expect(loadRecords(dir).loadFindings).toEqual([fail("schema", "I1", "unknown keys: status")]);
  });
});

describe("§1.2 normalisation of loaded values", () => {
  it("a null list is empty; a scalar where a list is expected is a one-item list, even \"\"", () => {
    const text = [
      "id: I1",
      "milestone: M1",
      "title: t",
      "slug: s",
      "priority: p1",
      "profile: implementation",
      "objective: o",
      'scope: ""',
      "depends_on:",
      "acceptance_criteria: just one",
      "validation: ~",
      "evidence_required: proof",
    ].join("\n");
    const dir = repo({ [milestonePath("M1")]: milestoneYaml("M1"), [issuePath("I1")]: text });
    const issue = loadRecords(dir).issues[0];
    expect(issue.scope).toEqual([""]);
    expect(issue.depends_on).toEqual([]);
    expect(issue.evidence_required).toEqual(["proof"]);
    expect(issue.acceptance_count).toBe(1);
    expect(issue.validation_count).toBe(0);
  });

  it("scope: apps/ equals scope: [apps/]", () => {
    const dir = repo({
      [milestonePath("M1")]: milestoneYaml("M1"),
      [issuePath("I1")]: issueYaml("I1").replace("scope: [src/I1]", "scope: apps/"),
    });
    expect(loadRecords(dir).issues[0].scope).toEqual(["apps/"]);
  });

  it("titles have every TAB replaced by a space", () => {
    const dir = repo({
      [milestonePath("M1")]: milestoneYaml("M1").replace("title: Milestone M1", 'title: "a\\tb\\tc"'),
      [issuePath("I1")]: issueYaml("I1").replace("title: Issue I1", 'title: "x\\ty"'),
    });
    const recs = loadRecords(dir);
    expect(recs.milestones[0].title).toBe("a b c");
    expect(recs.issues[0].title).toBe("x y");
  });

  it("booleans by text: cancelled iff exactly true; parallel_safe false iff exactly false", () => {
    const dir = repo({
      [milestonePath("M1")]: milestoneYaml("M1", "cancelled: True"),
      [milestonePath("M2")]: milestoneYaml("M2", 'cancelled: "yes"'),
      [issuePath("I1")]: issueYaml("I1", "cancelled: true\nparallel_safe: false"),
      [issuePath("I2")]: issueYaml("I2", 'cancelled: "TRUE"\nparallel_safe: "no"'),
      [issuePath("I3")]: issueYaml("I3"),
    });
    const recs = loadRecords(dir);
    expect(recs.milestones.map((m) => m.cancelled)).toEqual([true, false]);
    expect(recs.issues.map((i) => [i.cancelled, i.parallel_safe])).toEqual([
      [true, false],
      [false, true],
      [false, true],
    ]);
  });

  it("order: a trimmed signed integer, anything else 0", () => {
    const dir = repo({
      [milestonePath("M1")]: milestoneYaml("M1").replace("order: 1", 'order: " -7 "'),
      [milestonePath("M2")]: milestoneYaml("M2").replace("order: 1", "order: 3x"),
      [milestonePath("M3")]: milestoneYaml("M3").replace("order: 1", "order: 1.5"),
      [milestonePath("M4")]: milestoneYaml("M4").replace("order: 1", "order: 0x10"),
      [milestonePath("M5")]: milestoneYaml("M5").replace("order: 1\n", ""),
    });
    expect(loadRecords(dir).milestones.map((m) => m.order)).toEqual([-7, 0, 0, 16, 0]);
  });

  it("evidence covers: every entry with a covers key, in file order, duplicates kept; entries without covers ignored", () => {
    const extra = [
      "evidence:",
      "  - covers: b",
      "    type: test",
      "  - type: manual",
      "  - covers: a",
      "  - covers: b",
    ].join("\n");
    const dir = repo({
      [milestonePath("M1")]: milestoneYaml("M1"),
      [issuePath("I1")]: issueYaml("I1", extra).replace("evidence_required: [proof]", "evidence_required: [a, b]"),
    });
    const recs = loadRecords(dir);
    expect(recs.issues[0].covers).toEqual(["b", "a", "b"]);
    const issue = derivePlan(recs).issues[0];
    expect(issue.evidence_have).toBe(3);
    expect(issue.evidence_need).toBe(2);
  });

  it("a milestone's own evidence covers its evidence_required", () => {
    const dir = repo({
      [milestonePath("M1")]: milestoneYaml("M1", "evidence:\n  - covers: demo\n    type: manual").replace(
        "evidence_required: []",
        "evidence_required: [demo]",
      ),
    });
    const plan = derivePlan(loadRecords(dir));
    expect(plan.milestones[0].status).toBe("DONE");
  });

  it("numbers are read as text: version 0.6, priority 1, depends_on [10]", () => {
    const dir = repo({
      [milestonePath("M1")]: milestoneYaml("M1", "version: 0.6"),
      [issuePath("I1")]: issueYaml("I1", "depends_on: [10]").replace("priority: p1", "priority: 1"),
    });
    const recs = loadRecords(dir);
    expect(recs.milestones[0].version).toBe("0.6");
    expect(recs.issues[0].priority).toBe("1");
    expect(recs.issues[0].depends_on).toEqual(["10"]);
  });

  it("plain scalars are typed by the YAML 1.2 core schema: leading zeros are decimal, signed hex and 0b are text", () => {
    const dir = repo({
      [milestonePath("M1")]: milestoneYaml("M1", "version: .NaN").replace("order: 1", "order: 010"),
      [milestonePath("M2")]: milestoneYaml("M2").replace("order: 1", "order: -007"),
      [issuePath("I1")]: issueYaml("I1", "depends_on: [010, -007, +010, 00, 0o17, 0x1A, -0x1A, +0o17, 0b101, '010']").replace(
        "priority: p1",
        "priority: +.inf",
      ),
      [issuePath("I2")]: issueYaml("I2", "depends_on: [yes, no, on, off, 1:20, =, 2026-09-11, ~]"),
    });
    const recs = loadRecords(dir);
    expect(recs.milestones.map((m) => [m.order, m.version])).toEqual([
      [10, ".NaN"],
      [-7, ""],
    ]);
    expect(recs.issues[0].priority).toBe("+.inf");
    expect(recs.issues[0].depends_on).toEqual(["10", "-7", "10", "0", "15", "26", "-0x1A", "+0o17", "0b101", "010"]);
    expect(recs.issues[1].depends_on).toEqual(["yes", "no", "on", "off", "1:20", "=", "2026-09-11", ""]);
  });

  it("an id written 010 reads as 10, so a file 010.yaml declaring it unquoted disagrees with its name", () => {
    const dir = repo({
      [milestonePath("M1")]: milestoneYaml("M1"),
      [issuePath("010")]: issueYaml("010"),
      [issuePath("011")]: issueYaml("011").replace("id: 011", 'id: "011"'),
    });
    const recs = loadRecords(dir);
    expect(recs.issues.map((i) => i.id)).toEqual(["011"]);
    expect(recs.loadFindings).toEqual([
      fail("unreadable_record", "010", `${P}/issues/010.yaml declares id '10' but its filename says 010`),
    ]);
  });

  it("stamps are kept as raw text", () => {
    const dir = repo({
      [milestonePath("M1")]: milestoneYaml("M1"),
      [issuePath("I1")]: issueYaml("I1", "started_at: 2026-10-05T10:00:00Z"),
    });
    const plan = derivePlan(loadRecords(dir));
    expect(plan.issues[0].started_at).toBe("2026-10-05T10:00:00Z");
    expect(plan.issues[0].status).toBe("READY");
  });

  it("a realistic record set derives end to end", () => {
    const dir = repo({
      [`${P}/project.yaml`]: PROJECT,
      [milestonePath("M1")]: milestoneYaml("M1"),
      [issuePath("I0001")]: issueYaml("I0001"),
      [issuePath("I0002")]: issueYaml("I0002", "depends_on:\n  - I0001"),
    });
    const plan = derivePlan(loadRecords(dir));
    expect(plan.project).toEqual({ name: "Demo", repository: "o/demo", default_branch: "master", active_milestone: "M1" });
    expect(plan.issues.map((i) => [i.id, i.status, i.wave])).toEqual([
      ["I0001", "READY", 0],
      ["I0002", "BLOCKED", 1],
    ]);
    expect(plan.findings).toEqual([]);
  });
});
