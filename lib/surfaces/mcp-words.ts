import type { AnyCapability } from "../capabilities/capability";
import { ownValue } from "../plan/own";

// What a model reads of each MCP tool besides its name and input schema: one short sentence.
// A model reads every tool's words on every turn, so they are a capability's description cut to
// what picks the tool; the whole description is the capability's (docs/capabilities.md, the
// OpenAPI document), and the loop an agent follows is in the server's instructions.
// They name no capability id and no tool (a tool's name depends on how the server names them).

export const MCP_DESCRIPTIONS: Record<string, string> = {
  "plan.model": "Every milestone and issue with derived status and waves, and every finding.",
  "plan.status": "Each milestone's status and counts, and the next ready issue.",
  "plan.issues": "Issues with derived status, by milestone, status or wave.",
  "plan.waves": "The dependency waves and the scope overlaps in them.",
  "plan.next": "The issue to take now: the first READY one, active milestone first.",
  "plan.roadmap": "Milestones in order, with the one now and the one next.",
  "plan.critical_path": "The longest chain of unfinished issues, first to do first.",
  "plan.validate": "Every finding; valid is false when one is a FAIL.",
  "plan.record": "One milestone or issue in full: fields, evidence, allowed moves.",
  "plan.changes": "What changed since a revision, and why.",
  "plan.history": "The commits and moves that changed one record, newest first.",
  "plan.burnup": "A milestone's scope, started and done, day by day.",
  "plan.forecast": "When a milestone's remaining issues will be done.",
  "plan.code": "The branches, commits and merges that name an issue.",
  "plan.standup": "Per person: what was done, started, is open or blocked.",
  "plan.transition": "Start, verify or finish an issue.",
  "plan.evidence": "Record evidence for one required token of a record.",
  "plan.claim": "Start the next ready issue as your session, in one locked step.",
  "plan.heartbeat": "Renew your session on an issue, with a note.",
  "plan.release": "End your session on an issue, with a note.",
  "plan.agents": "Every session on an issue, with its state.",
  "plan.ask": "Ask a person about your issue; then wait for the answer.",
  "plan.wait": "Wait for an ask's answer, up to timeout seconds.",
  "plan.answer": "Answer an open ask, as a person.",
  "plan.withdraw": "Withdraw an open ask you made.",
  "plan.inbox": "What waits on a person: open asks, stale sessions, issues in VERIFY.",
  "plan.digest": "A window's standup as one message.",
  "plan.create": "Create an issue or a milestone.",
  "plan.edit": "Set, unset, add or remove fields of one record or many alike.",
  "plan.undo": "Put a record back as it was before one move or edit.",
  "plan.activity": "Recent moves and edits, and which can be undone.",
  "plan.import": "Import records from beads, Backlog.md, Task Master or GitHub.",
  "plan.commit": "Commit the changed records, and push them.",
  "plan.sync_status": "How this server's clone follows its remote.",
  "plans.create": "Make an execution plan: a child per open issue, by wave.",
  "plans.get": "One execution plan, its children and its decisions.",
  "plans.list": "The root execution plans, newest first.",
  "plans.claim": "Move the next child that may run to processing.",
  "plans.advance": "Move a child to its next phase; apply merges its branch.",
  "plans.fail": "Report that a child failed; it may be retried.",
  "plans.complete": "Complete a child with its evidence: its issue is DONE.",
  "plans.tick": "Fail the children past their timeout.",
  "plans.delete": "Delete a root plan, its children and its integration branch.",
};

/** A tool's description: its capability's, cut short. A capability missing here is a mistake the tests catch. */
export function mcpDescription(c: AnyCapability): string {
  const words = ownValue(MCP_DESCRIPTIONS, c.id);
  if (!words) throw new Error(`the capability ${c.id} has no MCP description; write one in lib/surfaces/mcp-words.ts`);
  return words;
}

/** A few words on an input member whose name alone misleads, by capability id and member. */
export const MCP_INPUT_WORDS: Record<string, Record<string, string>> = {
  "plan.import": { files: "each file's text by relative path" },
};

export function mcpInputWords(c: AnyCapability): Record<string, string> {
  return ownValue(MCP_INPUT_WORDS, c.id) ?? {};
}
