import { describe, expect, it } from "vitest";
import { derivePlan } from "../plan/derive";
import { makeIssue, makeMilestone, records } from "@/tests/support/records";
import { toDot, toMermaid } from "./export";

// Titles and ids are data in the exports: whatever they hold, every line of the output is one of
// the statements the exporter writes, each label reads back as the record's text, and no record
// adds a node, an edge or a line.

const HOSTILE_TITLES = [
  '"]\n  X-->Y',
  '"];\n  "X" -> "Y";\n  "Z" [label="pwned',
  "end\nflowchart TB\n  click n_A call alert()",
  "#quot; &amp; &#34; <b>bold</b> `code` %% comment \\N \\G \\",
  "NUL\u0000 ESC\u001b[31m DEL\u007f C1\u009b CR\r TAB\t LS\u2028 RLO\u202e",
];

const plan = derivePlan(
  records({
    milestones: [makeMilestone({ id: "M1" })],
    issues: [
      makeIssue({ id: "A", title: HOSTILE_TITLES[0] }),
      makeIssue({ id: "B", title: HOSTILE_TITLES[1], depends_on: ["A"] }),
      makeIssue({ id: "C", title: HOSTILE_TITLES[2], depends_on: ["B"] }),
      makeIssue({ id: "a-", title: HOSTILE_TITLES[3] }),
      makeIssue({ id: "a_2d_", title: HOSTILE_TITLES[4], depends_on: ["a-"] }),
      makeIssue({ id: 'q"]\n  Q-->R', title: "an id that tries too" }),
    ],
  }),
);

const ID = "n_[A-Za-z0-9_]+";
const MERMAID_LINE = [
  /^flowchart LR$/,
  /^  subgraph w\d+\["[^"\n]*"\]$/,
  new RegExp(`^    ${ID}\\["([^"\\n]*)"\\]:::[a-z]+$`),
  /^  end$/,
  new RegExp(`^  (${ID}) --> (${ID})$`),
  /^  classDef [a-z]+ stroke:#[0-9a-f]{6},stroke-width:2px$/,
];
const decodeMermaid = (s: string) => s.replace(/#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)));

const Q = '"(?:[^"\\\\\\n]|\\\\.)*"';
const DOT_LINE = [
  /^digraph waves \{$/,
  /^  rankdir=LR;$/,
  /^  node \[shape=box, style="rounded"\];$/,
  /^  subgraph cluster_\d+ \{$/,
  new RegExp(`^    label=${Q};$`),
  new RegExp(`^    (${Q}) \\[label=(${Q}), color="#[0-9a-f]{6}"\\];$`),
  /^  \}$/,
  new RegExp(`^  (${Q}) -> (${Q});$`),
  /^\}$/,
];
const decodeDot = (quoted: string) =>
  quoted
    .slice(1, -1)
    .replace(/\\(.)/g, (_, c: string) => (c === "n" ? "\n" : c))
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)))
    .replace(/&amp;/g, "&");

describe("Mermaid export of hostile record text", () => {
  const text = toMermaid(plan);
  const lines = text.trimEnd().split("\n");

  it("writes only its own statements: no title or id ends a label or starts a line", () => {
    for (const line of lines) expect(MERMAID_LINE.some((re) => re.test(line)), line).toBe(true);
  });

  it("has one node per issue and one edge per dependency, however the titles read", () => {
    expect(lines.filter((l) => MERMAID_LINE[2].test(l))).toHaveLength(plan.issues.length);
    const edges = lines.filter((l) => MERMAID_LINE[4].test(l));
    expect(edges).toHaveLength(plan.edges.length);
    expect(text).not.toMatch(/X-->Y|Q-->R/);
  });

  it("gives two ids two node names (the id escape is one-to-one)", () => {
    const names = lines.map((l) => new RegExp(`^    (${ID})\\[`).exec(l)?.[1]).filter(Boolean);
    expect(new Set(names).size).toBe(plan.issues.length);
  });

  it("reads each label back as the record's id, status and title", () => {
    const labels = lines.map((l) => MERMAID_LINE[2].exec(l)?.[1]).filter((l): l is string => l !== undefined);
    const shown = labels.map((l) => decodeMermaid(l.replace("<br/>", "\n")));
    for (const i of plan.issues) expect(shown).toContain(`${i.id} ${i.status}\n${i.title}`);
  });
});

describe("DOT export of hostile record text", () => {
  const text = toDot(plan);
  const lines = text.trimEnd().split("\n");

  it("writes only its own statements: no title or id ends a string or starts a line", () => {
    for (const line of lines) expect(DOT_LINE.some((re) => re.test(line)), line).toBe(true);
  });

  it("has one node per issue and one edge per dependency, between the issues' own ids", () => {
    const nodes = lines.map((l) => DOT_LINE[5].exec(l)).filter((m): m is RegExpExecArray => m !== null);
    expect(nodes.map((m) => decodeDot(m[1])).sort()).toEqual(plan.issues.map((i) => i.id).sort());
    const edges = lines.map((l) => DOT_LINE[7].exec(l)).filter((m): m is RegExpExecArray => m !== null);
    expect(edges.map((m) => [decodeDot(m[1]), decodeDot(m[2])]).sort()).toEqual(plan.edges.map((e) => [e.from, e.to]).sort());
  });

  it("reads each label back as the record's id, status and title, with no raw control character", () => {
    const nodes = lines.map((l) => DOT_LINE[5].exec(l)).filter((m): m is RegExpExecArray => m !== null);
    for (const i of plan.issues) expect(nodes.map((m) => decodeDot(m[2]))).toContain(`${i.id} ${i.status}\n${i.title}`);
    expect(text.replace(/\n/g, "")).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  });
});
