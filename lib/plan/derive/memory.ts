// What one derivation keeps for the next (the caller owns it): the last reading and the seal
// checks (§2.2), each validated before use, so a memory never changes an answer.
import { SEALED_FROM } from "../constants";
import type { IssueRecord } from "../records";
import { MOVES, sealOf, type Move } from "../seal";
import { compareBytes } from "../text";
import type { IssueFacts } from "./facts";

// A seal depends only on (event, id, stamp). Records the last derivation read are not checked
// again (see `LastRead`), but a record read anew often has the same stamps (an edit of another
// field, or every record once an issue is added or removed), so a memory keeps each issue's last
// check, keyed by id and validated by the strings it was computed from. Bounded.
interface SealCheck {
  stamp: string;
  seal: string;
  ok: boolean;
}

export type SealChecks = Map<string, [SealCheck | undefined, SealCheck | undefined, SealCheck | undefined]>;

const MOVE_SLOT = { start: 0, verify: 1, done: 2 } as const;

export const STAMPED = { start: 1, verify: 2, done: 4 } as const;

function sealMatches(checks: SealChecks | undefined, id: string, move: Move, stamp: string, seal: string): boolean {
  if (checks === undefined) return seal === sealOf(MOVES[move].event, id, stamp);
  let slots = checks.get(id);
  if (slots === undefined) {
    if (checks.size > 500_000) checks.clear();
    slots = [undefined, undefined, undefined];
    checks.set(id, slots);
  }
  const slot = MOVE_SLOT[move];
  const last = slots[slot];
  if (last !== undefined && last.stamp === stamp && last.seal === seal) return last.ok;
  const ok = seal === sealOf(MOVES[move].event, id, stamp);
  slots[slot] = { stamp, seal, ok };
  return ok;
}

/** Whether a stamp counts (§2.2): empty, sealed by its event, or a listed pre-seal stamp. */
export function isProven(issue: IssueRecord, move: Move): boolean {
  return isProvenBy(undefined, issue, move);
}

export function isProvenBy(checks: SealChecks | undefined, issue: IssueRecord, move: Move): boolean {
  const { field, seal } = MOVES[move];
  const stamp = issue[field];
  if (stamp === "") return true;
  const recorded = issue[seal];
  if (recorded !== "" && sealMatches(checks, issue.id, move, stamp, recorded)) return true;
  return compareBytes(stamp, SEALED_FROM) < 0 && listsStamp(issue.unsealed_stamps, field, stamp);
}

/** Whether `unsealed` holds the entry `<field> <stamp>` (compared in place, without building it). */
function listsStamp(unsealed: readonly string[], field: string, stamp: string): boolean {
  const length = field.length + 1 + stamp.length;
  for (let k = 0; k < unsealed.length; k++) {
    const u = unsealed[k];
    if (u.length === length && u.charCodeAt(field.length) === 32 && u.startsWith(field) && u.endsWith(stamp)) return true;
  }
  return false;
}

/**
 * The issue records of the last derivation (in id order), their id → index map, and what each
 * record gave. A record is a value: a changed file is read into a new record object (the loader,
 * the transitions and the editors all make new ones). So while the issue ids and the milestone ids
 * are the same, the map is the same and the same record object at the same position gives the
 * same facts: a server that derives again after one file changed reads that one record, not ten
 * thousand, and does not build a 10k-entry map again.
 */
export interface LastRead {
  records: readonly IssueRecord[];
  ids: string[];
  index: Map<string, number>;
  milestoneIds: readonly string[];
  facts: IssueFacts[];
}

/** What a memory holds: the last derivation's reading and the seal checks. */
export interface Kept {
  last: LastRead | undefined;
  sealChecks: SealChecks;
}

export let keptIn: (memory: DerivationMemory) => Kept;

/**
 * What the derivations of one plan keep for the next one: the caller owns it (a server keeps one
 * per repository it serves; a one-shot command passes none). Only derivePlan reads or writes it,
 * and checks what it kept before each use, so a memory never changes an answer.
 */
export class DerivationMemory {
  private readonly kept: Kept = { last: undefined, sealChecks: new Map() };

  static {
    keptIn = (memory) => memory.kept;
  }
}
