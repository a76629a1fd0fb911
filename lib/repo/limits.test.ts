import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { derivePlan } from "../plan/derive";
import { MAX_RECORD_BYTES, RecordCache, loadRecords, readRecordText } from "./load";
import { readRecordFileFields } from "./record-file";
import { MAX_ALIASES, MAX_RECORD_DEPTH, MAX_RECORD_VALUES, parseYaml } from "../plan/yaml";

const made: string[] = [];
afterEach(() => {
  while (made.length > 0) rmSync(made.pop()!, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "plan-limits-"));
  made.push(dir);
  return dir;
}

const P = ".ai/repo/project";

function repo(files: Record<string, string>): string {
  const dir = tempDir();
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}

const milestone = (id: string) => `id: ${id}\ntitle: Milestone ${id}\n`;
const issue = (id: string) => `id: ${id}\nmilestone: M1\ntitle: Issue ${id}\nscope: [src/${id}]\n`;

/** Eight levels of aliases, each repeating the one below ten times: 10^8 scope entries in 600 bytes. */
export function aliasBomb(id: string, levels = 8): string {
  const lines = [`id: ${id}`, "milestone: M1", "l0: &l0 [a, a, a, a, a, a, a, a, a, a]"];
  for (let i = 1; i <= levels; i++) lines.push(`l${i}: &l${i} [${Array(10).fill(`*l${i - 1}`).join(", ")}]`);
  lines.push(`scope: *l${levels}`);
  return lines.join("\n") + "\n";
}

/** The finding of the one unreadable record a load reports. */
function onlyFinding(dir: string, cache?: RecordCache) {
  const recs = loadRecords(dir, cache);
  expect(recs.loadFindings).toHaveLength(1);
  return { recs, finding: recs.loadFindings[0] };
}

describe("a record that expands beyond its limits is unreadable, and nothing walks its expansion", () => {
  it("the alias bomb is refused by the parser with the limit named", () => {
    const result = parseYaml(aliasBomb("I1"));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problem.isTooLarge).toBe(true);
    expect(result.problem.reason).toBe(
      `holds more than ${MAX_RECORD_VALUES} values once its aliases are expanded; a record may hold at most ${MAX_RECORD_VALUES}`,
    );
  });

  it(`${MAX_RECORD_VALUES} values are read, one more is refused (aliases counted as the copies they stand for)`, () => {
    // The root mapping, the list and its items.
    const items = (n: number) => `v: [${Array(n).fill("a").join(", ")}]\n`;
    expect(parseYaml(items(MAX_RECORD_VALUES - 2)).ok).toBe(true);
    expect(parseYaml(items(MAX_RECORD_VALUES - 1)).ok).toBe(false);
    // The root, `a` and its 9 items, the list `v`: 12; then 10 for each copy of `a`.
    const copies = (n: number) => `a: &a [${Array(9).fill("x").join(", ")}]\nv: [${Array(n).fill("*a").join(", ")}]\n`;
    expect(parseYaml(copies(998)).ok).toBe(true);
    expect(parseYaml(copies(999)).ok).toBe(false);
  });

  it(`a mapping shared by aliases is counted on every path: ${MAX_RECORD_VALUES / 10} copies of a 10-value mapping are refused`, () => {
    const entries = Array.from({ length: 9 }, (_, i) => `k${i}: v`).join(", ");
    const result = parseYaml(`m: &m {${entries}}\nv: [${Array(MAX_RECORD_VALUES / 10).fill("*m").join(", ")}]\n`);
    expect(result.ok).toBe(false);
  });

  it(`nesting deeper than ${MAX_RECORD_DEPTH} levels, as written or through aliases, is refused`, () => {
    const written = `v: ${"[".repeat(MAX_RECORD_DEPTH + 1)}${"]".repeat(MAX_RECORD_DEPTH + 1)}\n`;
    const direct = parseYaml(written);
    expect(direct.ok).toBe(false);
    if (!direct.ok) expect(direct.problem.reason).toContain(`at most ${MAX_RECORD_DEPTH}`);
    // Each level wraps the one below in 20 lists: 6 aliases reach 120 levels.
    const wrap = (inner: string) => `${"[".repeat(20)}${inner}${"]".repeat(20)}`;
    const lines = [`d0: &d0 ${wrap("x")}`];
    for (let i = 1; i <= 6; i++) lines.push(`d${i}: &d${i} ${wrap(`*d${i - 1}`)}`);
    const aliased = parseYaml(lines.join("\n") + "\n");
    expect(aliased.ok).toBe(false);
    if (!aliased.ok) expect(aliased.problem.reason).toBe(
      `nests deeper than ${MAX_RECORD_DEPTH} levels once its aliases are expanded; a record may nest at most ${MAX_RECORD_DEPTH}`,
    );
  });

  it(`more than ${MAX_ALIASES} aliases are refused as written`, () => {
    const result = parseYaml(`a: &a x\nv: [${Array(MAX_ALIASES + 1).fill("*a").join(", ")}]\n`);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problem.reason).toBe(`holds more than ${MAX_ALIASES} aliases; a record may hold at most ${MAX_ALIASES}`);
  });

  it("the bomb in an issue file is an unreadable_record naming the file and the limit; the rest of the plan is derived", () => {
    const files = { [`${P}/milestones/M1.yaml`]: milestone("M1"), [`${P}/issues/I1.yaml`]: issue("I1"), [`${P}/issues/I2.yaml`]: aliasBomb("I2") };
    for (const cache of [undefined, new RecordCache()]) {
      const { recs, finding } = onlyFinding(repo(files), cache);
      expect(finding).toEqual({
        level: "FAIL",
        code: "unreadable_record",
        subject: "I2",
        message: `${P}/issues/I2.yaml is too large to read: it holds more than ${MAX_RECORD_VALUES} values once its aliases are expanded; a record may hold at most ${MAX_RECORD_VALUES}`,
      });
      const plan = derivePlan(recs);
      expect(plan.issues.map((i) => [i.id, i.status])).toEqual([["I1", "READY"]]);
      expect(JSON.stringify(plan).length).toBeLessThan(100_000);
    }
  });

  it("a bomb under every key the loader walks (evidence, unknown keys, project.yaml) is refused the same way", () => {
    const bombBody = aliasBomb("x").split("\n").slice(2, 11).join("\n");
    const dir = repo({
      [`${P}/project.yaml`]: `name: P\n${bombBody}\n`,
      [`${P}/milestones/M1.yaml`]: `${milestone("M1")}${bombBody}\nevidence: *l8\n`,
    });
    const recs = loadRecords(dir);
    expect(recs.loadFindings.map((f) => [f.code, f.subject])).toEqual([
      ["unreadable_record", "PROJECT"],
      ["unreadable_record", "M1"],
    ]);
    expect(recs.loadFindings[0].message).toMatch(new RegExp(`^${P}/project.yaml is too large to read: .*at most ${MAX_RECORD_VALUES}$`));
  });
});

describe(`a record file larger than ${MAX_RECORD_BYTES} bytes is not read`, () => {
  it("a 50 MB record is an unreadable_record naming the file, its size and the limit", () => {
    const dir = repo({ [`${P}/milestones/M1.yaml`]: milestone("M1"), [`${P}/issues/I1.yaml`]: issue("I1"), [`${P}/issues/I2.yaml`]: issue("I2") });
    truncateSync(join(dir, `${P}/issues/I2.yaml`), 50 * 1024 * 1024);
    for (const cache of [undefined, new RecordCache()]) {
      const { recs, finding } = onlyFinding(dir, cache);
      expect(finding).toEqual({
        level: "FAIL",
        code: "unreadable_record",
        subject: "I2",
        message: `${P}/issues/I2.yaml is ${50 * 1024 * 1024} bytes, larger than ${MAX_RECORD_BYTES} bytes (1 MiB), the most a record file may be; it is not read`,
      });
      expect(recs.issues.map((i) => i.id)).toEqual(["I1"]);
    }
  });

  it("exactly 1 MiB is read; one byte more is not", () => {
    const head = issue("I1") + "objective: ";
    const exact = head + "x".repeat(MAX_RECORD_BYTES - head.length - 1) + "\n";
    expect(Buffer.byteLength(exact)).toBe(MAX_RECORD_BYTES);
    const dir = repo({ [`${P}/milestones/M1.yaml`]: milestone("M1"), [`${P}/issues/I1.yaml`]: exact });
    expect(loadRecords(dir).loadFindings).toEqual([]);
    writeFileSync(join(dir, `${P}/issues/I1.yaml`), exact + "\n");
    expect(onlyFinding(dir).finding.message).toContain(`is ${MAX_RECORD_BYTES + 1} bytes, larger than`);
  });

  it("the issue page's field reader refuses what the loader refuses", () => {
    const dir = repo({ [`${P}/issues/I1.yaml`]: issue("I1"), [`${P}/issues/I2.yaml`]: aliasBomb("I2"), [`${P}/issues/I3.yaml`]: issue("I3") });
    truncateSync(join(dir, `${P}/issues/I3.yaml`), MAX_RECORD_BYTES + 1);
    expect(readRecordFileFields(dir, "issue", "I1")?.fields?.map(([k]) => k)).toEqual(["id", "milestone", "title", "scope"]);
    expect(readRecordFileFields(dir, "issue", "I2")?.fields).toBeUndefined();
    expect(readRecordFileFields(dir, "issue", "I3")).toBeUndefined();
  });
});

describe("a record file that is a symbolic link is followed only inside the repository", () => {
  it("a link to a file outside the repository is an unreadable_record and is not read; one inside is followed", () => {
    const outside = tempDir();
    writeFileSync(join(outside, "I9.yaml"), issue("I2"));
    const dir = repo({
      [`${P}/milestones/M1.yaml`]: milestone("M1"),
      [`${P}/issues/I1.yaml`]: issue("I1"),
      "elsewhere/I3.yaml": issue("I3"),
    });
    symlinkSync(join(outside, "I9.yaml"), join(dir, `${P}/issues/I2.yaml`));
    symlinkSync("../../../../elsewhere/I3.yaml", join(dir, `${P}/issues/I3.yaml`));
    for (const cache of [undefined, new RecordCache()]) {
      const { recs, finding } = onlyFinding(dir, cache);
      expect(finding).toEqual({
        level: "FAIL",
        code: "unreadable_record",
        subject: "I2",
        message: `${P}/issues/I2.yaml is a symbolic link that leads outside the repository; it is not followed`,
      });
      expect(recs.issues.map((i) => i.id)).toEqual(["I1", "I3"]);
    }
    expect(readRecordText(join(dir, `${P}/issues/I2.yaml`), dir)).toEqual({
      refused: "is a symbolic link that leads outside the repository; it is not followed",
    });
    expect(readRecordFileFields(dir, "issue", "I2")).toBeUndefined();
  });

  it("a link through the repository's own link is judged by real paths", () => {
    const base = tempDir();
    const real = join(base, "real");
    mkdirSync(join(real, P, "issues"), { recursive: true });
    writeFileSync(join(real, P, "issues", "I1.yaml"), issue("I1"));
    writeFileSync(join(real, "I2.yaml"), issue("I2"));
    symlinkSync(join(real, "I2.yaml"), join(real, P, "issues", "I2.yaml"));
    symlinkSync(real, join(base, "alias"));
    const recs = loadRecords(join(base, "alias"));
    expect(recs.loadFindings).toEqual([]);
    expect(recs.issues.map((i) => i.id)).toEqual(["I1", "I2"]);
  });

  it("with a cache, a refusal is remembered: the same one changes nothing, another reason or a fixed file is a change", () => {
    const outside = tempDir();
    writeFileSync(join(outside, "I2.yaml"), issue("I2"));
    const dir = repo({ [`${P}/milestones/M1.yaml`]: milestone("M1"), [`${P}/issues/I1.yaml`]: issue("I1"), [`${P}/issues/I2.yaml`]: issue("I2") });
    const path = join(dir, `${P}/issues/I2.yaml`);
    truncateSync(path, MAX_RECORD_BYTES + 1);
    const cache = new RecordCache();
    expect(onlyFinding(dir, cache).finding.message).toContain("larger than");
    const version = cache.version;
    expect(onlyFinding(dir, cache).finding.message).toContain("larger than");
    expect(cache.version).toBe(version);
    rmSync(path);
    symlinkSync(join(outside, "I2.yaml"), path);
    expect(onlyFinding(dir, cache).finding.message).toContain("leads outside the repository");
    expect(cache.version).toBeGreaterThan(version);
    rmSync(path);
    writeFileSync(path, issue("I2"));
    const recs = loadRecords(dir, cache);
    expect(recs.loadFindings).toEqual([]);
    expect(recs.issues.map((i) => i.id)).toEqual(["I1", "I2"]);
  });

  it("a record path that is not a regular file (a folder, a named pipe) is unreadable, and never opened", () => {
    const dir = repo({ [`${P}/issues/I1.yaml`]: issue("I1") });
    mkdirSync(join(dir, `${P}/issues/I2.yaml`));
    execFileSync("mkfifo", [join(dir, `${P}/issues/I3.yaml`)]);
    const recs = loadRecords(dir);
    expect(recs.loadFindings.map((f) => [f.subject, f.message])).toEqual([
      ["I2", `${P}/issues/I2.yaml is not a regular file`],
      ["I3", `${P}/issues/I3.yaml is not a regular file`],
    ]);
  });
});
