// A seeded generator of random plan repositories for the differential test.
// It writes YAML text by hand (not through a serialiser) so it can produce the exact textual
// forms the loading rules care about: plain numbers, quoted strings, scalars in list places,
// broken files, duplicate keys, ids that sort differently byte-wise and naturally.
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

// ───────────────────────────── randomness ─────────────────────────────

class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = (seed ^ 0x9e3779b9) >>> 0;
  }
  /** mulberry32: a float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }
  sample<T>(items: readonly T[], n: number): T[] {
    return this.shuffle(items).slice(0, Math.min(n, items.length));
  }
}

// ───────────────────────────── vocabularies ─────────────────────────────

// Ids chosen so byte order, natural order and UTF-16 order disagree:
// "I10" < "I2" byte-wise; "I1-a.yaml" < "I1.yaml" while "I1" < "I1-a"; "Ｉ1" (U+FF29) sorts
// before "𝐈1" (U+1D408) in UTF-8 but after it in UTF-16.
const MILESTONE_POOL = ["M1", "M2", "M10", "M1-a", "m1", "M_2", "M3", "012", "Ｍ1", "𝐌1", "M1.b"];
const ISSUE_POOL = [
  ..."I i J".split(" ").flatMap((p) => ["1", "2", "3", "9", "10", "11", "20", "100"].map((n) => p + n)),
  "I1-a",
  "I1-b",
  "I2-x",
  "I01",
  "I_1",
  "I.5",
  "Ｉ1",
  "𝐈1",
  "é1",
];
const SCOPES = ["./lib/", "lib", "lib/x", "lib/x/y.ts", "libexec", "a*", "a", "./src", "src/", "src/a", "docs", "lib//"];
const TOKENS = ["suite", "proof", "t1", "t2", "0x1A"];
const STAMPS = [
  "2026-09-20T10:00:00Z",
  "2026-09-30T23:59:59Z",
  "2026-10-01T00:00:00Z",
  "2026-10-02T08:00:00Z",
];
// SEALED_FROM is 2026-10-01T00:00:00Z: STAMPS has two stamps before it, one at it, one after.
const PRIORITIES = ["p0", "p1", "p2", "p3", '""', "P1", "high", "1", '"p0 "', ""];
const ORDERS = ["1", "2", "3", "10", "0", "-5", '"3x"', "+4", '" 7 "', "1.0", "0x1A", "99999999", '""', "012", "-007", "+010", "-0x1A"];
const TEXTS = [
  "Make the plan derive itself",
  "A title with words",
  '"Quoted title"',
  "'single quoted'",
  '"tab\\tinside\\tit"',
  "0x1A",
  "1.0",
  "012",
  "1e3",
  ".5",
  "true",
  "False",
  "~",
  "",
  "-0",
  "0o17",
  "2026-09-11",
  '"0x1A"',
  "null",
  ".inf",
  "1e16",
  "010",
  "-007",
  "+010",
  "00",
  "-0x1A",
  "+0o17",
  "0b101",
  ".NaN",
  "+.inf",
  "yes",
  "1:20",
];

// ───────────────────────────── YAML writing helpers ─────────────────────────────

function seal(event: string, id: string, stamp: string): string {
  const hex = createHash("sha256").update(`majordomus.plan-event/v1\n${event}\n${id}\n${stamp}\n`).digest("hex");
  return `sha256:${hex}`;
}

/** A raw scalar fragment for a plain-safe string, sometimes double-quoted. */
function scalar(rng: Rng, text: string): string {
  if (text === "") return rng.chance(0.5) ? '""' : "''";
  return rng.chance(0.2) ? JSON.stringify(text) : text;
}

type ListForm = "block" | "flow" | "scalar" | "empty" | "null" | "missing" | "map";

/** Writes `key` as a list of raw item fragments in one of the forms a record may use. */
function listLines(rng: Rng, key: string, items: string[], options: { odd?: number } = {}): string[] {
  const odd = options.odd ?? 0.12;
  let form: ListForm = items.length === 0 ? rng.pick(["empty", "missing", "block"] as const) : "block";
  if (rng.chance(odd)) form = rng.pick(["flow", "scalar", "empty", "null", "missing", "map"] as const);
  else if (items.length > 0 && rng.chance(0.25)) form = "flow";
  switch (form) {
    case "block":
      return items.length === 0 ? [`${key}: []`] : [`${key}:`, ...items.map((item) => `  - ${item}`)];
    case "flow":
      return [`${key}: [${items.join(", ")}]`];
    case "scalar":
      return [`${key}: ${items.length > 0 ? items[0] : '""'}`];
    case "empty":
      return [`${key}: []`];
    case "null":
      return [rng.chance(0.5) ? `${key}:` : `${key}: ~`];
    case "missing":
      return [];
    case "map":
      return [`${key}:`, `  ${items.length > 0 ? "k" : "x"}: ${items[0] ?? "v"}`];
  }
}

function textLine(rng: Rng, key: string): string[] {
  if (rng.chance(0.05)) return [];
  return [`${key}: ${rng.pick(TEXTS)}`.trimEnd()];
}

// ───────────────────────────── record builders ─────────────────────────────

interface Plan {
  milestoneIds: string[];
  issueIds: string[];
  /** A tidy plan is mostly well-formed and mostly finished, so milestones reach DONE/VERIFY. */
  tidy: boolean;
}

function idLine(rng: Rng, id: string, others: string[]): string[] {
  const r = rng.next();
  if (r < 0.02) return []; // missing id
  if (r < 0.04) return [`id: ${rng.pick(others.filter((o) => o !== id)) ?? "X9"}`]; // mismatch
  if (r < 0.05) return ["id:"]; // null id
  if (id === "012") return [rng.pick(["id: 012", 'id: "012"', "id: '012'"])];
  if (id === "26") return [rng.pick(["id: 0x1A", "id: 26", 'id: "26"', "id: 0o32"])];
  return [`id: ${scalar(rng, id)}`];
}

function evidenceLines(rng: Rng, required: string[], tidy = false): string[] {
  const mode = tidy && rng.chance(0.8)
    ? "full"
    : rng.pick(["full", "full", "partial", "none", "dup", "extra", "nocovers", "nullcovers", "odd"]);
  let covers: string[] = [];
  if (mode === "full") covers = rng.shuffle(required);
  if (mode === "partial") covers = required.slice(0, Math.max(0, required.length - 1));
  if (mode === "dup") covers = [...required, ...required.slice(0, 1)];
  if (mode === "extra") covers = [...required, "unrelated"];
  const lines: string[] = [];
  const entries: string[][] = covers.map((token) => [
    `  - covers: ${scalar(rng, token)}`,
    `    type: ${rng.pick(["test", "build", "manual"])}`,
    ...(rng.chance(0.5) ? ['    command: "npm test"'] : []),
  ]);
  if (mode === "nocovers") entries.push(["  - type: test", '    result: "no covers here"']);
  if (mode === "nullcovers") entries.push(["  - covers:", "    type: test"]);
  if (mode === "odd") {
    const odd = rng.pick(["scalar", "map", "unknownkey", "listitem"]);
    if (odd === "scalar") return ["evidence: suite"];
    if (odd === "map") return ["evidence:", `  covers: ${required[0] ?? "suite"}`];
    if (odd === "unknownkey") entries.push([`  - covers: ${required[0] ?? "suite"}`, "    bogus: 1"]);
    if (odd === "listitem") entries.push(["  - suite"]);
  }
  if (entries.length === 0) return rng.chance(0.5) ? [] : ["evidence: []"];
  lines.push("evidence:");
  for (const entry of entries) lines.push(...entry);
  return lines;
}

function milestoneRecord(rng: Rng, id: string, plan: Plan, allowCycles: boolean): string {
  const lines: string[] = [];
  lines.push(...idLine(rng, id, plan.milestoneIds));
  lines.push(...textLine(rng, "title"));
  lines.push(`slug: ${scalar(rng, `slug-${id}`)}`);
  if (rng.chance(0.9)) lines.push(`order: ${rng.pick(ORDERS)}`);
  lines.push(`priority: ${rng.pick(PRIORITIES)}`.trimEnd());
  if (rng.chance(0.4)) lines.push(`version: ${rng.pick(['"0.6"', "0.6", "1.0", "v2", "1.10"])}`);
  if (rng.chance(0.08)) lines.push(`cancelled: ${rng.pick(["true", "True", '"true"', "yes", "false"])}`);
  if (rng.chance(0.08)) lines.push(`superseded_by: ${rng.pick([...plan.milestoneIds, '""', "M99"])}`);
  lines.push(...textLine(rng, "outcome"));
  lines.push(...textLine(rng, "problem"));

  const index = plan.milestoneIds.indexOf(id);
  const earlier = allowCycles ? plan.milestoneIds : plan.milestoneIds.slice(0, index);
  const deps: string[] = [];
  for (let n = rng.int(0, allowCycles ? 3 : 2); n > 0; n--) {
    const r = rng.next();
    if (r < 0.08) deps.push(id);
    else if (r < 0.16) deps.push("M404");
    else if (earlier.length > 0) deps.push(rng.pick(earlier));
  }
  if (deps.length > 0 && rng.chance(0.15)) deps.push(deps[0]);
  lines.push(...listLines(rng, "depends_on", deps.map((d) => scalar(rng, d))));

  const required = rng.sample(TOKENS.slice(0, 3), rng.pick([0, 0, 1, 1, 2]));
  lines.push(...listLines(rng, "evidence_required", required, { odd: 0.05 }));
  lines.push(...listLines(rng, "acceptance_criteria", ["It works end to end"], { odd: 0.05 }));
  lines.push(...listLines(rng, "validation", ["npm test"], { odd: 0.05 }));
  if (rng.chance(0.3)) lines.push(...listLines(rng, "claims", ["claim.one@1", "claim.two@2"].slice(0, rng.int(1, 2))));
  if (rng.chance(0.2)) lines.push(...listLines(rng, "scope", rng.sample(SCOPES, 2)));
  if (rng.chance(0.7)) lines.push(...evidenceLines(rng, required, plan.tidy));
  if (rng.chance(0.05)) lines.push(`status: ${rng.pick(["ACTIVE", "DONE"])}`);
  return lines.join("\n") + "\n";
}

function stampLines(
  rng: Rng,
  id: string,
  move: "start" | "verify" | "done",
  stamp: string,
  unsealed: string[],
  tidy: boolean,
): string[] {
  const field = { start: "started_at", verify: "verified_at", done: "completed_at" }[move];
  const sealField = { start: "started_event", verify: "verified_event", done: "completed_event" }[move];
  const event = { start: "plan_start", verify: "plan_verify", done: "plan_done" }[move];
  const lines = [`${field}: ${rng.chance(0.1) ? JSON.stringify(stamp) : stamp}`];
  const r = tidy && rng.chance(0.8) ? 0 : rng.next();
  if (r < 0.68) lines.push(`${sealField}: ${seal(event, id, stamp)}`);
  else if (r < 0.8) unsealed.push(`${field} ${stamp}`);
  else if (r < 0.84) unsealed.push(`${rng.pick(["started_at", "verified_at", "completed_at"])} ${stamp}`);
  else if (r < 0.9) lines.push(`${sealField}: ${seal(rng.pick(["plan_start", "plan_verify", "plan_done"]), id, rng.pick(STAMPS))}`);
  else if (r < 0.94) lines.push(`${sealField}: sha256:${"0".repeat(64)}`);
  // else: no seal at all
  return lines;
}

function issueRecord(rng: Rng, id: string, plan: Plan, allowCycles: boolean, order: string[]): string {
  const lines: string[] = [];
  lines.push(...idLine(rng, id, plan.issueIds));

  const r = rng.next();
  if (r < 0.04) {
    // no milestone key
  } else if (r < 0.07) lines.push('milestone: ""');
  else if (r < 0.1) lines.push("milestone: M404");
  else if (plan.milestoneIds.length > 0) {
    const m = rng.pick(plan.milestoneIds);
    if (m === "26") lines.push(`milestone: ${rng.pick(["0x1A", "26", '"26"', "0o32"])}`);
    else if (m === "012") lines.push(`milestone: ${rng.pick(["012", '"012"'])}`);
    else lines.push(`milestone: ${scalar(rng, m)}`);
  } else lines.push("milestone: M1");

  lines.push(...textLine(rng, "title"));
  lines.push(`slug: ${scalar(rng, `slug-${id}`)}`);
  lines.push(`priority: ${rng.pick(PRIORITIES)}`.trimEnd());
  lines.push(`profile: ${rng.pick(["implementation", "deep-work", '""', "1.0"])}`);
  if (rng.chance(0.5)) lines.push(`parallel_safe: ${rng.pick(["true", "false", "False", '"false"', "no", "~"])}`);
  if (rng.chance(0.07)) lines.push(`cancelled: ${rng.pick(["true", "TRUE", '"true"', "yes", "false"])}`);
  lines.push(...textLine(rng, "objective"));

  // Dependencies: mostly on issues earlier in a random topological order, so cycles stay rare.
  const position = order.indexOf(id);
  const earlier = allowCycles ? order : order.slice(0, position);
  const deps: string[] = [];
  for (let n = rng.pick([0, 0, 1, 1, 1, 2, 3]); n > 0; n--) {
    const roll = rng.next();
    if (roll < 0.05) deps.push(id);
    else if (roll < 0.1) deps.push(rng.pick(["I404", "M1", "i"]));
    else if (earlier.length > 0) deps.push(rng.pick(earlier));
  }
  if (deps.length > 0 && rng.chance(0.1)) deps.push(deps[deps.length - 1]);
  if (rng.chance(0.03)) lines.push('depends_on: ""');
  else lines.push(...listLines(rng, "depends_on", deps.map((d) => scalar(rng, d))));

  const scope = rng.sample(SCOPES, rng.pick([0, 1, 1, 1, 2, 3]));
  lines.push(...listLines(rng, "scope", scope.map((s) => (rng.chance(0.2) ? JSON.stringify(s) : s))));
  if (rng.chance(0.2)) lines.push(...listLines(rng, "serves", ["intent-a#c1", "intent-b#c2"].slice(0, rng.int(1, 2))));
  lines.push(...listLines(rng, "acceptance_criteria", ["Behaves as stated"], { odd: 0.1 }));
  lines.push(...listLines(rng, "validation", ["npm test", "0x1A"].slice(0, rng.int(1, 2)), { odd: 0.1 }));
  const required = rng.sample(TOKENS, rng.pick([0, 1, 1, 1, 2, 2, 3]));
  if (required.length > 0 && rng.chance(0.05)) required.push(required[0]);
  lines.push(...listLines(rng, "evidence_required", required, { odd: 0.05 }));

  // Lifecycle stamps, with seals (valid, wrong, absent) or an unsealed_stamps excuse.
  const life = plan.tidy
    ? rng.pick(["none", "start", "done", "done", "done", "done", "doneonly"])
    : rng.pick(["none", "none", "none", "start", "verify", "done", "done", "done", "doneonly", "verifyonly"]);
  const unsealed: string[] = [];
  const stamp = () => (rng.chance(0.03) ? rng.pick(['""', "2026-9-1"]) : rng.pick(STAMPS));
  const moves: Array<"start" | "verify" | "done"> =
    life === "start" ? ["start"]
    : life === "verify" ? ["start", "verify"]
    : life === "done" ? ["start", "verify", "done"]
    : life === "doneonly" ? ["done"]
    : life === "verifyonly" ? ["verify"]
    : [];
  for (const move of moves) {
    const at = stamp();
    if (at === '""') {
      lines.push(`${{ start: "started_at", verify: "verified_at", done: "completed_at" }[move]}: ""`);
      continue;
    }
    lines.push(...stampLines(rng, id, move, at, unsealed, plan.tidy));
  }
  if (rng.chance(0.05)) unsealed.push(`started_at ${rng.pick(STAMPS)}`);
  if (unsealed.length > 0) lines.push(...listLines(rng, "unsealed_stamps", unsealed.map((u) => JSON.stringify(u)), { odd: 0.05 }));
  if (rng.chance(0.85)) lines.push(...evidenceLines(rng, required, plan.tidy));
  if (rng.chance(0.3)) lines.push(`updated_at: ${rng.pick(STAMPS)}`);
  if (rng.chance(0.04)) lines.push(`status: ${rng.pick(["READY", "DONE"])}`);
  if (rng.chance(0.02)) lines.push("notes:", "  - a", "  - nested:", "      deep: 1");
  return lines.join("\n") + "\n";
}

// ───────────────────────────── breaking a record ─────────────────────────────

function breakRecord(rng: Rng, text: string): string {
  switch (rng.pick(["colon", "duplicate", "empty", "list", "scalar", "comment", "badindent", "tabindent", "twodocs"])) {
    case "colon":
      return text + "objective: this value: has an unquoted colon\n";
    case "duplicate": {
      const first = text.split("\n").find((line) => /^[a-z_]+:/.test(line) && !line.startsWith("id:")) ?? "slug: x";
      return text + first + "\n";
    }
    case "empty":
      return "";
    case "list":
      return "- a\n- b\n";
    case "scalar":
      return "just a scalar\n";
    case "comment":
      return "# only a comment\n";
    case "badindent":
      return text + "scope:\n  - a\n - b\n";
    case "tabindent":
      return text + "scope:\n\t- a\n";
    default:
      return text + "---\nid: other\n";
  }
}

// ───────────────────────────── the repository ─────────────────────────────

/** Writes a random plan repository for `seed` into `dir` (which must not exist yet or be empty). */
export function generateRepo(seed: number, dir: string): void {
  const rng = new Rng(seed);
  mkdirSync(dir, { recursive: true });
  if (rng.chance(0.02)) return; // no project folder at all: an empty plan
  const root = join(dir, ".ai", "repo", "project");
  mkdirSync(join(root, "milestones"), { recursive: true });
  mkdirSync(join(root, "issues"), { recursive: true });

  // project.yaml
  if (!rng.chance(0.1)) {
    const header = [
      "# The canonical project model.",
      "schema_version: 1",
      `name: ${rng.pick(["Demo Project", '"Quoted: Name"', "0x1A", "1.0", "~"])}`,
      `repository: ${rng.pick(["owner/repo", '"o/r"', ""])}`.trimEnd(),
      ...(rng.chance(0.9) ? [`default_branch: ${rng.pick(["main", "master", "012"])}`] : []),
      ...(rng.chance(0.08) ? ["active_milestone: M1"] : []),
    ];
    let text = header.join("\n") + "\n";
    if (rng.chance(0.04)) text = breakRecord(rng, text);
    writeFileSync(join(root, "project.yaml"), text);
  }

  const milestonePool = rng.chance(0.1) ? [...MILESTONE_POOL, "26"] : MILESTONE_POOL;
  const milestoneIds = rng.sample(milestonePool, rng.int(0, 6));
  const issueCount = rng.pick([0, 1, 3, 5, 8, 12, 16, 20, 25, 30]);
  const issueIds = rng.sample(ISSUE_POOL, issueCount);
  const plan: Plan = { milestoneIds, issueIds, tidy: rng.chance(0.3) };
  const allowIssueCycles = rng.chance(0.25);
  const allowMilestoneCycles = rng.chance(0.3);
  const breakRate = plan.tidy ? 0.01 : 0.04;
  const issueOrder = rng.shuffle(issueIds);

  for (const id of milestoneIds) {
    let text = milestoneRecord(rng, id, plan, allowMilestoneCycles);
    if (rng.chance(breakRate)) text = breakRecord(rng, text);
    writeFileSync(join(root, "milestones", `${id}.yaml`), text);
  }
  for (const id of issueIds) {
    let text = issueRecord(rng, id, plan, allowIssueCycles, issueOrder);
    if (rng.chance(breakRate * 0.75)) text = breakRecord(rng, text);
    writeFileSync(join(root, "issues", `${id}.yaml`), text);
  }
  // An issue file reusing a milestone id.
  if (milestoneIds.length > 0 && rng.chance(0.08)) {
    const id = rng.pick(milestoneIds);
    writeFileSync(join(root, "issues", `${id}.yaml`), issueRecord(rng, id, plan, false, [id]));
  }
  // Files that are not records.
  if (rng.chance(0.1)) writeFileSync(join(root, "issues", "README.md"), "# Issues\n");
  if (rng.chance(0.05)) writeFileSync(join(root, "milestones", "notes.yml"), "id: notes\n");
}
