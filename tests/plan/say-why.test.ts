import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findCapability } from "@/lib/capabilities/index";
import { whyActiveIsNotNow } from "@/lib/plan/active-why";
import { missingEvidence } from "@/lib/plan/evidence-coverage";
import { fieldChanges } from "@/lib/plan/field-changes";
import { loadPlan, loadRecords } from "@/lib/repo";
import { planRoadmap } from "@/lib/plan/queries";
import { invoke } from "@/lib/surfaces/invoke";

const ROOT = join(__dirname, "..", "..");
const DEMO = join(ROOT, "examples", "demo");
const CORPUS = join(ROOT, "tests", "fixtures", "majordomus");

describe("say why", () => {
  it("the demo's active milestone and the roadmap's now differ, and one line says why", () => {
    const plan = loadPlan(DEMO);
    const records = loadRecords(DEMO);
    const roadmap = planRoadmap(plan);
    expect([plan.project.active_milestone, roadmap.now]).toEqual(["booking", "accounts"]);
    const missing = (id: string) => missingEvidence(records.milestones.find((m) => m.id === id)!);
    expect(whyActiveIsNotNow(plan, roadmap, missing)).toBe("accounts is now, but waits on its milestone evidence: security_review, so booking is the active milestone");
    expect(whyActiveIsNotNow(plan, { ...roadmap, now: "booking" }, missing)).toBeUndefined();
  });

  it("next names the corpus's I0010 and carries the unsealed_stamps warning with the plan adopt hint", async () => {
    const r = await invoke(findCapability("plan.next")!, { repo: CORPUS, plan: () => loadPlan(CORPUS) }, {});
    expect(r.ok).toBe(true);
    const value = (r as { value: { issue?: { id: string }; warnings?: { code: string; message: string }[] } }).value;
    expect(value.issue?.id).toBe("I0010");
    expect(value.warnings).toEqual([{ code: "unsealed_stamps", message: expect.stringMatching(/^I0010 has stamps that do not count \(started_at.*cockpit plan adopt admits them/) }]);
  });

  it("a next whose issue has sealed stamps carries no warnings member", async () => {
    const r = await invoke(findCapability("plan.next")!, { repo: DEMO, plan: () => loadPlan(DEMO) }, {});
    expect("warnings" in (r as { value: object }).value).toBe(false);
  });

  it("an edit's fields: old → new first, the moments the write sets left out", () => {
    const before = "id: I1\npriority: p2\nscope: [a]\nupdated_at: 2026-10-01\n";
    const after = "id: I1\npriority: p0\nscope: [a, b]\nowner: ada\nupdated_at: 2026-12-02T10:00:00Z\n";
    expect(fieldChanges(before, after)).toEqual([
      { field: "priority", from: "p2", to: "p0" },
      { field: "scope", from: "a", to: "a, b" },
      { field: "owner", from: "", to: "ada" },
    ]);
    expect(fieldChanges(undefined, "id: I2\ntitle: New\n")).toEqual([
      { field: "id", from: "", to: "I2" },
      { field: "title", from: "", to: "New" },
    ]);
  });
});
