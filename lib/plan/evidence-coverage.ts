// Evidence by what it covers (§1.2): each required token is covered by the entries whose `covers`
// names it, or missing. `evidence_have` counts entries (as the reference does); a person is shown
// this instead, so two entries for one token never read as two tokens covered.

export interface TokenCoverage {
  token: string;
  /** The entries that cover it, numbered from 1 among the entries that name what they cover. */
  entries: number[];
}

export function evidenceCoverage(record: { evidence_required: readonly string[]; covers: readonly string[] }): TokenCoverage[] {
  return record.evidence_required.map((token) => ({
    token,
    entries: record.covers.flatMap((c, i) => (c === token ? [i + 1] : [])),
  }));
}

/** The required tokens no entry covers yet, in the order they are required. */
export function missingEvidence(record: { evidence_required: readonly string[]; covers: readonly string[] }): string[] {
  return record.evidence_required.filter((t) => !record.covers.includes(t));
}
