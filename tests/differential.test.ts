// Differential test: lib/plan (`loadPlan`) against an independent oracle written from the spec
// (tests/oracle/derive.ts), on random repositories (tests/oracle/generate.ts) and the real corpus.
// Both sides must agree on deep equality and on JSON key order.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { loadPlan } from "@/lib/repo";
import { oracleModel } from "./oracle/derive";
import { generateRepo } from "./oracle/generate";

const SEED_COUNT = 400;
const SEEDS = Array.from({ length: SEED_COUNT }, (_, index) => index + 1);
const CORPUS = fileURLToPath(new URL("./fixtures/majordomus", import.meta.url));

const scratch = mkdtempSync(join(tmpdir(), "plan-differential-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The text of an `unreadable_record` message is the parser's own wording, which no spec fixes. */
function comparable(plan: unknown): unknown {
  const copy = JSON.parse(JSON.stringify(plan)) as { findings?: Array<Record<string, unknown>> };
  for (const finding of copy.findings ?? []) {
    if (finding.code === "unreadable_record") finding.message = "<parser message>";
  }
  return copy;
}

/** Items only one side has, by a longest-common-subsequence alignment of two arrays. */
function sequenceDiff(actual: unknown[], expected: unknown[]): string[] {
  const a = actual.map((item) => JSON.stringify(item));
  const e = expected.map((item) => JSON.stringify(item));
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(e.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = e.length - 1; j >= 0; j--) {
      lcs[i][j] = a[i] === e[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < e.length) {
    if (i < a.length && j < e.length && a[i] === e[j]) {
      i++;
      j++;
    } else if (j < e.length && (i === a.length || lcs[i][j + 1] >= lcs[i + 1][j])) {
      out.push(`[${j}] only in oracle: ${e[j].slice(0, 300)}`);
      j++;
    } else {
      out.push(`[${i}] only in lib: ${a[i].slice(0, 300)}`);
      i++;
    }
  }
  return out;
}

/** The first few paths where two JSON values differ (values or key order). */
function differences(actual: unknown, expected: unknown, path = "$", out: string[] = [], limit = 8): string[] {
  if (out.length >= limit) return out;
  const show = (value: unknown) => JSON.stringify(value)?.slice(0, 300);
  if (Array.isArray(actual) && Array.isArray(expected)) {
    if (actual.length !== expected.length) {
      for (const line of sequenceDiff(actual, expected)) {
        if (out.length >= limit) break;
        out.push(`${path}${line}`);
      }
      return out;
    }
    for (let i = 0; i < Math.max(actual.length, expected.length); i++) {
      if (i >= actual.length) out.push(`${path}[${i}]: lib has nothing, oracle ${show(expected[i])}`);
      else if (i >= expected.length) out.push(`${path}[${i}]: lib ${show(actual[i])}, oracle has nothing`);
      else differences(actual[i], expected[i], `${path}[${i}]`, out, limit);
      if (out.length >= limit) break;
    }
    return out;
  }
  if (actual && expected && typeof actual === "object" && typeof expected === "object") {
    const a = actual as Record<string, unknown>;
    const e = expected as Record<string, unknown>;
    const aKeys = Object.keys(a);
    const eKeys = Object.keys(e);
    if (aKeys.join(",") !== eKeys.join(",")) out.push(`${path}: keys lib [${aKeys}] vs oracle [${eKeys}]`);
    for (const key of eKeys) {
      if (key in a) differences(a[key], e[key], `${path}.${key}`, out, limit);
      if (out.length >= limit) break;
    }
    return out;
  }
  if (JSON.stringify(actual) !== JSON.stringify(expected)) {
    out.push(`${path}: lib ${show(actual)} vs oracle ${show(expected)}`);
  }
  return out;
}

async function compare(dir: string, label: string): Promise<void> {
  const actual = comparable(await loadPlan(dir));
  const expected = comparable(oracleModel(dir));
  if (JSON.stringify(actual) !== JSON.stringify(expected)) {
    // A short, path-level diff instead of a full dump of two large plans.
    expect.fail(`${label}: lib/plan and the oracle disagree\n  ${differences(actual, expected).join("\n  ")}`);
  }
  expect(actual, label).toEqual(expected);
  expect(JSON.stringify(actual), `${label} (JSON key order)`).toBe(JSON.stringify(expected));
}

/** Hand-written repositories for disagreements found while triaging, one rule each. */
const TARGETED: Array<{ rule: string; files: Record<string, string | Buffer>; unreadable?: string[] }> = [
  {
    rule: "a mapping where acceptance_criteria/validation lists are expected reads as an empty list (§1.2, §4)",
    files: {
      "milestones/M1.yaml": "id: M1\n",
      "issues/I1.yaml":
        "id: I1\nmilestone: M1\nacceptance_criteria:\n  k: Behaves as stated\nvalidation: {}\nevidence_required: [proof]\n",
    },
  },
  {
    rule: "order is trimmed as Rust's str::trim does: U+0085 is whitespace, U+FEFF is not (§1.2 order_of)",
    files: {
      "milestones/M1.yaml": 'id: M1\norder: "\\N7"\n',
      "milestones/M2.yaml": 'id: M2\norder: "\\uFEFF3"\n',
    },
  },
  {
    rule: "order is an i64: the active-milestone key keeps every digit (§2.9, §7)",
    files: {
      "milestones/M3.yaml": "id: M3\norder: 9007199254740993\n",
      "milestones/M4.yaml": "id: M4\norder: 9007199254740992\n",
    },
  },
  {
    rule: "an implicit key longer than 1024 characters does not parse (YAML 1.2 §7.4; libyaml)",
    files: {
      "milestones/M1.yaml": `id: M1\n${"k".repeat(1100)}: v\n`,
    },
  },
  {
    rule: 'keys "1" (a string) and 1 (an integer) are two keys, not a duplicate (YAML node equality; serde_yaml)',
    files: {
      "milestones/M1.yaml": 'id: M1\n"1": a\n1: b\n',
    },
  },
  {
    rule: "a record that is not valid UTF-8 does not parse (libyaml refuses it; nothing is silently replaced)",
    files: {
      "milestones/M1.yaml": Buffer.from("id: M1\ntitle: caf\xe9\n", "latin1"),
    },
  },
  {
    rule: "plain scalars are typed by the YAML 1.2 core schema: 010 is 10, -0x1A and 0b101 are text, .NaN as written (§1.2)",
    files: {
      "milestones/M1.yaml": "id: M1\norder: 010\ntitle: .NaN\nversion: +.inf\n",
      "milestones/M2.yaml": "id: M2\norder: -007\ntitle: 0b101\n",
      "issues/I1.yaml": "id: I1\nmilestone: M1\ndepends_on: [010, -007, +010, 00, 0o17, 0x1A, -0x1A, +0o17, 0b101, yes, 1:20]\n",
      "issues/010.yaml": "id: 010\nmilestone: M1\n",
    },
  },
  {
    rule: "010 and 10 are one key (the integer 10), so a mapping holding both does not parse (§1.2)",
    files: {
      "milestones/M1.yaml": "id: M1\n10: a\n010: b\n",
      "milestones/M2.yaml": 'id: M2\n"010": a\n010: b\n',
    },
  },
  {
    rule: "a record beyond its limits is unreadable: the alias bomb, 10,001 values, 1,001 aliases, 1 MiB + 1 byte (README)",
    files: {
      "milestones/M1.yaml": "id: M1\n",
      "issues/I1.yaml": aliasBomb("I1"),
      // The mapping, id, milestone and scope are 4 values; then the items.
      "issues/I2.yaml": `id: I2\nmilestone: M1\nscope: [${Array(10_000 - 4).fill("a").join(", ")}]\n`,
      "issues/I3.yaml": `id: I3\nmilestone: M1\nscope: [${Array(10_000 - 3).fill("a").join(", ")}]\n`,
      "issues/I4.yaml": `id: I4\nmilestone: M1\nl: &l x\nscope: [${Array(1_000).fill("*l").join(", ")}]\n`,
      "issues/I5.yaml": `id: I5\nmilestone: M1\nl: &l x\nscope: [${Array(1_001).fill("*l").join(", ")}]\n`,
      "issues/I6.yaml": sized("id: I6\nmilestone: M1\nobjective: ", 1024 * 1024),
      "issues/I7.yaml": sized("id: I7\nmilestone: M1\nobjective: ", 1024 * 1024 + 1),
    },
    unreadable: ["I1", "I3", "I5", "I7"],
  },
];

/** Eight levels of aliases, each repeating the one below ten times: 10^8 scope entries. */
function aliasBomb(id: string): string {
  const lines = [`id: ${id}`, "milestone: M1", "l0: &l0 [a, a, a, a, a, a, a, a, a, a]"];
  for (let i = 1; i <= 8; i++) lines.push(`l${i}: &l${i} [${Array(10).fill(`*l${i - 1}`).join(", ")}]`);
  return `${lines.join("\n")}\nscope: *l8\n`;
}

/** A record of exactly `bytes` bytes: `head` and a long value. */
function sized(head: string, bytes: number): string {
  return head + "x".repeat(bytes - head.length - 1) + "\n";
}

function writeRepo(dir: string, files: Record<string, string | Buffer>): void {
  for (const [path, content] of Object.entries(files)) {
    const full = join(dir, ".ai", "repo", "project", path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
}

describe("lib/plan agrees with the spec oracle", () => {
  it.each(SEEDS)("random plan, seed %i", async (seed) => {
    const dir = join(scratch, `seed-${seed}`);
    generateRepo(seed, dir);
    try {
      await compare(dir, `seed ${seed} (regenerate: generateRepo(${seed}, dir))`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each(TARGETED.map((c, index) => [index + 1, c.rule, c.files, c.unreadable] as const))(
    "targeted case %i: %s",
    async (index, rule, files, unreadable) => {
      const dir = join(scratch, `targeted-${index}`);
      writeRepo(dir, files);
      try {
        await compare(dir, `targeted case ${index} (${rule})`);
        if (unreadable) {
          const subjects = (await loadPlan(dir)).findings.filter((f) => f.code === "unreadable_record").map((f) => f.subject);
          expect(subjects).toEqual(unreadable);
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it("the real majordomus corpus", async () => {
    await compare(CORPUS, "tests/fixtures/majordomus");
  });
});
