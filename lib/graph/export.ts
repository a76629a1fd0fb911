import type { Plan, PlanIssue } from "../plan/shapes";
import { ownValue } from "../plan/own";

// The waves graph as text other tools draw: Mermaid (for Markdown) and Graphviz DOT.

// Record text is data in both formats: it may end no string, start no line and name no node.
// Control characters, line and paragraph separators and the bidirectional overrides.
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

// One-to-one: `_` is escaped too, so two ids never share a node name (`a-` and `a_2d_` differ).
const mermaidId = (id: string) => `n_${id.replace(/[^A-Za-z0-9]/g, (c) => `_${c.charCodeAt(0).toString(16)}_`)}`;
// Inside `["…"]` Mermaid reads its entity codes (`#quot;`, `#35;`, decimal `#N;`): `"` would end the
// label, a newline the statement, `#` and `&` an entity, `<>` HTML, a backtick Markdown.
const mermaidText = (s: string) => s.replace(/["#&<>`]/g, (c) => `#${c.charCodeAt(0)};`).replace(CONTROLS, (c) => `#${c.charCodeAt(0)};`);
// A DOT quoted string ends only at an unescaped `"`; `\` would start an escString (`\N`, `\G`), and
// Graphviz reads HTML entities in labels, so `&` and every control character are entities.
const dotString = (s: string) =>
  `"${s
    .replace(/\\/g, "\\\\")
    .replace(/"/g, '\\"')
    .replace(/&/g, "&amp;")
    .replace(/\n/g, "\\n")
    .replace(CONTROLS, (c) => `&#${c.charCodeAt(0)};`)}"`;

/** Each issue status's colour, in the exports and on the graph's minimap. */
export const STATUS_COLOURS: Record<string, string> = {
  READY: "#16a34a",
  BLOCKED: "#dc2626",
  ACTIVE: "#2563eb",
  VERIFY: "#d97706",
  DONE: "#64748b",
  CANCELLED: "#a1a1aa",
};

function waveGroups(plan: Plan, issues: readonly PlanIssue[]): { label: string; ids: string[] }[] {
  const wanted = new Set(issues.map((i) => i.id));
  const groups = plan.waves
    .map((w) => ({ label: `Wave ${w.wave}`, ids: w.issues.filter((id) => wanted.has(id)) }))
    .filter((g) => g.ids.length);
  const placed = new Set(plan.waves.flatMap((w) => w.issues));
  const cyclic = issues.filter((i) => !placed.has(i.id)).map((i) => i.id);
  if (cyclic.length) groups.push({ label: "In a cycle", ids: cyclic });
  return groups;
}

function edgesWithin(plan: Plan, issues: readonly PlanIssue[]) {
  const wanted = new Set(issues.map((i) => i.id));
  return plan.edges.filter((e) => wanted.has(e.from) && wanted.has(e.to));
}

export function toMermaid(plan: Plan, issues: readonly PlanIssue[] = plan.issues): string {
  const byId = new Map(plan.issues.map((i) => [i.id, i]));
  const lines = ["flowchart LR"];
  waveGroups(plan, issues).forEach((g, k) => {
    lines.push(`  subgraph w${k}["${mermaidText(g.label)}"]`);
    for (const id of g.ids) {
      const i = byId.get(id)!;
      lines.push(`    ${mermaidId(id)}["${mermaidText(`${id} ${i.status}`)}<br/>${mermaidText(i.title)}"]:::${i.status.toLowerCase()}`);
    }
    lines.push("  end");
  });
  for (const e of edgesWithin(plan, issues)) lines.push(`  ${mermaidId(e.from)} --> ${mermaidId(e.to)}`);
  for (const [status, colour] of Object.entries(STATUS_COLOURS)) {
    lines.push(`  classDef ${status.toLowerCase()} stroke:${colour},stroke-width:2px`);
  }
  return lines.join("\n") + "\n";
}

export function toDot(plan: Plan, issues: readonly PlanIssue[] = plan.issues): string {
  const byId = new Map(plan.issues.map((i) => [i.id, i]));
  const lines = ["digraph waves {", "  rankdir=LR;", '  node [shape=box, style="rounded"];'];
  waveGroups(plan, issues).forEach((g, k) => {
    lines.push(`  subgraph cluster_${k} {`, `    label=${dotString(g.label)};`);
    for (const id of g.ids) {
      const i = byId.get(id)!;
      lines.push(`    ${dotString(id)} [label=${dotString(`${id} ${i.status}\n${i.title}`)}, color=${dotString(ownValue(STATUS_COLOURS, i.status) ?? "#000000")}];`);
    }
    lines.push("  }");
  });
  for (const e of edgesWithin(plan, issues)) lines.push(`  ${dotString(e.from)} -> ${dotString(e.to)};`);
  lines.push("}");
  return lines.join("\n") + "\n";
}
