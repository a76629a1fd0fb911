import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { AnyCapability } from "../capabilities/capability";
import { capabilities, mcpToolName, type McpNames } from "../capabilities/index";
import { AsWrittenMembers } from "../capabilities/record-as-written";
import { RevisionSchema } from "../plan/history-shapes";
import { PlanIssueSchema, PlanMilestoneSchema } from "../plan/shapes";
import { annotationsOf } from "./mcp-annotations";
import { mcpDescription, mcpInputWords } from "./mcp-words";
import { inputJsonSchema, outputJsonSchema, shapeNames, type JsonSchema } from "./mcp-schemas";
import { NAMED_SCHEMAS } from "./openapi-names";

// What tools/list answers: one tool per capability, with its name, title, a description a model
// reads, its strict input schema and its output schema (lib/surfaces/mcp-schemas.ts), and its hints.
// Made once per process for each way of naming the tools.

/** MCP wants an object at the top of an output schema; plan.record's union is spelt as one object. */
const RecordOutputForMcp = z.object({
  milestone: PlanMilestoneSchema.optional(),
  issues: z.array(PlanIssueSchema).optional(),
  issue: PlanIssueSchema.optional(),
  depends_on: z.array(PlanIssueSchema).optional(),
  at: RevisionSchema.optional(),
  ...AsWrittenMembers,
});

/** The output schema a tool lists: its capability's, an object at the top. */
export function mcpOutputSchema(c: AnyCapability): z.ZodType {
  if (c.output instanceof z.ZodObject) return c.output;
  return c.id === "plan.record" ? RecordOutputForMcp : unionAsOneObject(c.output);
}

/**
 * A union of objects spelt as one object whose every member is optional (plan.code's two answers,
 * plan.edit's one record or batch, plans.create's plan or dry run); a member two shapes give
 * differently is either.
 */
function unionAsOneObject(schema: z.ZodType): z.ZodObject {
  const fields = new Map<string, z.ZodType[]>();
  const options = schema instanceof z.ZodUnion ? (schema.options as z.ZodType[]) : [];
  for (const option of options) {
    if (!(option instanceof z.ZodObject)) continue;
    for (const [key, field] of Object.entries(option.shape as Record<string, z.ZodType>)) fields.set(key, [...(fields.get(key) ?? []), field]);
  }
  const shape: Record<string, z.ZodType> = {};
  for (const [key, given] of fields) shape[key] = (given.length === 1 ? given[0] : z.union(given as [z.ZodType, z.ZodType, ...z.ZodType[]])).optional();
  return z.object(shape);
}

/** The argument every command tool takes besides its capability's input: who acts (docs/agents.md). */
const ACTOR_ARGUMENT: JsonSchema = { type: "string" };

/** One tool as tools/list gives it. */
function toolOf(c: AnyCapability, names: McpNames, shapes: ReadonlyMap<string, string>): Tool {
  return {
    name: mcpToolName(c, names),
    title: c.title,
    description: mcpDescription(c),
    inputSchema: inputJsonSchema(c.input, { words: mcpInputWords(c), extra: c.kind === "command" ? { actor: ACTOR_ARGUMENT } : {} }) as Tool["inputSchema"],
    outputSchema: outputJsonSchema(mcpOutputSchema(c), shapes) as Tool["outputSchema"],
    annotations: annotationsOf(c),
  };
}

const listings = new Map<McpNames, Tool[]>();

/** Every tool, as tools/list answers it under these names: made on the first call, then kept. */
export function mcpTools(names: McpNames = "cockpit"): Tool[] {
  let tools = listings.get(names);
  if (!tools) {
    const shapes = shapeNames(NAMED_SCHEMAS);
    // Frozen: every server of the process answers with these very objects.
    tools = deepFreeze(capabilities.map((c) => toolOf(c, names, shapes)));
    listings.set(names, tools);
  }
  return tools;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
