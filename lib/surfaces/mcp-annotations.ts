import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { AnyCapability } from "../capabilities/capability";
import { ownValue } from "../plan/own";

// What each MCP tool tells a client about itself (readOnlyHint, destructiveHint, idempotentHint,
// openWorldHint), with the reason beside it: a client decides from these whether to ask before a call.

export interface Hints {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
  /** Why, in words (the tests state it too). */
  why: string;
}

/** Every query: it reads the files (or git) of the one repository, and writes nothing. */
const READ: Hints = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false, why: "it reads the repository and writes nothing" };

const write = (destructiveHint: boolean, idempotentHint: boolean, why: string, openWorldHint = false): Hints => ({ readOnlyHint: false, destructiveHint, idempotentHint, openWorldHint, why });

/**
 * The hints of every command, by capability id. A command missing here is a mistake the tests catch.
 * Each reason says what the command does, then what the same call again does: idempotent only
 * where it is refused and writes nothing, or finds nothing left to do (the tests hold the hint to it).
 */
export const COMMAND_HINTS: Record<string, Hints> = {
  "plan.transition": write(false, true, "it adds a stamp; the same move again is refused and writes nothing"),
  "plan.evidence": write(false, false, "it appends an evidence entry; the same call again appends another"),
  "plan.claim": write(false, false, "it starts the next READY issue; a second call starts another one"),
  "plan.heartbeat": write(false, false, "it renews the caller's own session on an issue and keeps its note; a second call renews it again, its lease running from then"),
  "plan.ask": write(false, true, "it opens an ask a person answers; the same question again answers the same ask and writes nothing"),
  "plan.answer": write(false, true, "it answers an open ask, ending it; the same call again is refused and writes nothing"),
  "plan.withdraw": write(false, true, "it withdraws the caller's own open ask; the same call again is refused and writes nothing"),
  "plan.release": write(true, true, "it ends a session, possibly someone else's (force); a second call finds none"),
  "plan.create": write(false, false, "it adds a record; a second call adds another (or is refused when the id is taken)"),
  "plan.edit": write(true, false, "it can unset fields, remove list entries and cancel a record; a list addition repeated is another change"),
  "plan.import": write(false, true, "it adds the records the plan lacks and never overwrites one; the same import again finds them all there and writes nothing"),
  "plan.undo": write(true, true, "it puts a record back as it was before a move or edit, dropping that change; the same undo again is refused and writes nothing"),
  "plan.commit": write(false, false, "it commits the record changes and pushes them to the remote (default): the world beyond the repository; a second call commits whatever changed since", true),
  "plans.create": write(false, false, "it creates an execution plan; a second call creates another"),
  "plans.claim": write(false, false, "it hands the next child to a caller; a second call hands another"),
  "plans.advance": write(false, false, "it moves a child one phase on; the same call again is refused, the refusal recorded as an event of the child, or moves it further"),
  "plans.fail": write(false, false, "it records a failure (and may schedule a retry); a second call records another"),
  "plans.complete": write(false, false, "it completes a child with its evidence; the same call again is refused, the refusal recorded as an event of the child"),
  "plans.delete": write(true, true, "it removes an execution plan, its children, its timeline and its integration branch; the same call again is refused and writes nothing"),
  "plans.tick": write(false, true, "it times out the children past their deadline; a second call finds none newly late"),
};

export function hintsOf(c: AnyCapability): Hints {
  if (c.kind === "query") return READ;
  const hints = ownValue(COMMAND_HINTS, c.id);
  if (!hints) throw new Error(`the command ${c.id} has no MCP hints; declare them in lib/surfaces/mcp-annotations.ts`);
  return hints;
}

/** A tool's annotations: its hints (its title is the tool's own, not repeated here). */
export function annotationsOf(c: AnyCapability): ToolAnnotations {
  const { why: _why, ...annotations } = hintsOf(c);
  return annotations;
}
