import { z } from "zod";
import { capabilities, cliCommand, httpMethod, httpPath, mcpToolName } from "../capabilities/index";
import { hintsOf } from "./mcp-annotations";

// docs/capabilities.md, written from the registry (`npm run docs:capabilities`); a test compares
// the page with this text, so a capability added, renamed or redescribed shows there.

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

function fields(c: (typeof capabilities)[number]): string {
  const json = z.toJSONSchema(c.input, { unrepresentable: "any", io: "input" }) as { properties?: Record<string, unknown>; required?: string[] };
  const required = new Set(json.required ?? []);
  const names = Object.keys(json.properties ?? {}).map((k) => `\`${k}\`${required.has(k) ? "" : "?"}`);
  return names.length ? names.join(", ") : "none";
}

export function capabilitiesMarkdown(): string {
  const lines = [
    "# Capabilities",
    "",
    "Every capability the registry declares, and where each surface serves it. Written from the",
    "registry by `npm run docs:capabilities`; a test fails when this page and the registry differ.",
    "Inputs marked `?` are optional. The schemas in full: `GET /api/v1/openapi.json` (HTTP) and",
    "`tools/list` (MCP). A query reads and writes nothing; a command changes the records (or the",
    "execution plans) and needs a caller where the doors say so ([security.md](security.md)).",
    "",
    "| capability | kind | HTTP | MCP tool | command line | inputs | what it does |",
    "|---|---|---|---|---|---|---|",
  ];
  for (const c of capabilities) {
    lines.push(`| \`${c.id}\` | ${c.kind} | \`${httpMethod(c)} ${httpPath(c)}\` | \`${mcpToolName(c)}\` | \`${cliCommand(c)}\` | ${fields(c)} | ${cell(c.description)} |`);
  }
  lines.push("", "## MCP hints", "", "What each command tool tells an MCP client (every query is read-only, idempotent and closed-world).", "");
  lines.push("| tool | destructive | idempotent | open world | why |", "|---|---|---|---|---|");
  for (const c of capabilities.filter((k) => k.kind === "command")) {
    const h = hintsOf(c);
    lines.push(`| \`${mcpToolName(c)}\` | ${h.destructiveHint ? "yes" : "no"} | ${h.idempotentHint ? "yes" : "no"} | ${h.openWorldHint ? "yes" : "no"} | ${cell(h.why)} |`);
  }
  return `${lines.join("\n")}\n`;
}
