import { z } from "zod";
import { capabilities, httpMethod, httpPath } from "../capabilities/index";
import { COCKPIT_VERSION } from "../version";

const ERROR = {
  type: "object",
  required: ["error"],
  properties: {
    error: {
      type: "object",
      required: ["code", "message"],
      properties: { code: { type: "string" }, message: { type: "string" } },
    },
  },
};

function schemaOf(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { target: "draft-2020-12", unrepresentable: "any", io: "input" }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

/** The OpenAPI 3.1 document of the HTTP surface, generated from the capability declarations. */
export function openApiDocument(): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const c of capabilities) {
    const input = schemaOf(c.input);
    const responses: Record<string, unknown> = {
      "200": { description: c.title, content: { "application/json": { schema: schemaOf(c.output) } } },
      "400": { description: "invalid input: what is wrong, in words", content: { "application/json": { schema: ERROR } } },
      "404": { description: "no such record", content: { "application/json": { schema: ERROR } } },
      "405": { description: "wrong method", content: { "application/json": { schema: ERROR } } },
      "500": { description: "internal error", content: { "application/json": { schema: ERROR } } },
    };
    const operation: Record<string, unknown> = {
      operationId: c.id,
      summary: c.title,
      description: c.description,
      responses,
    };
    if (httpMethod(c) === "GET") {
      const properties = (input.properties ?? {}) as Record<string, Record<string, unknown>>;
      const required = new Set((input.required as string[] | undefined) ?? []);
      operation.parameters = Object.entries(properties).map(([name, schema]) => ({
        name,
        in: "query",
        required: required.has(name),
        description: schema.description,
        schema,
      }));
    } else {
      operation.requestBody = { required: true, content: { "application/json": { schema: input } } };
      responses["401"] = { description: "missing or wrong bearer token", content: { "application/json": { schema: ERROR } } };
      responses["403"] = { description: "a command from another origin", content: { "application/json": { schema: ERROR } } };
      responses["422"] = { description: "refused: the model forbids the move; the message names what is in the way", content: { "application/json": { schema: ERROR } } };
    }
    paths[httpPath(c)] = { [httpMethod(c).toLowerCase()]: operation };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Cockpit",
      version: COCKPIT_VERSION,
      description: "A repository's plan, derived from its records: statuses, waves, roadmap, next issue, findings; and the moves that change it.",
    },
    paths,
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer", description: "COCKPIT_TOKEN; required for commands when the server is bound beyond loopback" } },
    },
  };
}
