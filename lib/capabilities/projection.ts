import type { AnyCapability } from "./capability";

// The one rule that names a capability on every surface: `plan.next` is GET /api/v1/plan/next, the
// MCP tool majordomus_plan_next and `cockpit plan next`; a trailing `.model` is the bare noun
// (`plan.model` is GET /api/v1/plan and majordomus_plan, plus the resource majordomus://plan);
// the command line spells an underscore as a hyphen.

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

export function mcpToolName(c: Pick<AnyCapability, "id">): string {
  return `majordomus_${segments(c.id).join("_")}`;
}

/** Command-line words are kebab-case: `plan.critical_path` is `cockpit plan critical-path`. */
export function cliCommand(c: Pick<AnyCapability, "id">): string {
  return `cockpit ${c.id.split(".").join(" ").replaceAll("_", "-")}`;
}

/** MCP resources: the whole plan, readable as a document. */
export const PLAN_RESOURCE_URI = "majordomus://plan";
