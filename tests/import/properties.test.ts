import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { importPlan } from "@/lib/import/import";
import { loadPlan } from "@/lib/repo";
import { newRepo, removeTempDirs } from "../support/history";

// Round-trip properties over generated sources, one generator a format: every dependency between
// imported issues is a depends_on edge, every status maps as documented, and created + skipped count
// every record (counted from the generator, never from the parser's own `read`).

afterAll(removeTempDirs);

const BEADS_STATUS = ["open", "in_progress", "blocked", "closed", "tombstone", "deferred"] as const;
// A started issue whose milestone waits on an unfinished one is BLOCKED by the gate (and a
// premature_execution finding says so): the stamp is kept, the derivation decides.
const BEADS_MAPS: Record<string, string[]> = { closed: ["DONE"], in_progress: ["ACTIVE", "BLOCKED"], open: ["READY", "BLOCKED"], blocked: ["READY", "BLOCKED"], deferred: ["READY", "BLOCKED"] };
const GH_MAPS: Record<string, string[]> = { CLOSED: ["DONE"], OPEN: ["READY", "BLOCKED"] };
const TM_MAPS: Record<string, string[]> = {
  done: ["DONE"],
  "in-progress": ["ACTIVE", "BLOCKED"],
  review: ["ACTIVE", "BLOCKED"],
  cancelled: ["CANCELLED"],
  deferred: ["READY", "BLOCKED"],
  pending: ["READY", "BLOCKED"],
  blocked: ["READY", "BLOCKED"],
};
/** Backlog.md's documented mapping: the folder decides first (archive/, completed/), then the status word. */
function backlogMaps(sourceStatus: string): string[] {
  if (sourceStatus.endsWith("(archive/)")) return ["CANCELLED"];
  if (sourceStatus.endsWith("(completed/)") || sourceStatus === "Done") return ["DONE"];
  if (sourceStatus === "In Progress") return ["ACTIVE", "BLOCKED"];
  return ["READY", "BLOCKED"];
}

const BACKLOG_PLACES = ["tasks", "tasks", "completed", "archive/tasks", "drafts"] as const;
/** The forms Backlog.md writes one task's id in: its own id, a dependency before and after a prefix change, zero-padded. */
const BACKLOG_REF_FORMS = [(k: number) => `BACK-${k}`, (k: number) => `back-${k}`, (k: number) => `task-${k}`, (k: number) => `TASK-0${k}`] as const;

const backlogSource = fc.integer({ min: 1, max: 20 }).chain((n) =>
  fc.record({
    tasks: fc.array(
      fc.record({
        place: fc.constantFrom(...BACKLOG_PLACES),
        upper: fc.boolean(),
        status: fc.constantFrom("To Do", "In Progress", "Done", "Waiting"),
        milestone: fc.option(fc.integer({ min: 0, max: 3 })),
        deps: fc.array(fc.tuple(fc.integer({ min: 1, max: n + 2 }), fc.nat(BACKLOG_REF_FORMS.length - 1)), { maxLength: 3 }),
      }),
      { minLength: n, maxLength: n },
    ),
    milestones: fc.array(fc.boolean(), { maxLength: 3 }),
  }),
);

const TM_STATUS = Object.keys(TM_MAPS);
const subtaskOf = (siblings: number) =>
  fc.record({ status: fc.constantFrom(...TM_STATUS), deps: fc.array(fc.oneof(fc.integer({ min: 1, max: siblings + 1 }), fc.constant("1"), fc.constant("1.1")), { maxLength: 2 }) });
const tmTag = fc.integer({ min: 0, max: 8 }).chain((m) =>
  fc.array(
    fc.record({
      status: fc.constantFrom(...TM_STATUS),
      deps: fc.array(fc.oneof(fc.integer({ min: 1, max: m + 2 }), fc.integer({ min: 1, max: m + 2 }).map(String)), { maxLength: 3 }),
      subtasks: fc.integer({ min: 0, max: 3 }).chain((k) => fc.array(subtaskOf(k), { minLength: k, maxLength: k })),
    }),
    { minLength: m, maxLength: m },
  ),
);
const taskmasterSource = fc.record({ legacy: fc.boolean(), tags: fc.array(tmTag, { minLength: 1, maxLength: 3 }) });

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
        statuses.forEach((status, k) => {
          const issue = issues.get(id(k));
          if (status !== "in_progress" || issue === undefined || issue.status === "ACTIVE") return;
          expect(issue.status).toBe("BLOCKED");
          expect(issue.blocked_by).toContain(`milestone:${issue.milestone}`);
          expect(plan.findings.some((f) => f.code === "premature_execution" && f.subject === id(k))).toBe(true);
        });
        const epicsMade = r.created.milestones.filter((m) => m !== "beads").length;
        expect(r.created.issues.length + epicsMade + r.skipped.length).toBe(lines.length);
        expect(r.findings).toEqual(plan.findings);
      }),
      { numRuns: 25 },
    );
  }, 120_000);

  it("backlog: dependencies kept in every id form Backlog.md writes, statuses and folders mapped, every file counted", async () => {
    await fc.assert(
      fc.asyncProperty(backlogSource, async ({ tasks, milestones }) => {
        const id = (k: number) => (tasks[k - 1].upper ? `BACK-${k}` : `back-${k}`);
        const files: Record<string, string> = { "config.yml": 'project_name: "prop"\ntask_prefix: "back"\n' };
        milestones.forEach((archived, i) => {
          files[`${archived ? "archive/milestones" : "milestones"}/m-${i} - group.md`] = `---\nid: m-${i}\ntitle: "Group ${i}"\n---\n\n## Description\n\nMilestone: Group ${i}\n`;
        });
        tasks.forEach((t, i) => {
          const k = i + 1;
          const deps = t.deps.map(([j, form]) => `\n  - ${BACKLOG_REF_FORMS[form](j)}`).join("");
          const milestone = t.milestone === null ? "" : `milestone: m-${t.milestone}\n`;
          files[`${t.place}/back-${k} - Task-${k}.md`] =
            `---\nid: ${id(k)}\ntitle: Task ${k} ✓\nstatus: ${t.status}\nassignee: []\ncreated_date: '2026-01-01 10:00'\nlabels: []\n${milestone}dependencies:${deps || " []"}\n---\n\n## Description\n\nTask ${k}.\n`;
        });
        const repo = newRepo("cockpit-import-prop-");
        const r = await importPlan(repo, { format: "backlog", source: "backlog", files });
        const plan = loadPlan(repo);
        const issues = new Map(plan.issues.map((i) => [i.id, i]));
        tasks.forEach((t, i) => {
          for (const [j] of t.deps) {
            if (j <= tasks.length && issues.has(id(i + 1)) && issues.has(id(j))) expect(issues.get(id(i + 1))!.depends_on).toContain(id(j));
          }
        });
        for (const [from, row] of Object.entries(r.mapped)) for (const to of Object.keys(row)) expect(backlogMaps(from), from).toContain(to);
        // Drafts are skipped; every other task is imported.
        expect(r.created.issues.length).toBe(tasks.filter((t) => t.place !== "drafts").length);
        const fromFiles = r.created.milestones.filter((m) => /^m-\d+$/.test(m) && Number(m.slice(2)) < milestones.length).length;
        expect(r.created.issues.length + fromFiles + r.skipped.length).toBe(tasks.length + milestones.length);
        for (const [i, archived] of milestones.entries()) if (archived) expect(plan.milestones.find((m) => m.id === `m-${i}`)?.status).toBe("CANCELLED");
        expect(r.findings).toEqual(plan.findings);
      }),
      { numRuns: 20 },
    );
  }, 120_000);

  it("taskmaster: dependencies of tasks and subtasks kept, statuses mapped, every task and subtask counted, tagged or legacy", async () => {
    await fc.assert(
      fc.asyncProperty(taskmasterSource, async ({ legacy, tags }) => {
        const used = legacy ? tags.slice(0, 1) : tags;
        const names = used.map((_, i) => (i === 0 ? "master" : `feat-${i}`));
        const json = (tasks: (typeof tags)[number]) =>
          tasks.map((t, i) => ({
            id: i + 1,
            title: `Task ${i + 1}`,
            status: t.status,
            dependencies: t.deps,
            subtasks: t.subtasks.map((s, n) => ({ id: n + 1, title: `Subtask ${n + 1}`, status: s.status, dependencies: s.deps })),
          }));
        const file = legacy ? { tasks: json(used[0]) } : Object.fromEntries(used.map((tasks, i) => [names[i], { tasks: json(tasks), metadata: { description: `Tag ${i}` } }]));
        const repo = newRepo("cockpit-import-prop-");
        const r = await importPlan(repo, { format: "taskmaster", source: "tasks.json", files: { "tasks.json": JSON.stringify(file) } });
        const plan = loadPlan(repo);
        const issues = new Map(plan.issues.map((i) => [i.id, i]));
        const edges: [string, string][] = [];
        used.forEach((tasks, g) => {
          const base = names[g] === "master" || used.length === 1 ? "TM" : `TM-${names[g]}`;
          tasks.forEach((t, i) => {
            for (const d of t.deps) edges.push([`${base}-${i + 1}`, `${base}-${d}`]);
            t.subtasks.forEach((s, n) => {
              // A subtask's number names a sibling; a text names a task ("1") or a subtask ("1.1").
              for (const d of s.deps) edges.push([`${base}-${i + 1}.${n + 1}`, typeof d === "number" ? `${base}-${i + 1}.${d}` : `${base}-${d}`]);
            });
          });
        });
        for (const [from, to] of edges) if (issues.has(from) && issues.has(to)) expect(issues.get(from)!.depends_on, `${from} → ${to}`).toContain(to);
        for (const [from, row] of Object.entries(r.mapped)) for (const to of Object.keys(row)) expect(TM_MAPS[from], from).toContain(to);
        const count = used.reduce((n, tasks) => n + tasks.reduce((k, t) => k + 1 + t.subtasks.length, 0), 0);
        expect(r.created.issues.length + r.skipped.length).toBe(count);
        expect(r.created.issues.length).toBe(count);
        expect(r.created.milestones).toEqual(names);
        expect(r.findings).toEqual(plan.findings);
      }),
      { numRuns: 20 },
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
