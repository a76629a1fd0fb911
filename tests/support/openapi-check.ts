// Checks against the OpenAPI document with a validator the project did not write (ajv, draft
// 2020-12): every answer a test receives is held to the document it was served with.
import Ajv2020 from "ajv/dist/2020";

export type OpenApiDocument = Record<string, unknown> & { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };

const DOCUMENT_ID = "https://cockpit.invalid/openapi.json";
const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");

/** A validator of answers against one document: `check(path, method, status, body)` lists what disagrees. */
export function answersValidator(document: OpenApiDocument) {
  // strict: false, so the OpenAPI keywords around the schemas (paths, responses…) are not schema errors.
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema({ ...document, $id: DOCUMENT_ID });
  const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
  return function check(path: string, method: string, status: number, body: unknown): string[] {
    const operation = document.paths[path]?.[method.toLowerCase()];
    if (!operation) return [`the document has no ${method} ${path}`];
    if (!(String(status) in operation.responses)) return [`${method} ${path} answered ${status}, which the document does not list (it lists ${Object.keys(operation.responses).join(", ")})`];
    const key = `${method} ${path} ${status}`;
    let validate = compiled.get(key);
    if (!validate) {
      const at = pointer("paths", path, method.toLowerCase(), "responses", String(status), "content", "application/json", "schema");
      validate = ajv.compile({ $ref: `${DOCUMENT_ID}#/${at}` });
      compiled.set(key, validate);
    }
    if (validate(body)) return [];
    return (validate.errors ?? []).slice(0, 5).map((e) => `${key}: ${e.instancePath || "(root)"} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ""}`);
  };
}

/** A validator of values against JSON schemas given whole (an MCP tool's outputSchema). */
export function schemaValidator() {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
  return function check(name: string, schema: Record<string, unknown>, value: unknown): string[] {
    let validate = compiled.get(name);
    if (!validate) {
      const { $schema: _ignored, ...rest } = schema;
      validate = ajv.compile(rest);
      compiled.set(name, validate);
    }
    if (validate(value)) return [];
    return (validate.errors ?? []).slice(0, 5).map((e) => `${name}: ${e.instancePath || "(root)"} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ""}`);
  };
}
