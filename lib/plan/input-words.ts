import type { z } from "zod";

// A refused input in words, the one way every surface says it: what is wrong with which field and
// what it takes ("id is required", "type must be one of test, build, ci, artifact, manual"), never
// the validator's own text. A schema's own message (it names the fix already) is kept.

type Issue = z.core.$ZodIssue;

/** zod's own messages: they start so, a schema's messages never do. */
const ZOD_WORDS = /^(Invalid (input|option|string|key|element|value)|Too (small|big)|Unrecognized key)/;

const A_TYPE: Record<string, string> = { string: "a string", number: "a number", int: "a whole number", boolean: "true or false", object: "an object", array: "a list", record: "an object" };

function what(type: string): string {
  return A_TYPE[type] ?? `a ${type}`;
}

function bound(issue: Issue & { origin?: string }, limit: number | bigint, least: boolean): string {
  const n = String(limit);
  switch (issue.origin) {
    case "string":
      return least && n === "1" ? "must not be empty" : `is ${least ? "at least" : "at most"} ${n} character${n === "1" ? "" : "s"}`;
    case "array":
    case "set":
      return least && n === "1" ? "must not be empty" : `holds ${least ? "at least" : "at most"} ${n} entr${n === "1" ? "y" : "ies"}`;
    default:
      return least ? `must be ${n} or more` : `is at most ${n}`;
  }
}

/** What is wrong, said after the field's name. */
function problem(issue: Issue): string {
  switch (issue.code) {
    case "invalid_type": {
      // zod keeps what it received only in its message.
      const received = /received (\w+)$/.exec(issue.message)?.[1];
      if (received === "undefined") return "is required";
      return `must be ${what(issue.expected)}${received ? `, not ${received}` : ""}`;
    }
    case "invalid_value":
      return issue.values.length === 1 ? `must be ${String(issue.values[0])}` : `must be one of ${issue.values.map(String).join(", ")}`;
    case "too_small":
      return bound(issue, issue.minimum, true);
    case "too_big":
      return bound(issue, issue.maximum, false);
    case "invalid_format":
      return issue.format === "regex" && "pattern" in issue ? `must match ${String(issue.pattern)}` : `must be ${issue.format === "regex" ? "of its form" : `a valid ${issue.format}`}`;
    case "invalid_union":
      return "matches none of the forms it may take";
    default:
      return issue.message;
  }
}

/** One problem of an input in words, named by its path (`set.title`), or `input` for the whole. */
export function describeIssue(issue: Issue): string {
  const where = issue.path.length ? issue.path.map(String).join(".") : "input";
  if (issue.code === "unrecognized_keys") {
    return `${where}: unknown field${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((k) => `'${k}'`).join(", ")}`;
  }
  if (ZOD_WORDS.test(issue.message)) return `${where} ${problem(issue)}`;
  // A message that names its field already ("limit must be 0 or more") says the name once.
  const name = issue.path.length ? String(issue.path[issue.path.length - 1]) : undefined;
  if (name !== undefined && issue.message.startsWith(`${name} `)) return `${where}${issue.message.slice(name.length)}`;
  return `${where}: ${issue.message}`;
}

/** A refused input in words: one clause per problem, the first five. */
export function describeInputError(error: { issues: readonly Issue[] }): string {
  return error.issues.slice(0, 5).map(describeIssue).join("; ");
}
