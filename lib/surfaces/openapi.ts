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

/**
 * A 409's body: the error, and what a caller needs to recover. plan.edit's stale version carries
 * id, version and the record as it is now; plan.undo's names the record; a following server's
 * (the remote changed the record first) names the remote's commit, author and the record's file.
 */
const conflictSchema = (recordOutput: string) => ({
  ...ERROR_SCHEMA,
  description: "A conflict (409): the record changed under the command, which wrote nothing; the members beside code and message say what it is now.",
  properties: {
    error: {
      ...ERROR_SCHEMA.properties.error,
      properties: {
        ...ERROR_SCHEMA.properties.error.properties,
        code: { type: "string", enum: ["conflict"] },
        id: { type: "string", description: "An edit's: the record edited." },
        version: { type: "string", description: "An edit's: the record's current version; send it as If-Match to edit the record as it is now." },
        record: {
          description: "An edit's: the record as it is now (as GET /api/v1/plan/record answers); an undo's: the record's id; a following server's: the record's file the remote changed.",
          oneOf: [ref(recordOutput), { type: "string" }],
        },
        remote_commit: { type: "string", description: "A following server: the remote's commit that changed the record first." },
        remote_author: { type: "string", description: "A following server: that commit's author." },
      },
    },
  },
});

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

/** Whether a command's input has this field (`if_version`: If-Match; `idempotency_key`: Idempotency-Key), as http.ts asks. */
function takes(c: AnyCapability, field: string): boolean {
  return c.input instanceof z.ZodObject && field in c.input.shape;
}

/** Why a command can answer 409, in words; undefined for one that cannot. */
function conflictWhy(c: AnyCapability): string | undefined {
  // plan.commit commits what is there: a conflict on its push is in its answer (push.status), not a 409.
  if (c.kind !== "command" || c.id === "plan.commit") return undefined;
  const own = takes(c, "if_version")
    ? "the record changed since the version given (If-Match or if_version): the body names the current version and carries the record as it is now"
    : c.id === "plan.undo"
      ? "the move or edit is already undone, or its record changed since: the body names the record"
      : undefined;
  const following = "on a following server (cockpit serve --follow), the remote changed the same record first: nothing was written, and the body names the remote's commit";
  return own ? `${own}; or, ${following}` : following;
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

/**
 * `/api/v1/sync` (lib/surfaces/http-sync.ts): GET is plan.sync_status under a second name; POST
 * asks a following server to fetch now, from a caller that may run commands or from a git host's
 * signed push webhook, whose payload is read only to check its signature (so the body is optional).
 */
function syncPath(status: Record<string, Record<string, unknown>>, doors: DocumentDoors): Record<string, unknown> {
  const common = commonResponses();
  const error = (description: string) => ({ description, content: { "application/json": { schema: ref("Error") } } });
  const webhook = [{ githubWebhook: [] }, { gitlabWebhook: [] }];
  return {
    get: { ...status.get, operationId: "sync.status", summary: `${String(status.get.summary)} (as GET /api/v1/plan/sync_status)` },
    post: {
      operationId: "sync.request",
      summary: "Sync now: a following server fetches (and fast-forwards) at once",
      description:
        "Asks a server started with cockpit serve --follow to sync now, merged with any sync already running, and answers at once with the state (202); without --follow, state is off and nothing is fetched. A GitHub or GitLab push webhook signed with COCKPIT_WEBHOOK_SECRET needs no token.",
      tags: ["plan"],
      security: doors.commandsNeedCaller ? [{ bearer: [] }, ...webhook] : [{}, { bearer: [] }, ...webhook],
      requestBody: {
        required: false,
        description: "A git host's push payload (read only to check its signature), or nothing.",
        content: { "application/json": { schema: { type: "object" } } },
      },
      responses: {
        "202": { description: "the sync is asked for; the state as it is now", content: { "application/json": { schema: ref("SyncStatus") } } },
        "401": error("a webhook signature or token that does not match COCKPIT_WEBHOOK_SECRET (or no secret is set), or a caller without the bearer token where commands need one"),
        "403": common["403"],
        "413": error("the body is over 25 MiB"),
        "429": common["429"],
        "431": common["431"],
        "500": common["500"],
      },
    },
  };
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
  const recordOutput = outputName.get(capabilities.find((c) => c.id === "plan.record")!)!;
  const schemas = { ...componentsOf(outputs, "output"), ...componentsOf(inputs, "input"), Error: ERROR_SCHEMA, Conflict: conflictSchema(recordOutput) };

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
      const parameters: Record<string, unknown>[] = [];
      if (takes(c, "if_version")) {
        parameters.push({
          name: "If-Match",
          in: "header",
          required: false,
          description: "The record's version (the ETag of GET /api/v1/plan/record), as if_version: a record changed since is refused with 409.",
          schema: { type: "string" },
        });
      }
      if (takes(c, "idempotency_key")) {
        parameters.push({
          name: "Idempotency-Key",
          in: "header",
          required: false,
          description: "As idempotency_key (the body's wins): a retry with the same key answers the first outcome and writes nothing.",
          schema: { type: "string", minLength: 1, maxLength: 200 },
        });
      }
      if (parameters.length) operation.parameters = parameters;
      const why = conflictWhy(c);
      if (why) responses["409"] = { description: why, content: { "application/json": { schema: ref("Conflict") } } };
      responses["413"] = { description: "the body is over 1,000,000 bytes", content: { "application/json": { schema: ref("Error") } } };
      responses["422"] = { description: "refused: the model forbids the move; the message names what is in the way", content: { "application/json": { schema: ref("Error") } } };
    }
    paths[httpPath(c)] = { [httpMethod(c).toLowerCase()]: operation };
  }
  paths["/api/v1/sync"] = syncPath(paths[httpPath({ id: "plan.sync_status" })] as Record<string, Record<string, unknown>>, doors);
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
        githubWebhook: {
          type: "apiKey",
          in: "header",
          name: "X-Hub-Signature-256",
          description: "POST /api/v1/sync only: a GitHub push webhook's signature of the body with COCKPIT_WEBHOOK_SECRET (docs/team-server.md).",
        },
        gitlabWebhook: {
          type: "apiKey",
          in: "header",
          name: "X-Gitlab-Token",
          description: "POST /api/v1/sync only: a GitLab push webhook's token, COCKPIT_WEBHOOK_SECRET (docs/team-server.md).",
        },
      },
    },
  };
}
