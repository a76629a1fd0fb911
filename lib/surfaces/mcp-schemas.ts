import { z } from "zod";

// The JSON Schemas of the MCP listing (tools/list), made from the capabilities' zod schemas and
// made lean: a model reads every tool's input schema on every turn, and a client compiles every
// output schema to check each structured result against it.
//
// Both declare draft-07 ($schema) and stay valid schemas of it. What goes, and why it may:
// - the words (description, title, examples) of an output schema: an output schema is for checking
//   answers; its words are in the OpenAPI document (GET /api/v1/openapi.json);
// - `default`: a default is what the server does, not a constraint on a value;
// - what constrains nothing: `propertyNames: {type: "string"}` (every key of JSON is a string),
//   `additionalProperties: {}`, and the safe-integer bounds zod gives every integer;
// - of an input schema, its length and size bounds: the server refuses a value out of them in
//   words, field by field, as on every surface.
// What stays: every member, type, enum, const, required list, `additionalProperties`, pattern,
// oneOf/anyOf, and an output's explicit bounds. An output subschema met twice or more in one
// schema is written once, under `definitions`, and referred to (`$ref: "#/definitions/NAME"`).

export const JSON_SCHEMA_DRAFT_07 = "http://json-schema.org/draft-07/schema#";

export type JsonSchema = { [key: string]: unknown };

/** Keywords whose value is one subschema. */
const ONE = ["items", "additionalItems", "additionalProperties", "not", "propertyNames", "contains", "if", "then", "else"];
/** Keywords whose value is a list of subschemas. */
const MANY = ["anyOf", "oneOf", "allOf"];
/** Keywords whose value maps names to subschemas. */
const MAP = ["properties", "patternProperties", "definitions", "dependencies"];

/** What an input schema may not have at its top (some models' APIs refuse the tool). */
export const ROOT_REFUSED = ["oneOf", "anyOf", "allOf", "not", "if", "then", "else"];

/** Words, and what a value's validity never depends on. */
const WORDS = ["description", "title", "examples", "default", "$comment"];
/** An input's length and size bounds (refused in words by the server, field by field). */
const INPUT_BOUNDS = ["minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"];

const isSchema = (v: unknown): v is JsonSchema => typeof v === "object" && v !== null && !Array.isArray(v);
const isEmpty = (v: unknown) => isSchema(v) && Object.keys(v).length === 0;

/** Rebuilds a schema bottom up: each subschema through `each` after its own subschemas. */
function mapSchema(schema: JsonSchema, each: (s: JsonSchema) => JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (ONE.includes(key) && isSchema(value)) out[key] = mapSchema(value, each);
    else if (key === "items" && Array.isArray(value)) out[key] = value.map((v) => (isSchema(v) ? mapSchema(v, each) : v));
    else if (MANY.includes(key) && Array.isArray(value)) out[key] = value.map((v) => (isSchema(v) ? mapSchema(v, each) : v));
    else if (MAP.includes(key) && isSchema(value)) out[key] = Object.fromEntries(Object.entries(value).map(([name, v]) => [name, isSchema(v) ? mapSchema(v, each) : v]));
    else out[key] = value;
  }
  return each(out);
}

/** One subschema without what constrains nothing (and, as asked, its words and an input's bounds). */
function pruned(drop: readonly string[], { output = false } = {}) {
  return (s: JsonSchema): JsonSchema => {
    const out: JsonSchema = {};
    for (const [key, value] of Object.entries(s)) {
      if (drop.includes(key)) continue;
      if (key === "propertyNames" && isSchema(value) && value.type === "string" && Object.keys(value).length === 1) continue;
      if (key === "additionalProperties" && (value === true || isEmpty(value))) continue;
      if (key === "minimum" && value === -Number.MAX_SAFE_INTEGER) continue;
      if (key === "maximum" && value === Number.MAX_SAFE_INTEGER) continue;
      out[key] = value;
    }
    // `allOf` of one schema is that schema (zod writes a reference so).
    if (Array.isArray(out.allOf) && out.allOf.length === 1 && Object.keys(out).length === 1) return out.allOf[0] as JsonSchema;
    const simpler = nullableAsType(fewerOptions(out));
    // An input keeps its types beside its enums: some clients want a type on every member.
    return output ? typeImplied(simpler) : simpler;
  };
}

/**
 * `anyOf` without an option another one already allows (the same twice, or `{type: "string"}`
 * beside `{type: "string", const: "x"}`: a union spelt as one object repeats its members so), and
 * one option left is that option.
 */
function fewerOptions(s: JsonSchema): JsonSchema {
  if (!Array.isArray(s.anyOf)) return s;
  const options = s.anyOf as JsonSchema[];
  const kept = options.filter((option, i) => !options.some((other, j) => j !== i && allowsAll(other, option) && (!allowsAll(option, other) || j < i)));
  if (kept.length === 1 && Object.keys(s).length === 1) return kept[0];
  return { ...s, anyOf: kept };
}

/** Keywords whose meaning depends on another keyword of the same schema. */
const PAIRED = ["properties", "patternProperties", "items", "if"];

/**
 * Whether `wide` allows every value `narrow` allows, seen simply: each keyword of `wide` stands in
 * `narrow` the same (so `narrow` adds constraints), or `wide`'s enum holds `narrow`'s const or enum.
 */
function allowsAll(wide: JsonSchema, narrow: JsonSchema): boolean {
  if (!isSchema(wide) || !isSchema(narrow)) return false;
  if (Object.keys(narrow).some((k) => !(k in wide) && PAIRED.includes(k))) return false;
  return Object.entries(wide).every(([key, value]) => {
    if (key in narrow && canonical(narrow[key]) === canonical(value)) return true;
    if (key !== "enum" || !Array.isArray(value)) return false;
    const values = "const" in narrow ? [narrow.const] : Array.isArray(narrow.enum) ? narrow.enum : undefined;
    return values !== undefined && values.every((v) => value.some((w) => canonical(w) === canonical(v)));
  });
}

const jsonType = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : Number.isInteger(v) ? "integer" : typeof v);

/** `type` beside an enum or a const that holds only values of that type says nothing more. */
function typeImplied(s: JsonSchema): JsonSchema {
  if (s.type === undefined) return s;
  const values = "const" in s ? [s.const] : Array.isArray(s.enum) ? s.enum : undefined;
  if (!values) return s;
  const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
  const fits = (v: unknown) => types.includes(jsonType(v)) || (jsonType(v) === "integer" && types.includes("number"));
  if (!values.every(fits)) return s;
  const { type: _implied, ...rest } = s;
  return rest;
}

/** Keywords that constrain one JSON type only (so a `null` beside it passes them untouched). */
const TYPED = new Set(["type", "properties", "required", "additionalProperties", "patternProperties", "propertyNames", "items", "additionalItems", "minItems", "maxItems", "uniqueItems", "contains", "minLength", "maxLength", "pattern", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minProperties", "maxProperties", "enum", "const"]);

/** `anyOf: [X, {type: "null"}]`, X of one type, as X whose type also allows null: the same values. */
function nullableAsType(s: JsonSchema): JsonSchema {
  const options = s.anyOf;
  if (!Array.isArray(options) || options.length !== 2 || Object.keys(s).length !== 1) return s;
  const nullAt = options.findIndex((o) => isSchema(o) && o.type === "null" && Object.keys(o).length === 1);
  if (nullAt < 0) return s;
  const other = options[1 - nullAt] as JsonSchema;
  // An enum without its type (an output's: its values say it): null joins the values.
  if (other.type === undefined && Array.isArray(other.enum) && Object.keys(other).length === 1) return { enum: [...other.enum, null] };
  if (typeof other.type !== "string" || other.type === "null" || !Object.keys(other).every((k) => TYPED.has(k))) return s;
  if ("const" in other) return s;
  const out: JsonSchema = { ...other, type: [other.type, "null"] };
  if (Array.isArray(other.enum)) out.enum = [...other.enum, null];
  return out;
}

/** Canonical text of a schema (keys sorted), so that two equal subschemas are found equal. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (isSchema(v)) return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(",")}}`;
  return JSON.stringify(v);
}

/** Each subschema of a schema (not the schema itself), with the name of where it stands. */
function* subschemas(schema: JsonSchema, name: string): Generator<{ schema: JsonSchema; name: string }> {
  for (const [key, value] of Object.entries(schema)) {
    if (key === "definitions") continue;
    if (ONE.includes(key) && isSchema(value)) {
      const at = key === "items" ? singular(name) : name;
      yield { schema: value, name: at };
      yield* subschemas(value, at);
    } else if ((MANY.includes(key) || key === "items") && Array.isArray(value)) {
      for (const v of value.filter(isSchema)) {
        yield { schema: v, name };
        yield* subschemas(v, name);
      }
    } else if (MAP.includes(key) && isSchema(value)) {
      for (const [member, v] of Object.entries(value)) {
        if (!isSchema(v)) continue;
        yield { schema: v, name: member };
        yield* subschemas(v, member);
      }
    }
  }
}

/** An item's name from its list's: findings → finding, issues → issue, children stay children. */
function singular(name: string): string {
  if (/ies$/.test(name)) return name.replace(/ies$/, "y");
  if (/(ss|us)$/.test(name)) return name;
  return name.replace(/s$/, "");
}

/**
 * Writes each subschema met twice or more once, under `definitions`, where referring to it is
 * shorter than repeating it: the largest first, so that a shape inside a repeated shape is counted
 * once it is written once. Definitions already there (a recursive shape's) are kept, renamed.
 */
function withDefinitions(schema: JsonSchema, known: ReadonlyMap<string, string>): JsonSchema {
  const definitions: Record<string, JsonSchema> = {};
  const taken = new Set<string>();
  const nameFor = (wanted: string) => {
    const base = /^[A-Za-z_][A-Za-z0-9_]*$/.test(wanted) ? wanted : "shape";
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base}${n}`;
    taken.add(name);
    return name;
  };
  // A recursive shape's definitions, from zod (`__schema0`): renamed for where they are used.
  let root = schema;
  const existing = isSchema(schema.definitions) ? (schema.definitions as Record<string, JsonSchema>) : {};
  if (Object.keys(existing).length > 0) {
    const { definitions: _old, ...rest } = schema;
    const renames = new Map<string, string>();
    for (const old of Object.keys(existing)) {
      const used = [...subschemas(rest, "shape"), ...Object.values(existing).flatMap((d) => [...subschemas(d, "shape")])].find((s) => s.schema.$ref === `#/definitions/${old}`);
      const named = known.get(selfKey(existing[old], `#/definitions/${old}`));
      renames.set(`#/definitions/${old}`, `#/definitions/${nameFor(named ?? used?.name ?? "shape")}`);
    }
    const rename = (s: JsonSchema): JsonSchema => (typeof s.$ref === "string" && renames.has(s.$ref) ? { ...s, $ref: renames.get(s.$ref) } : s);
    root = mapSchema(rest, rename);
    for (const [old, d] of Object.entries(existing)) definitions[renames.get(`#/definitions/${old}`)!.slice("#/definitions/".length)] = mapSchema(d, rename);
  }

  for (;;) {
    const seen = new Map<string, { count: number; names: Map<string, number>; size: number }>();
    for (const tree of [root, ...Object.values(definitions)]) {
      for (const { schema: s, name } of subschemas(tree, "shape")) {
        if (typeof s.$ref === "string") continue;
        const key = canonical(s);
        const known = seen.get(key) ?? { count: 0, names: new Map<string, number>(), size: JSON.stringify(s).length };
        known.count++;
        known.names.set(name, (known.names.get(name) ?? 0) + 1);
        seen.set(key, known);
      }
    }
    // What writing it once saves: every repetition, less the references and the definition's name.
    const refSize = (name: string) => `{"$ref":"#/definitions/${name}"}`.length;
    const best = [...seen.entries()]
      .map(([key, v]) => ({ key, ...v, name: knownName(JSON.parse(key) as JsonSchema, known) ?? mostUsed(v.names) }))
      .map((v) => ({ ...v, saves: v.count * v.size - v.count * refSize(v.name) - v.size - v.name.length - 4 }))
      .filter((c) => c.count >= 2 && c.saves > 0)
      .sort((a, b) => b.size - a.size)[0];
    if (!best) break;
    const name = nameFor(best.name);
    const ref = { $ref: `#/definitions/${name}` };
    let definition: JsonSchema | undefined;
    const replace = (tree: JsonSchema): JsonSchema => {
      // Top down, so that the shape is replaced where it stands, not inside itself.
      const swap = (s: JsonSchema): JsonSchema => {
        if (canonical(s) === best.key) {
          definition ??= s;
          return ref;
        }
        return mapChildren(s, swap);
      };
      return mapChildren(tree, swap);
    };
    root = replace(root);
    for (const [n, d] of Object.entries(definitions)) definitions[n] = replace(d);
    definitions[name] = definition!;
  }
  return Object.keys(definitions).length > 0 ? { ...root, definitions } : root;
}

/** How a reference of a shape to itself is spelt when shapes are compared by name. */
const SELF = "#self";

/** A shape's canonical text, its references to itself (`self`) spelt alike. */
function selfKey(s: JsonSchema, self: string): string {
  return canonical(mapSchema(s, (x) => (x.$ref === self ? { ...x, $ref: SELF } : x)));
}

/** A shape's name from the named shapes (the OpenAPI document's: Finding), a list's of them (Findings) or one's or null (IssueStatusOrNull). */
function knownName(s: JsonSchema, known: ReadonlyMap<string, string>): string | undefined {
  const named = known.get(canonical(s));
  if (named) return named;
  const keys = Object.keys(s).sort().join(",");
  if (keys === "items,type" && s.type === "array" && isSchema(s.items)) {
    const item = known.get(canonical(s.items));
    return item && plural(item);
  }
  const types = Array.isArray(s.type) ? (s.type as unknown[]) : undefined;
  if (types?.length === 2 && types.includes("null")) {
    const item = known.get(canonical({ ...s, type: types.find((t) => t !== "null") }));
    return item && `${item}OrNull`;
  }
  if (Array.isArray(s.enum) && s.enum.includes(null) && s.type === undefined) {
    const item = known.get(canonical({ ...s, enum: s.enum.filter((v) => v !== null) }));
    return item && `${item}OrNull`;
  }
  return undefined;
}

const plural = (name: string) => (/(s|x|ch|sh)$/.test(name) ? `${name}es` : /[^aeiou]y$/.test(name) ? `${name.slice(0, -1)}ies` : `${name}s`);

/** The name a shape stands under most often (the first of equals). */
function mostUsed(names: Map<string, number>): string {
  let best = "shape";
  let most = 0;
  for (const [name, count] of names) if (count > most) [best, most] = [name, count];
  return best;
}

/** A schema with each direct subschema through `each` (not the schema itself). */
function mapChildren(schema: JsonSchema, each: (s: JsonSchema) => JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "definitions") out[key] = value;
    else if (ONE.includes(key) && isSchema(value)) out[key] = each(value);
    else if ((MANY.includes(key) || key === "items") && Array.isArray(value)) out[key] = value.map((v) => (isSchema(v) ? each(v) : v));
    else if (MAP.includes(key) && isSchema(value)) out[key] = Object.fromEntries(Object.entries(value).map(([name, v]) => [name, isSchema(v) ? each(v) : v]));
    else out[key] = value;
  }
  return out;
}

/** `$schema` first, as a reader looks for it. */
function declared(schema: JsonSchema): JsonSchema {
  const { $schema: _given, ...rest } = schema;
  return { $schema: JSON_SCHEMA_DRAFT_07, ...rest };
}

/**
 * An input schema as a model reads it: strict (types, enums, required, additionalProperties: false),
 * its bounds and its words left to the server's refusals. `words` gives a member a few words back
 * (a member's name, mapped to them); `extra` adds members (a command's `actor`).
 */
export function inputJsonSchema(schema: z.ZodType, { words = {}, extra = {} }: { words?: Record<string, string>; extra?: Record<string, JsonSchema> } = {}): JsonSchema {
  const json = z.toJSONSchema(schema, { target: "draft-07", io: "input", unrepresentable: "any" }) as JsonSchema;
  const lean = mapSchema(json, pruned([...WORDS, ...INPUT_BOUNDS]));
  // A model's API refuses a tool whose input has these at its top (Anthropic's: "input_schema does
  // not support oneOf, allOf, or anyOf at the top level"); "one of the two" is refused in words instead.
  for (const key of ROOT_REFUSED) delete lean[key];
  const properties = { ...(isSchema(lean.properties) ? lean.properties : {}), ...extra } as Record<string, JsonSchema>;
  for (const [name, text] of Object.entries(words)) if (properties[name]) properties[name] = { description: text, ...properties[name] };
  return declared({ ...lean, properties });
}

/** An output schema, lean, before its shapes are written once. */
function leanOutput(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, { target: "draft-07", io: "output", unrepresentable: "any" }) as JsonSchema;
  return mapSchema(json, pruned(WORDS, { output: true }));
}

/**
 * The names of shapes (the OpenAPI document's names: Issue, Finding…), by their lean schema's
 * canonical text: a shape written once under `definitions` takes its name when it has one.
 */
export function shapeNames(named: readonly (readonly [z.ZodType, string])[]): ReadonlyMap<string, string> {
  const names = new Map<string, string>();
  for (const [schema, name] of named) {
    const { $schema: _dialect, ...lean } = leanOutput(schema);
    if (lean.definitions !== undefined) continue;
    const key = selfKey(lean, "#");
    if (!names.has(key)) names.set(key, name);
  }
  return names;
}

/** An output schema as a client checks answers with it: every member and type, no words, shapes met twice written once. */
export function outputJsonSchema(schema: z.ZodType, names: ReadonlyMap<string, string> = new Map()): JsonSchema {
  return declared(withDefinitions(leanOutput(schema), names));
}
