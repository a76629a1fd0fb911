import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { parse } from "yaml";
import { afterAll, describe, expect, it } from "vitest";
import { ISSUE_STATUSES, MILESTONE_STATUSES } from "@/lib/plan/constants";
import { loadPlan, loadRecords } from "@/lib/repo";
import { sealOf } from "@/lib/plan/seal";
import { runGit } from "./support/git";

// The bundled demo plan (examples/demo, written by scripts/make-demo.mjs) must keep showing what
// its README promises: every status, the milestone gate, several waves, a scope conflict, and
// only sealed stamps.

const root = join(__dirname, "..");
const demo = join(root, "examples/demo");
const plan = loadPlan(demo);

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

describe("the demo plan", () => {
  it("has a project header, 7 milestones and 28-36 issues", () => {
    expect(plan.project.name).toBe("Harbor Bookings");
    expect(plan.milestones).toHaveLength(7);
    expect(plan.issues.length).toBeGreaterThanOrEqual(28);
    expect(plan.issues.length).toBeLessThanOrEqual(36);
  });

  it("shows every issue status", () => {
    const seen = new Set(plan.issues.map((i) => i.status));
    for (const s of ISSUE_STATUSES) expect(seen, `no issue is ${s}`).toContain(s);
  });

  it("shows every milestone status", () => {
    const seen = new Set(plan.milestones.map((m) => m.status));
    for (const s of MILESTONE_STATUSES) expect(seen, `no milestone is ${s}`).toContain(s);
  });

  it("gates a milestone on an unfinished one, and the gate reaches its issues", () => {
    const gated = plan.milestones.filter((m) => m.blocked_by.length > 0 && m.status === "BLOCKED");
    expect(gated.map((m) => m.id)).toContain("payments");
    const gatedIssues = plan.issues.filter((i) => i.status === "BLOCKED" && i.blocked_by.some((b) => b.startsWith("milestone:")));
    expect(gatedIssues.length).toBeGreaterThan(0);
    // One of them would be READY without the gate: its only wait is the milestone.
    expect(gatedIssues.some((i) => i.blocked_by.length === 1 && i.blocked_by[0] === `milestone:${i.milestone}`)).toBe(true);
  });

  it("has at least 4 waves", () => {
    expect(plan.waves.length).toBeGreaterThanOrEqual(4);
  });

  it("has at least one scope conflict", () => {
    expect(plan.findings.filter((f) => f.code === "scope_conflict").length).toBeGreaterThanOrEqual(1);
  });

  it("has no unreadable record and no schema finding", () => {
    expect(plan.findings.filter((f) => f.code === "unreadable_record" || f.code === "schema")).toEqual([]);
  });

  it("proves every stamp: no stamp_without_event, and each stamp carries its seal", () => {
    expect(plan.findings.filter((f) => f.code === "stamp_without_event")).toEqual([]);
    const records = loadRecords(demo);
    let stamps = 0;
    for (const issue of records.issues) {
      for (const [field, seal, event] of [
        ["started_at", "started_event", "plan_start"],
        ["verified_at", "verified_event", "plan_verify"],
        ["completed_at", "completed_event", "plan_done"],
      ] as const) {
        if (issue[field] === "") continue;
        stamps++;
        expect(issue[field]).toMatch(/^2026-1[01]-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
        expect(issue[seal]).toBe(sealOf(event, issue.id, issue[field]));
      }
      expect(issue.unsealed_stamps).toEqual([]);
    }
    expect(stamps).toBeGreaterThan(20);
  });

  it("keeps its findings to the few the README describes", () => {
    expect(plan.findings.map((f) => `${f.level} ${f.code} ${f.subject}`)).toEqual([
      "WARN evidence_missing BK-017",
      "FAIL unknown_dependency BK-026",
      "WARN no_evidence_required BK-027",
      "WARN milestone_evidence_missing accounts",
      "WARN scope_conflict BK-015",
    ]);
  });

  describe("is reproduced byte for byte by scripts/make-demo.mjs", () => {
    const out = mkdtempSync(join(tmpdir(), "cockpit-demo-"));
    afterAll(() => rmSync(out, { recursive: true, force: true }));

    it("writes the same files with the same bytes", () => {
      execFileSync(process.execPath, [join(root, "scripts/make-demo.mjs"), out], { stdio: "pipe" });
      const expected = filesUnder(demo);
      expect(filesUnder(out)).toEqual(expected);
      for (const rel of expected) {
        expect(readFileSync(join(out, rel)).equals(readFileSync(join(demo, rel))), `${rel} differs`).toBe(true);
      }
    });

    it("seals with lib/plan/seal.ts itself: no script holds a copy of the formula", () => {
      const scripts = join(root, "scripts");
      const copies = filesUnder(scripts).filter((rel) => readFileSync(join(scripts, rel), "utf8").includes("majordomus.plan-event/v1\\n"));
      expect(copies).toEqual([]);
    });
  });
});

// `npm run demo` and the e2e setup serve the demo as a git history (scripts/demo-history.mjs):
// six weeks ending the day before "today", whose last commit is examples/demo with every date moved.
describe("the demo history", () => {
  const today = "2026-12-03"; // a Thursday; the dates move by whole days, so the weekday does not matter
  const shift = 23; // days from the demo's own today, 2026-11-10
  const repo = join(mkdtempSync(join(tmpdir(), "cockpit-demo-history-")), "repo");
  afterAll(() => rmSync(join(repo, ".."), { recursive: true, force: true }));
  execFileSync(process.execPath, [join(root, "scripts/demo-history.mjs"), repo, "--today", today], { stdio: "pipe" });
  const git = (...args: string[]) => runGit(repo, args);
  const log = git("log", "--first-parent", "--reverse", "--format=%H %cI %aI")
    .split("\n")
    .map((line) => {
      const [sha, committed, authored] = line.split(" ");
      return { sha, committed: new Date(committed).toISOString(), authored: new Date(authored).toISOString() };
    });
  const day = (iso: string) => iso.slice(0, 10);
  const minusDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);

  /** The plan's files at a commit, written into a folder of their own. */
  function checkout(sha: string): string {
    const dir = mkdtempSync(join(tmpdir(), "cockpit-demo-at-"));
    execFileSync("sh", ["-c", `git archive ${sha} | tar -x -C '${dir}'`], { cwd: repo });
    return dir;
  }

  /** Moves every date of a parsed record back by `days`, checks each seal and reseals the moved stamp. */
  function unshift(record: Record<string, unknown>, days: number, id: string): Record<string, unknown> {
    const back = (v: string) => {
      const isDate = v.length === 10;
      const iso = new Date(Date.parse(isDate ? `${v}T00:00:00Z` : v) - days * 86_400_000).toISOString();
      return isDate ? iso.slice(0, 10) : iso.replace(/\.\d{3}Z$/, "Z");
    };
    const out: Record<string, unknown> = { ...record };
    for (const key of ["created_at", "updated_at"]) if (typeof out[key] === "string") out[key] = back(out[key] as string);
    for (const [field, seal, event] of [
      ["started_at", "started_event", "plan_start"],
      ["verified_at", "verified_event", "plan_verify"],
      ["completed_at", "completed_event", "plan_done"],
    ] as const) {
      if (typeof out[field] !== "string") continue;
      expect(out[seal], `${id} ${seal}`).toBe(sealOf(event, id, out[field] as string));
      out[field] = back(out[field] as string);
      out[seal] = sealOf(event, id, out[field] as string);
    }
    if (Array.isArray(out.evidence)) out.evidence = out.evidence.map((e: Record<string, string>) => ({ ...e, recorded_at: back(e.recorded_at) }));
    const prose = (t: string) => t.replace(/\b\d{4}-\d{2}-\d{2}\b/g, back);
    if (typeof out.why === "string") out.why = prose(out.why);
    if (Array.isArray(out.risks)) out.risks = out.risks.map(prose);
    return out;
  }

  it("has one commit per moment over about six weeks, ending the day before today", () => {
    expect(log.length).toBeGreaterThanOrEqual(60);
    expect(log.length).toBeLessThanOrEqual(120);
    for (const c of log) expect(c.authored).toBe(c.committed);
    for (let i = 1; i < log.length; i++) expect(log[i].committed > log[i - 1].committed, `commit ${i} is not later than ${i - 1}`).toBe(true);
    expect(day(log[0].committed)).toBe(minusDays(today, 43));
    expect(day(log.at(-1)!.committed)).toBe(minusDays(today, 1));
  });

  it("has commits on each of the three days before today, so the previous working day always has activity", () => {
    const days = new Set(log.map((c) => day(c.committed)));
    for (const n of [1, 2, 3]) expect(days, `no commit ${n} days before today`).toContain(minusDays(today, n));
  });

  it("ends in examples/demo with every date moved by the same number of days, seals recomputed", () => {
    expect(git("status", "--porcelain")).toBe("");
    const final = checkout("HEAD");
    try {
      expect(filesUnder(final)).toEqual(filesUnder(demo));
      for (const rel of filesUnder(demo)) {
        if (!rel.endsWith(".yaml")) {
          expect(readFileSync(join(final, rel), "utf8")).toBe(readFileSync(join(demo, rel), "utf8"));
          continue;
        }
        const moved = parse(readFileSync(join(final, rel), "utf8")) as Record<string, unknown>;
        const written = parse(readFileSync(join(demo, rel), "utf8")) as Record<string, unknown>;
        expect(unshift(moved, shift, String(moved.id)), rel).toEqual(written);
      }
      // The derived plan is the same, statuses, waves and findings alike.
      const a = loadPlan(final);
      expect(a.issues.map((i) => [i.id, i.status, i.wave])).toEqual(plan.issues.map((i) => [i.id, i.status, i.wave]));
      expect(a.milestones.map((m) => [m.id, m.status])).toEqual(plan.milestones.map((m) => [m.id, m.status]));
      expect(a.findings).toEqual(plan.findings);
    } finally {
      rmSync(final, { recursive: true, force: true });
    }
  });

  it("proves every stamp at every commit, and tells the story the README promises", () => {
    const statusAt: Record<string, string | undefined>[] = [];
    const booking: number[] = [];
    for (const c of log) {
      const dir = checkout(c.sha);
      try {
        const p = loadPlan(dir);
        expect(p.findings.filter((f) => f.code === "stamp_without_event" || f.code === "schema" || f.code === "unreadable_record"), c.sha).toEqual([]);
        statusAt.push(Object.fromEntries(p.issues.map((i) => [i.id, i.status])));
        booking.push(p.issues.filter((i) => i.milestone === "booking").length);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
    // Records are created over time, and scope is added to booking mid-way.
    expect(Object.keys(statusAt[0]).length).toBeLessThan(10);
    expect(Object.keys(statusAt.at(-1)!)).toHaveLength(plan.issues.length);
    const grows = booking.findIndex((n, i) => i > log.length / 4 && booking[i - 1] > 0 && n > booking[i - 1]);
    expect(grows, "no issue added to booking mid-way").toBeGreaterThan(0);
    // BK-019 is open for a while, then cancelled; BK-040 exists for a while, then is removed.
    const firstOf = (id: string, status: string) => statusAt.findIndex((s) => s[id] === status);
    expect(firstOf("BK-019", "BLOCKED")).toBeGreaterThanOrEqual(0);
    expect(firstOf("BK-019", "CANCELLED")).toBeGreaterThan(firstOf("BK-019", "BLOCKED"));
    expect(statusAt.some((s) => s["BK-040"] !== undefined)).toBe(true);
    expect(statusAt.at(-1)!["BK-040"]).toBeUndefined();
    // BK-010 moves in the last days: VERIFY two days before today, DONE the day before.
    const lastOn = (n: number) => statusAt[log.map((c) => day(c.committed)).lastIndexOf(minusDays(today, n))];
    expect(lastOn(2)["BK-010"]).toBe("VERIFY");
    expect(lastOn(1)["BK-010"]).toBe("DONE");
    expect(lastOn(3)["BK-027"]).toBe("READY");
    const firstOn3 = log.findIndex((c) => day(c.committed) === minusDays(today, 3));
    expect(statusAt[firstOn3 - 1]["BK-027"]).toBeUndefined();
  });

  it("gives the forecast at least 5 completions on 3 or more days of the last 30, and a stall", () => {
    const final = checkout("HEAD");
    try {
      const records = loadRecords(final);
      const from = minusDays(today, 30);
      const done = records.issues.map((i) => i.completed_at).filter((at) => at !== "" && day(at) >= from && day(at) < today);
      expect(done.length).toBeGreaterThanOrEqual(5);
      expect(new Set(done.map(day)).size).toBeGreaterThanOrEqual(3);
      const p = loadPlan(final);
      const stuck = p.issues.filter((i) => i.status === "ACTIVE" && i.started_at !== "" && day(i.started_at) < minusDays(today, 3));
      expect(stuck.map((i) => i.id)).toEqual(["BK-015"]);
    } finally {
      rmSync(final, { recursive: true, force: true });
    }
  });
});
