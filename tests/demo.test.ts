import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ISSUE_STATUSES, MILESTONE_STATUSES } from "@/lib/plan/constants";
import { loadPlan, loadRecords } from "@/lib/plan/index";
import { sealOf } from "@/lib/plan/seal";

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
  });
});
