import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { importPlan } from "@/lib/import/import";
import { loadPlan } from "@/lib/repo";
import { newRepo, removeTempDirs } from "../support/history";

// Round-trip properties over generated sources: every dependency between imported issues is a
// depends_on edge, every status maps as documented, and created + skipped count every record.

afterAll(removeTempDirs);

const BEADS_STATUS = ["open", "in_progress", "blocked", "closed", "tombstone", "deferred"] as const;
const BEADS_MAPS: Record<string, string[]> = { closed: ["DONE"], in_progress: ["ACTIVE"], open: ["READY", "BLOCKED"], blocked: ["READY", "BLOCKED"], deferred: ["READY", "BLOCKED"] };
const GH_MAPS: Record<string, string[]> = { CLOSED: ["DONE"], OPEN: ["READY", "BLOCKED"] };

const beadsSource = fc
  .integer({ min: 1, max: 25 })
  .chain((n) =>
    fc.record({
      statuses: fc.array(fc.constantFrom(...BEADS_STATUS), { minLength: n, maxLength: n }),
      epics: fc.array(fc.boolean(), { minLength: n, maxLength: n }),
      edges: fc.array(fc.tuple(fc.nat(n - 1), fc.nat(n + 2), fc.constantFrom("blocks", "parent-child", "related")), { maxLength: 2 * n }),
    }),
  );

describe("round trips", () => {
  it("beads: edges kept, statuses mapped, every line counted", async () => {
    await fc.assert(
      fc.asyncProperty(beadsSource, async ({ statuses, epics, edges }) => {
        const id = (k: number) => `bd-${k.toString(36)}`;
        const lines = statuses.map((status, k) =>
          JSON.stringify({
            id: id(k),
            title: `Issue ${k} ✓`,
            status,
            issue_type: epics[k] ? "epic" : "task",
            ...(status === "closed" ? { closed_at: "2026-01-02T03:04:05Z" } : {}),
            dependencies: edges.filter(([a]) => a === k).map(([a, b, type]) => ({ issue_id: id(a), depends_on_id: id(b), type })),
          }),
        );
        const repo = newRepo("cockpit-import-prop-");
        const r = await importPlan(repo, { format: "beads", source: "p.jsonl", files: { "p.jsonl": lines.join("\n") } });
        const plan = loadPlan(repo);
        const issues = new Map(plan.issues.map((i) => [i.id, i]));
        for (const [a, b, type] of edges) {
          if (type === "blocks" && issues.has(id(a)) && issues.has(id(b))) expect(issues.get(id(a))!.depends_on).toContain(id(b));
        }
        for (const [from, row] of Object.entries(r.mapped)) for (const to of Object.keys(row)) expect(BEADS_MAPS[from]).toContain(to);
        const epicsMade = r.created.milestones.filter((m) => m !== "beads").length;
        expect(r.created.issues.length + epicsMade + r.skipped.length).toBe(lines.length);
        expect(r.findings).toEqual(plan.findings);
      }),
      { numRuns: 25 },
    );
  }, 120_000);

  it("github: blocked_by kept, states mapped, every issue counted", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 30 }).chain((n) =>
          fc.record({
            states: fc.array(fc.constantFrom("OPEN", "CLOSED"), { minLength: n, maxLength: n }),
            milestones: fc.array(fc.option(fc.integer({ min: 1, max: 3 })), { minLength: n, maxLength: n }),
            blocked: fc.array(fc.tuple(fc.integer({ min: 1, max: n }), fc.integer({ min: 1, max: n + 3 })), { maxLength: 2 * n }),
          }),
        ),
        async ({ states, milestones, blocked }) => {
          const issues = states.map((state, i) => ({
            number: i + 1,
            title: `Issue ${i + 1}`,
            body: "",
            state,
            labels: [],
            milestone: milestones[i] === null ? null : { number: milestones[i], title: `Milestone ${milestones[i]}`, description: "", dueOn: null },
            assignees: [],
            createdAt: "2026-01-01T00:00:00Z",
            closedAt: state === "CLOSED" ? "2026-01-02T00:00:00Z" : null,
          }));
          const dependencies = JSON.stringify(blocked.map(([issue, by]) => ({ issue, blocked_by: [by] })));
          const repo = newRepo("cockpit-import-prop-");
          const r = await importPlan(repo, { format: "github", source: "i.json", files: { "i.json": JSON.stringify(issues) }, dependencies });
          const plan = loadPlan(repo);
          for (const [issue, by] of blocked) {
            if (by <= states.length) expect(plan.issues.find((i) => i.id === `GH-${issue}`)!.depends_on).toContain(`GH-${by}`);
          }
          for (const [from, row] of Object.entries(r.mapped)) for (const to of Object.keys(row)) expect(GH_MAPS[from]).toContain(to);
          expect(r.created.issues.length + r.skipped.length).toBe(r.read);
          expect(r.read).toBe(states.length);
        },
      ),
      { numRuns: 25 },
    );
  }, 120_000);
});
