// Records that would explode a reader (an alias bomb, a 50 MB file, a link out of the repository),
// through the command line and the production server: each is an `unreadable_record` finding that
// names its file and the limit, the server stays up, and every other answer is the one the same
// repository gives without the bad files.
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ISSUES_DIR, MILESTONES_DIR, loadPlan } from "@/lib/repo";
import { type RunningServer, SOURCE_REPO, cleanup, copyRepo, ensureBuild, runCli, startServer } from "./helpers";

const source = loadPlan(SOURCE_REPO);
const MILESTONE = source.milestones[0].id;
const ISSUE = source.issues[0].id;

/** Eight levels of aliases, each repeating the one below ten times: 10^8 scope entries in 600 bytes. */
function aliasBomb(id: string): string {
  const lines = [`id: ${id}`, `milestone: ${MILESTONE}`, "title: An alias bomb", "l0: &l0 [a, a, a, a, a, a, a, a, a, a]"];
  for (let i = 1; i <= 8; i++) lines.push(`l${i}: &l${i} [${Array(10).fill(`*l${i - 1}`).join(", ")}]`);
  lines.push("scope: *l8");
  return lines.join("\n") + "\n";
}

const BOMB = "ZZ-BOMB";
const HUGE = "ZZ-HUGE";
const LINK = "ZZ-LINK";
const MILESTONE_BOMB = "zz-bomb";
const BAD_IDS = [BOMB, HUGE, LINK, MILESTONE_BOMB];

/** The finding each bad file must give, in the order the loader reports them (milestones, then issues by name). */
const EXPECTED_FINDINGS = [
  {
    level: "FAIL",
    code: "unreadable_record",
    subject: MILESTONE_BOMB,
    message: `${MILESTONES_DIR}/${MILESTONE_BOMB}.yaml is too large to read: it holds more than 10000 values once its aliases are expanded; a record may hold at most 10000`,
  },
  {
    level: "FAIL",
    code: "unreadable_record",
    subject: BOMB,
    message: `${ISSUES_DIR}/${BOMB}.yaml is too large to read: it holds more than 10000 values once its aliases are expanded; a record may hold at most 10000`,
  },
  {
    level: "FAIL",
    code: "unreadable_record",
    subject: HUGE,
    message: `${ISSUES_DIR}/${HUGE}.yaml is 52428800 bytes, larger than 1048576 bytes (1 MiB), the most a record file may be; it is not read`,
  },
  {
    level: "FAIL",
    code: "unreadable_record",
    subject: LINK,
    message: `${ISSUES_DIR}/${LINK}.yaml is a symbolic link that leads outside the repository; it is not followed`,
  },
];

const outside = mkdtempSync(join(tmpdir(), "cockpit-outside-"));

function addBadFiles(repo: string): void {
  writeFileSync(join(repo, ISSUES_DIR, `${BOMB}.yaml`), aliasBomb(BOMB));
  writeFileSync(join(repo, MILESTONES_DIR, `${MILESTONE_BOMB}.yaml`), aliasBomb(MILESTONE_BOMB).replace(`milestone: ${MILESTONE}\n`, ""));
  // A real 50 MB record, valid YAML from end to end.
  const head = `id: ${HUGE}\nmilestone: ${MILESTONE}\ntitle: A huge record\nobjective: `;
  writeFileSync(join(repo, ISSUES_DIR, `${HUGE}.yaml`), head + "x".repeat(50 * 1024 * 1024 - head.length - 1) + "\n");
  writeFileSync(join(outside, "secret.yaml"), `id: ${LINK}\nmilestone: ${MILESTONE}\ntitle: From outside the repository\n`);
  symlinkSync(join(outside, "secret.yaml"), join(repo, ISSUES_DIR, `${LINK}.yaml`));
}

function removeBadFiles(repo: string): void {
  for (const id of [BOMB, HUGE, LINK]) rmSync(join(repo, ISSUES_DIR, `${id}.yaml`));
  rmSync(join(repo, MILESTONES_DIR, `${MILESTONE_BOMB}.yaml`));
}

/** Every query, as `cockpit plan` words and as the HTTP path that answers it. */
const QUERIES: Array<{ name: string; words: string[]; path: string }> = [
  { name: "model", words: ["model"], path: "/api/v1/plan" },
  { name: "status", words: ["status"], path: "/api/v1/plan/status" },
  { name: "issues", words: ["issues"], path: "/api/v1/plan/issues" },
  { name: "waves", words: ["waves"], path: "/api/v1/plan/waves" },
  { name: "next", words: ["next"], path: "/api/v1/plan/next" },
  { name: "roadmap", words: ["roadmap"], path: "/api/v1/plan/roadmap" },
  { name: "validate", words: ["validate"], path: "/api/v1/plan/validate" },
  { name: "record of an issue", words: ["record", ISSUE], path: `/api/v1/plan/record?id=${ISSUE}` },
  { name: "record of a milestone", words: ["record", MILESTONE], path: `/api/v1/plan/record?id=${MILESTONE}` },
];

type Json = Record<string, unknown> & { findings?: Array<{ subject: string; code: string }>; failures?: number; valid?: boolean };

/** `cockpit plan <words> --repo <repo> --json`, parsed (validate exits 10 when a finding fails). */
async function cliJson(repo: string, words: string[]): Promise<Json> {
  const r = await runCli(["plan", ...words, "--repo", repo, "--json"]);
  expect(r.code === 0 || (words[0] === "validate" && r.code === 10), `cockpit plan ${words.join(" ")}: exit ${r.code} ${r.stderr}`).toBe(true);
  return JSON.parse(r.stdout) as Json;
}

async function httpJson(server: RunningServer, path: string): Promise<Json> {
  const r = await fetch(`${server.url}${path}`);
  expect(r.status, `GET ${path}`).toBe(200);
  return (await r.json()) as Json;
}

/** An answer without the bad files' findings (and validate's count of failures without them). */
function withoutBadFindings(answer: Json): Json {
  if (!answer.findings) return answer;
  const findings = answer.findings.filter((f) => !(f.code === "unreadable_record" && BAD_IDS.includes(f.subject)));
  const copy: Json = { ...answer, findings };
  if (typeof answer.failures === "number") {
    copy.failures = answer.failures - (answer.findings.length - findings.length);
    copy.valid = copy.failures === 0;
  }
  return copy;
}

let clean: string;
let bad: string;
let server: RunningServer;
const cleanAnswers = new Map<string, Json>();

beforeAll(async () => {
  const dist = await ensureBuild();
  clean = copyRepo("cockpit-explode-clean-");
  bad = copyRepo("cockpit-explode-bad-");
  addBadFiles(bad);
  server = await startServer(dist, bad);
  for (const q of QUERIES) cleanAnswers.set(q.name, await cliJson(clean, q.words));
}, 240_000);

afterAll(async () => {
  await server?.stop();
  cleanup();
  rmSync(outside, { recursive: true, force: true });
});

describe("records that would explode a reader are findings, and the rest of the plan is served", () => {
  it("cockpit plan validate names each bad file and its limit, and exits 10", async () => {
    const r = await runCli(["plan", "validate", "--repo", bad]);
    expect(r.code).toBe(10);
    // The table is laid out to 80 columns (no terminal): a long message wraps inside its column,
    // a path longer than the column inside itself.
    const flat = r.stdout.replace(/\s+/g, "");
    for (const f of EXPECTED_FINDINGS) expect(flat).toContain(f.message.replace(/\s+/g, ""));
  }, 60_000);

  it("cockpit plan model --json: the four findings lead, and without them the answer is the clean repository's", async () => {
    const model = await cliJson(bad, ["model"]);
    expect(model.findings!.slice(0, 4)).toEqual(EXPECTED_FINDINGS);
    expect(withoutBadFindings(model)).toEqual(cleanAnswers.get("model"));
  }, 60_000);

  it("every other query on the command line is unchanged", async () => {
    for (const q of QUERIES) {
      expect(withoutBadFindings(await cliJson(bad, q.words)), q.name).toEqual(cleanAnswers.get(q.name));
    }
  }, 120_000);

  it("a bad record has no record answer: cockpit plan record exits 12", async () => {
    for (const id of BAD_IDS) {
      const r = await runCli(["plan", "record", id, "--repo", bad, "--json"]);
      expect(r.code, id).toBe(12);
    }
  }, 60_000);

  it("the server answers every query as the command line does over the same files, and stays up", async () => {
    const model = await httpJson(server, "/api/v1/plan");
    expect(model.findings!.slice(0, 4)).toEqual(EXPECTED_FINDINGS);
    for (const q of QUERIES) {
      expect(withoutBadFindings(await httpJson(server, q.path)), q.name).toEqual(cleanAnswers.get(q.name));
    }
    for (const id of BAD_IDS) expect((await fetch(`${server.url}/api/v1/plan/record?id=${id}`)).status, id).toBe(404);
    for (const page of ["/", "/findings", "/waves", "/roadmap", `/issues/${ISSUE}`, `/milestones/${MILESTONE}`]) {
      const r = await fetch(`${server.url}${page}`);
      expect(r.status, page).toBe(200);
      const html = await r.text();
      if (page === "/findings") for (const id of BAD_IDS) expect(html).toContain(id);
    }
    expect((await fetch(`${server.url}/issues/${BOMB}`)).status).toBe(404);
    expect(server.log()).not.toMatch(/heap out of memory|FATAL ERROR/);
  }, 120_000);

  it("the bad files removed while the server runs, it answers exactly as over the clean repository", async () => {
    removeBadFiles(bad);
    for (const q of QUERIES) expect(await httpJson(server, q.path), q.name).toEqual(cleanAnswers.get(q.name));
    addBadFiles(bad);
    const model = await httpJson(server, "/api/v1/plan");
    expect(model.findings!.slice(0, 4)).toEqual(EXPECTED_FINDINGS);
  }, 120_000);
});
