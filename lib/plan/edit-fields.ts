import { ISSUE_ALLOWED_KEYS, MILESTONE_ALLOWED_KEYS } from "./allowlists";

// The fields an edit may write, from the allowlists: every admitted field except the lifecycle
// stamps, their seals, the pre-seal excuse list and evidence (those stay with the transitions and
// `evidence`), the id (the file's name) and the created/updated stamps (the edit writes them).

export type EditableKind = "issue" | "milestone";

export interface FieldSpec {
  name: string;
  isList: boolean;
  type: "text" | "boolean" | "integer";
  isRequired: boolean;
  /** Free text the schema calls prose: its values may hold newlines, other fields' may not. */
  isProse: boolean;
}

const NEVER_EDITED = new Set([
  "id",
  "started_at",
  "verified_at",
  "completed_at",
  "started_event",
  "verified_event",
  "completed_event",
  "unsealed_stamps",
  "evidence",
  "created_at",
  "updated_at",
]);

const REQUIRED: Record<EditableKind, readonly string[]> = {
  issue: ["milestone", "title", "slug", "priority", "profile", "objective", "scope", "acceptance_criteria", "validation", "evidence_required"],
  milestone: ["title", "slug", "order", "priority", "problem", "outcome", "acceptance_criteria", "validation", "evidence_required"],
};

// The record schema's prose (plan-semantics §1.4, §1.5): milestones' problem, outcome, states,
// scope, risks, criteria and validation; issues' objective, why, states, risk, completion and
// acceptance criteria (sentences; an issue's scope and validation are paths and commands).
const PROSE: Record<EditableKind, readonly string[]> = {
  issue: ["objective", "why", "current_state", "desired_state", "non_scope", "risk", "completion", "acceptance_criteria"],
  milestone: ["problem", "outcome", "current_state", "desired_state", "scope", "non_scope", "risks", "acceptance_criteria", "validation"],
};

/** Every key an allowlist names, in its order, with whether it is a list. */
function allowed(patterns: readonly string[]): { name: string; isList: boolean }[] {
  const out: { name: string; isList: boolean }[] = [];
  for (const p of patterns) {
    const m = /^\^([a-z_]+)(\(\\\.\[0-9\]\+\)\?|\\\.)?/.exec(p);
    if (!m || out.some((f) => f.name === m[1])) continue;
    out.push({ name: m[1], isList: m[2] !== undefined });
  }
  return out;
}

function fieldsOf(kind: EditableKind): FieldSpec[] {
  return allowed(kind === "issue" ? ISSUE_ALLOWED_KEYS : MILESTONE_ALLOWED_KEYS)
    .filter((f) => !NEVER_EDITED.has(f.name))
    .map((f) => ({
      ...f,
      type: f.name === "parallel_safe" || f.name === "cancelled" ? "boolean" : f.name === "order" ? "integer" : "text",
      isRequired: REQUIRED[kind].includes(f.name),
      isProse: PROSE[kind].includes(f.name),
    }));
}

export const EDITABLE_FIELDS: Record<EditableKind, readonly FieldSpec[]> = {
  issue: fieldsOf("issue"),
  milestone: fieldsOf("milestone"),
};

/** The schema's key order for a kind (every allowlisted key, evidence last), which new keys follow. */
export const SCHEMA_ORDER: Record<EditableKind, readonly string[]> = {
  issue: [...allowed(ISSUE_ALLOWED_KEYS).map((f) => f.name).filter((n) => n !== "evidence"), "evidence"],
  milestone: [...allowed(MILESTONE_ALLOWED_KEYS).map((f) => f.name).filter((n) => n !== "evidence"), "evidence"],
};

export function fieldSpec(kind: EditableKind, name: string): FieldSpec | undefined {
  return EDITABLE_FIELDS[kind].find((f) => f.name === name);
}

/** Why a field name cannot be edited on this kind, with the fix; undefined when it can. */
export function fieldProblem(kind: EditableKind, name: string): string | undefined {
  if (fieldSpec(kind, name)) return undefined;
  if (NEVER_EDITED.has(name)) {
    const why =
      name === "id"
        ? "the id names the file; it is not edited"
        : name === "evidence"
          ? "evidence is recorded with cockpit plan evidence (POST /api/v1/plan/evidence, plan_evidence)"
          : name === "created_at" || name === "updated_at"
            ? "the edit writes it itself"
            : "stamps and seals are written only by the transitions (start, verify, done)";
    return `${name} is not edited here: ${why}`;
  }
  return `'${name}' is not a field of ${kind === "issue" ? "an issue" : "a milestone"}; the fields are ${EDITABLE_FIELDS[kind].map((f) => f.name).join(", ")}`;
}
