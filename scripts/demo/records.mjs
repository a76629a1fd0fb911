// The demo's records in file form, each lifecycle stamp written with its seal.

import { createHash } from "node:crypto";
import { MOVES, sealOf } from "./seal.mjs";
import { emit } from "./yaml.mjs";

/** A stable stand-in for the commit an evidence entry was recorded at. */
function commitOf(...parts) {
  return createHash("sha1").update(parts.join("\0"), "utf8").digest("hex");
}

// Records in file form. `shift` moves every date of the record by that many days (the history
// `npm run demo` writes is dated back from today); the seals are computed on the moved stamps.
// Dates inside prose are moved only in `why` and `risks`, which tell when something was decided.

const DAY_MS = 86_400_000;

/** A date (YYYY-MM-DD) or ISO time (YYYY-MM-DDTHH:MM:SSZ) moved by `days` whole days. */
export function shiftDate(value, days) {
  if (days === 0 || value === undefined) return value;
  const isDate = value.length === 10;
  const ms = Date.parse(isDate ? `${value}T00:00:00Z` : value) + days * DAY_MS;
  const iso = new Date(ms).toISOString();
  return isDate ? iso.slice(0, 10) : iso.replace(/\.\d{3}Z$/, "Z");
}

function shiftProse(text, days) {
  return text?.replace(/\b\d{4}-\d{2}-\d{2}\b/g, (d) => shiftDate(d, days));
}

export function milestoneRecord(m, shift = 0) {
  const { evidence, ...fields } = m;
  return emit({
    id: fields.id,
    title: fields.title,
    slug: fields.slug,
    version: fields.version,
    order: fields.order,
    priority: fields.priority,
    cancelled: fields.cancelled,
    superseded_by: fields.superseded_by,
    problem: fields.problem,
    outcome: fields.outcome,
    scope: fields.scope,
    acceptance_criteria: fields.acceptance_criteria,
    validation: fields.validation,
    evidence_required: fields.evidence_required,
    depends_on: fields.depends_on,
    risks: fields.risks?.map((r) => shiftProse(r, shift)),
    created_at: shiftDate(fields.created_at, shift),
    updated_at: shiftDate(fields.updated_at, shift),
    evidence: evidence?.map((e) => evidenceEntry(m.id, e, shift)),
  });
}

function evidenceEntry(id, e, shift) {
  return {
    covers: e.covers,
    type: e.type,
    command: e.command,
    result: e.result,
    artifact: e.artifact,
    commit: commitOf(id, e.covers, e.recorded_at),
    recorded_at: shiftDate(e.recorded_at, shift),
  };
}

export function lastStamp(issue) {
  const stamps = Object.values(issue.stamps ?? {});
  return stamps.length ? stamps.sort().at(-1) : undefined;
}

export function issueRecord(issue, shift = 0) {
  const stamps = {};
  for (const { field, seal, event } of Object.values(MOVES)) {
    const at = shiftDate(issue.stamps?.[field], shift);
    if (at === undefined) continue;
    stamps[field] = at;
    stamps[seal] = sealOf(event, issue.id, at);
  }
  return emit({
    id: issue.id,
    milestone: issue.milestone,
    title: issue.title,
    slug: issue.slug ?? slugOf(issue.title),
    priority: issue.priority,
    profile: issue.profile,
    parallel_safe: issue.parallel_safe,
    cancelled: issue.cancelled,
    owner: issue.owner,
    objective: issue.objective,
    why: shiftProse(issue.why, shift),
    risk: issue.risk,
    scope: issue.scope,
    depends_on: issue.depends_on,
    acceptance_criteria: issue.acceptance_criteria,
    validation: issue.validation,
    evidence_required: issue.evidence_required,
    ...stamps,
    created_at: shiftDate(issue.created_at, shift),
    updated_at: shiftDate(issue.updated_at ?? lastStamp(issue) ?? issue.created_at, shift),
    evidence: issue.evidence?.map((e) => evidenceEntry(issue.id, e, shift)),
  });
}

function slugOf(title) {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .split("-")
    .slice(0, 7)
    .join("-");
}
