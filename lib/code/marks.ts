import type { PlanCode } from "./shapes";

// What the views show of plan.code at a glance: a mark per issue (a branch, merged, a finding).

export interface CodeMark {
  /** Linked branches (local and remote-tracking). */
  branches: number;
  /** Whether its code is on the default branch. */
  isMerged: boolean;
  /** Its code findings' codes. */
  findings: string[];
}

/** The mark of every issue plan.code links, by id. */
export function codeMarksOf(code: PlanCode): Record<string, CodeMark> {
  const out = new Map<string, CodeMark>();
  for (const i of code.issues) out.set(i.id, { branches: i.branches.length, isMerged: i.merged !== null, findings: i.findings.map((f) => f.code) });
  for (const f of code.findings) {
    const mark = out.get(f.subject) ?? out.set(f.subject, { branches: 0, isMerged: false, findings: [] }).get(f.subject)!;
    if (!mark.findings.includes(f.code)) mark.findings.push(f.code);
  }
  // Own properties only: an id the records hold (`__proto__`) is a key, not the prototype.
  return Object.fromEntries(out);
}
