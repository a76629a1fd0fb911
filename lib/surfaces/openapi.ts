import { z } from "zod";
import type { AnyCapability } from "../capabilities/capability";
import { capabilities, httpMethod, httpPath } from "../capabilities/index";
import { COCKPIT_VERSION } from "../version";
import { NAMED_SCHEMAS } from "./openapi-names";
import type { ServerSecurity } from "../server/security";

// The OpenAPI 3.1 document of the HTTP surface, generated from the capability declarations: every
// shape a named component (from the zod schemas), every status an operation can answer, the doors.

const COMPONENTS = "#/components/schemas/";
const ref = (name: string) => ({ $ref: `${COMPONENTS}${name}` });

const ERROR_SCHEMA = {
  type: "object",
  description: "Every error: a code and what to fix, in words. A refusal may carry more (the findings in the way, the current version).",
  required: ["error"],
  properties: {
    error: {
      type: "object",
      required: ["code", "message"],
      properties: {
        code: {
          type: "string",
          enum: ["invalid_input", "not_found", "refused", "conflict", "internal", "method_not_allowed", "unauthorized", "forbidden", "too_large", "too_many_requests"],
        },
        message: { type: "string" },
      },
    },
  },
};

const header = (description: string, schema: Record<string, unknown> = { type: "string" }) => ({ description, schema });

/** A status every operation can answer, whatever it is. */
function commonResponses(): Record<string, unknown> {
  const error = (description: string, headers?: Record<string, unknown>) => ({
    description,
    ...(headers ? { headers } : {}),
    content: { "application/json": { schema: ref("Error") } },
  });
  return {
    "400": error("invalid input: what is wrong, in words"),
    "401": error("missing or wrong bearer token (or session)", { "WWW-Authenticate": header("Bearer realm=\"cockpit\"") }),
    "403": error("a foreign Host, or a command from another origin"),
    "404": error("no such record, milestone or route; the message names the nearest known ids"),
    "405": error("wrong method", { Allow: header("The one method the route takes.") }),
    "429": error("too many wrong tokens from this address", { "Retry-After": header("Seconds to wait.", { type: "integer", minimum: 0 }) }),
    "431": error("request headers too large"),
    "500": error("internal error; the server log has the details"),
  };
}

/** Which capability takes an edit's version (`if_version`), and so `If-Match` and answers 409. */
function takesVersion(c: AnyCapability): boolean {
  return c.input instanceof z.ZodObject && "if_version" in c.input.shape;
}

/** The part of the door policy a document states: whether a read or a command needs a caller. */
export interface DocumentDoors {
  readsNeedCaller: boolean;
  commandsNeedCaller: boolean;
}

export function doorsOf(security: Pick<ServerSecurity, "authRequired" | "token" | "usersFile"> | undefined): DocumentDoors {
  // Without settings: loopback with a token, the documented default of an agent's server.
  if (!security) return { readsNeedCaller: false, commandsNeedCaller: true };
  const credentials = Boolean(security.token || security.usersFile);
  return { readsNeedCaller: security.authRequired, commandsNeedCaller: security.authRequired || credentials };
}

export const pascal = (id: string) =>
  id
    .split(/[._]/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join("");

type Registry = ReturnType<typeof z.registry<{ id: string }>>;

/** Every schema of a registry as components, refs pointing at `#/components/schemas/<id>`. */
function componentsOf(registry: Registry, io: "input" | "output"): Record<string, Record<string, unknown>> {
  const { schemas } = z.toJSONSchema(registry, { target: "draft-2020-12", unrepresentable: "any", io, uri: (id) => `${COMPONENTS}${id}` }) as {
    schemas: Record<string, Record<string, unknown>>;
  };
  if (schemas.__shared) throw new Error("a schema is shared without a name; give it one in openapi-names.ts");
  for (const s of Object.values(schemas)) {
    delete s.$schema;
    delete s.$id;
  }
  return schemas;
}

function inlineSchema(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { target: "draft-2020-12", unrepresentable: "any", io: "input" }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

export interface DocumentOptions {
  /** The doors of the server that serves the document (from its environment). */
  security?: Pick<ServerSecurity, "authRequired" | "token" | "usersFile">;
}

/** The OpenAPI 3.1 document of the HTTP surface, generated from the capability declarations. */
export function openApiDocument(options: DocumentOptions = {}): Record<string, unknown> {
  const doors = doorsOf(options.security);
  const outputs: Registry = z.registry<{ id: string }>();
  const inputs: Registry = z.registry<{ id: string }>();
  for (const [schema, id] of NAMED_SCHEMAS) outputs.add(schema, { id });
  const outputName = new Map<AnyCapability, string>();
  for (const c of capabilities) {
    if (!outputs.has(c.output)) outputs.add(c.output, { id: `${pascal(c.id)}Output` });
    outputName.set(c, outputs.get(c.output)!.id);
    if (c.kind === "command") inputs.add(c.input, { id: `${pascal(c.id)}Input` });
  }
  const schemas = { ...componentsOf(outputs, "output"), ...componentsOf(inputs, "input"), Error: ERROR_SCHEMA };

  const optional = [{}, { bearer: [] }];
  const required = [{ bearer: [] }];
  const paths: Record<string, unknown> = {};
  for (const c of capabilities) {
    const versioned = Boolean(c.version);
    const responses: Record<string, unknown> = {
      "200": {
        description: c.title,
        ...(versioned ? { headers: { ETag: header("The record's version: send it back as If-Match (or if_version) to edit it.") } } : {}),
        content: { "application/json": { schema: ref(outputName.get(c)!) } },
      },
      ...commonResponses(),
    };
    const operation: Record<string, unknown> = {
      operationId: c.id,
      summary: c.title,
      description: c.description,
      tags: [c.id.startsWith("plans.") ? "execution plans" : "plan"],
      security: (c.kind === "command" ? doors.commandsNeedCaller : doors.readsNeedCaller) ? required : optional,
      responses,
    };
    if (httpMethod(c) === "GET") {
      const input = inlineSchema(c.input);
      const properties = (input.properties ?? {}) as Record<string, Record<string, unknown>>;
      const needed = new Set((input.required as string[] | undefined) ?? []);
      operation.parameters = Object.entries(properties).map(([name, schema]) => ({
        name,
        in: "query",
        required: needed.has(name),
        ...(schema.description ? { description: schema.description } : {}),
        schema,
      }));
    } else {
      operation.requestBody = {
        required: true,
        description: "A JSON object of the input's fields ({} takes every default); an empty body is refused.",
        content: { "application/json": { schema: ref(`${pascal(c.id)}Input`) } },
      };
      if (takesVersion(c)) {
        operation.parameters = [
          {
            name: "If-Match",
            in: "header",
            required: false,
            description: "The record's version (the ETag of GET /api/v1/plan/record), as if_version: a record changed since is refused with 409.",
            schema: { type: "string" },
          },
        ];
        responses["409"] = {
          description: "the record changed since the version given (If-Match or if_version); the body names the current version",
          content: { "application/json": { schema: ref("Error") } },
        };
      }
      responses["413"] = { description: "the body is over 1,000,000 bytes", content: { "application/json": { schema: ref("Error") } } };
      responses["422"] = { description: "refused: the model forbids the move; the message names what is in the way", content: { "application/json": { schema: ref("Error") } } };
    }
    paths[httpPath(c)] = { [httpMethod(c).toLowerCase()]: operation };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Cockpit",
      version: COCKPIT_VERSION,
      description: "A repository's plan, derived from its records: statuses, waves, roadmap, next issue, findings; and the moves that change it.",
      license: { name: "MIT", identifier: "MIT" },
    },
    // Relative: the server that serves the document, whatever name it was reached by (cockpit serve: http://127.0.0.1:3000).
    servers: [{ url: "/", description: "the server that serves this document" }],
    tags: [
      { name: "plan", description: "The derived plan: reads, and the moves and edits that change its records." },
      { name: "execution plans", description: "Execution plans: a milestone decomposed into children that agents run." },
    ],
    paths,
    components: {
      schemas,
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          description: "COCKPIT_TOKEN or a token from cockpit users add. On loopback reads are open and commands need it when a token or users are configured; beyond loopback every request needs it (docs/security.md).",
        },
      },
    },
  };
}
