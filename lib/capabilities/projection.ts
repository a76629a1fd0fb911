import type { AnyCapability } from "./capability";

// The one rule that names a capability on every surface: `plan.next` is GET /api/v1/plan/next, the
// MCP tool plan_next and `cockpit plan next`; a trailing `.model` is the bare noun (`plan.model`
// is GET /api/v1/plan and the tool plan, plus the resource cockpit://plan); the command line
// spells an underscore as a hyphen. For clients written for the reference, MCP also serves its
// names (`--reference-names`): majordomus_plan_next, majordomus_plan, majordomus://plan.

function segments(id: string): string[] {
  const parts = id.split(".");
  return parts[parts.length - 1] === "model" ? parts.slice(0, -1) : parts;
}

export function httpPath(c: Pick<AnyCapability, "id">): string {
  return `/api/v1/${segments(c.id).join("/")}`;
}

export function httpMethod(c: Pick<AnyCapability, "kind">): "GET" | "POST" {
  return c.kind === "command" ? "POST" : "GET";
}

/** Which names an MCP server gives its tools: its own (`plan_next`), or the reference's (`majordomus_plan_next`). */
export type McpNames = "cockpit" | "reference";

export function mcpToolName(c: Pick<AnyCapability, "id">, names: McpNames = "cockpit"): string {
  const name = segments(c.id).join("_");
  return names === "reference" ? `majordomus_${name}` : name;
}

/** Command-line words are kebab-case: `plan.critical_path` is `cockpit plan critical-path`. */
export function cliCommand(c: Pick<AnyCapability, "id">): string {
  return `cockpit ${c.id.split(".").join(" ").replaceAll("_", "-")}`;
}

/** MCP resources: the whole plan, readable as a document. */
export const PLAN_RESOURCE_URI = "cockpit://plan";
/** The same resource under the reference's names. */
export const REFERENCE_PLAN_RESOURCE_URI = "majordomus://plan";

export function planResourceUri(names: McpNames = "cockpit"): string {
  return names === "reference" ? REFERENCE_PLAN_RESOURCE_URI : PLAN_RESOURCE_URI;
}
