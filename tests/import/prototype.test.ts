import { afterAll, describe, expect, it } from "vitest";
import { handleCapabilityRequest } from "@/lib/surfaces/http";
import { runPlanCommand } from "@/lib/surfaces/cli/plan";
import type { ImportFormat } from "@/lib/import/shapes";
import { cleanup, copyRepo } from "../surfaces/helpers";

// Every import format with Object.prototype's names as every id, status, priority, key and value,
// posted to the route handler the server mounts (in this process, so a write onto the prototype
// would show here): the import answers, nothing lands on Object.prototype, and the other verbs
// answer after it as before.

const WORDS = ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty"] as const;
const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype).sort();

afterAll(cleanup);

/** An object with `key` as its own property, `__proto__` too (JSON.stringify writes it as a key). */
const own = (entries: [string, unknown][]): Record<string, unknown> => Object.fromEntries(entries);

const SOURCES: Record<ImportFormat, () => Record<string, string>> = {
  beads: () => ({
    "issues.jsonl": WORDS.flatMap((w, n) => [
      own([["id", `B-${n}`], ["title", w], ["status", w], ["priority", w], ["issue_type", w], [w, w], ["assignee", w], ["dependencies", [own([["issue_id", `B-${n}`], ["depends_on_id", w], ["type", w]])]]]),
      own([["id", w], ["title", w], ["status", w], ["priority", w], [w, own([[w, w]])]]),
    ])
      .map((line) => JSON.stringify(line))
      .join("\n"),
  }),
  taskmaster: () => ({
    "tasks.json": JSON.stringify(own(WORDS.map((w) => [w, own([["tasks", [own([["id", 1], ["title", w], ["status", w], ["priority", w], [w, w], ["dependencies", [w]]])]], ["metadata", own([[w, w]])]])]))),
  }),
  backlog: () =>
    Object.fromEntries(WORDS.map((w, n) => [`tasks/task-${n} - ${n}.md`, `---\nid: task-${n}\ntitle: ${w}\nstatus: ${w}\npriority: ${w}\nmilestone: ${w}\n${w}: ${w}\ndependencies: [${w}]\n---\n\n## Description\n\n${w}\n`])),
  github: () => ({
    "issues.json": JSON.stringify(WORDS.map((w, n) => own([["number", n + 1], ["title", w], ["state", w], ["body", w], ["labels", [own([["name", w]])]], ["milestone", own([["title", w], ["number", n + 1]])], [w, w]]))),
  }),
};

const request = (repo: string, method: "GET" | "POST", path: string, body?: unknown) =>
  handleCapabilityRequest(
    new Request(`http://127.0.0.1${path}`, { method, headers: { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) }),
    path.split("?")[0],
    { repo },
  );

/** The verbs a served Cockpit answers on the demo plan: each must still answer 200 (a read) or its command's own answer. */
async function everyVerbAnswers(repo: string): Promise<void> {
  for (const read of ["waves", "next", "roadmap", "issues", "status", "validate", "critical_path", "code"]) {
    const r = await request(repo, "GET", `/api/v1/plan/${read}`);
    expect(r.status, `GET ${read}: ${await r.clone().text()}`).toBe(200);
  }
  const next = (await (await request(repo, "GET", "/api/v1/plan/next")).json()) as { issue?: { id: string } | null };
  const waves = (await (await request(repo, "GET", "/api/v1/plan/waves")).json()) as { waves: { issues: { id: string }[] }[] };
  const anIssue = waves.waves[0].issues[0].id;
  const record = await request(repo, "GET", `/api/v1/plan/record?id=${encodeURIComponent(anIssue)}`);
  expect(record.status, `${anIssue}: ${await record.clone().text()}`).toBe(200);
  const created = await request(repo, "POST", "/api/v1/plan/create", { kind: "issue", title: "After the import", milestone: "booking", dry_run: true });
  expect(created.status, await created.clone().text()).toBe(200);
  if (next.issue) {
    const started = await request(repo, "POST", "/api/v1/plan/transition", { issue: next.issue.id, transition: "start" });
    expect(started.status, await started.clone().text()).toBe(200);
  }
}

describe("an import whose every name is one of Object.prototype's", () => {
  for (const format of Object.keys(SOURCES) as ImportFormat[]) {
    it(`${format}: a dry run and the import answer, Object.prototype is untouched, and every verb answers after`, async () => {
      const repo = copyRepo("cockpit-prototype-");
      for (const dry_run of [true, false]) {
        const r = await request(repo, "POST", "/api/v1/plan/import", { format, source: `${format} source`, files: SOURCES[format](), dry_run });
        const answer = (await r.json()) as { mapped: Record<string, Record<string, number>>; created: { issues: string[] } };
        expect(r.status, JSON.stringify(answer)).toBe(200);
        expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTOTYPE_NAMES);
        expect(({} as Record<string, unknown>).READY).toBeUndefined();
        expect(answer.created.issues.length).toBeGreaterThan(0);
      }
      await everyVerbAnswers(repo);
    });
  }

  it("counts each status word as a key of its own, `__proto__` and `constructor` too", async () => {
    const repo = copyRepo("cockpit-prototype-");
    const r = await request(repo, "POST", "/api/v1/plan/import", { format: "beads", source: "beads", files: SOURCES.beads(), dry_run: true });
    const answer = (await r.json()) as { mapped: Record<string, Record<string, number>> };
    expect(Object.keys(answer.mapped).sort()).toEqual([...WORDS].sort());
    for (const w of WORDS) expect(Object.values(answer.mapped[w]).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
  });

  it("takes a priority that names a prototype member for none of the source's (p2), in Task Master and Backlog.md", async () => {
    for (const format of ["taskmaster", "backlog"] as const) {
      const repo = copyRepo("cockpit-prototype-");
      const r = await request(repo, "POST", "/api/v1/plan/import", { format, source: format, files: SOURCES[format]() });
      expect(r.status, await r.clone().text()).toBe(200);
      const { created } = (await r.json()) as { created: { issues: string[] } };
      for (const id of created.issues) {
        const record = (await (await request(repo, "GET", `/api/v1/plan/record?id=${encodeURIComponent(id)}`)).json()) as { fields?: Record<string, unknown>; record?: Record<string, unknown> };
        expect(JSON.stringify(record)).toMatch(/"priority":"p2"/);
      }
    }
  });
});

describe("request bodies and verbs named after Object.prototype's members", () => {
  it("a body whose keys are prototype names is refused as unknown fields (400), never a crash", async () => {
    const repo = copyRepo("cockpit-prototype-");
    for (const w of WORDS) {
      const body = own([["kind", "issue"], ["title", w], ["milestone", "booking"], [w, w], ["set", own([[w, w]])], ["dry_run", true]]);
      const r = await request(repo, "POST", "/api/v1/plan/create", body);
      expect(r.status, await r.clone().text()).toBe(400);
    }
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTOTYPE_NAMES);
    await everyVerbAnswers(repo);
  });

  it("cockpit plan <prototype name> is an unknown verb (exit 2), and --set/--add keys stay keys", async () => {
    const repo = copyRepo("cockpit-prototype-");
    for (const w of WORDS) {
      let err = "";
      const io = { out: () => undefined, err: (t: string) => (err += t) };
      expect(await runPlanCommand([w, "--repo", repo], io)).toBe(2);
      expect(err).toMatch(new RegExp(`unknown verb '${w}'`));
      err = "";
      const code = await runPlanCommand(["edit", "booking", "--set", `${w}=x`, "--add", `${w}=y`, "--dry-run", "--repo", repo], io);
      expect(code, err).not.toBe(13);
      expect(err).not.toMatch(/internal error/);
    }
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTOTYPE_NAMES);
  });
});
