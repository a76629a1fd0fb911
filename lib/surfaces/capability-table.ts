import { z } from "zod";
import { capabilities, cliCommand, httpMethod, httpPath, mcpToolName, PLAN_RESOURCE_URI, type AnyCapability } from "../capabilities/index";

// The table of docs/http-and-mcp.md that names every capability on every surface, made from the
// registry by the same rule the surfaces use (`npm run docs` writes it; tests/docs/generated.test.ts
// fails when the page and the registry differ).

export const TABLE_START = "<!-- capabilities: made by `npm run docs` from lib/capabilities/; do not edit by hand -->";
export const TABLE_END = "<!-- end of capabilities -->";

/** The input's fields (query parameters of a GET, the JSON body of a POST); `?` marks an optional one. */
function inputOf(c: AnyCapability): string {
  const schema = z.toJSONSchema(c.input, { unrepresentable: "any", io: "input" }) as { properties?: object; required?: string[] };
  const required = new Set(schema.required ?? []);
  return Object.keys(schema.properties ?? {})
    .map((name) => `\`${name}${required.has(name) ? "" : "?"}\``)
    .join(" ");
}

/** The lines between TABLE_START and TABLE_END. */
export function capabilityTable(): string[] {
  return [
    TABLE_START,
    "",
    "| capability | HTTP | input | MCP tool | command |",
    "| --- | --- | --- | --- | --- |",
    ...capabilities.map((c) => {
      const tool = c.id === "plan.model" ? `\`${mcpToolName(c)}\`, resource \`${PLAN_RESOURCE_URI}\`` : `\`${mcpToolName(c)}\``;
      return `| \`${c.id}\` | \`${httpMethod(c)} ${httpPath(c)}\` | ${inputOf(c) || "none"} | ${tool} | \`${cliCommand(c)}\` |`;
    }),
    "",
    TABLE_END,
  ];
}

/** `page` with its capability table made again from the registry (the page must hold the two markers). */
export function withCapabilityTable(page: string): string {
  const start = page.indexOf(TABLE_START);
  const end = page.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`the page has no capability table: put the lines\n${TABLE_START}\n${TABLE_END}\nwhere it goes`);
  return page.slice(0, start) + capabilityTable().join("\n") + page.slice(end + TABLE_END.length);
}
