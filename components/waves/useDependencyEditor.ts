"use client";

import type { Connection, EdgeChange, FinalConnectionState } from "@xyflow/react";
import { useEffect, useRef, useState } from "react";
import { dependencyOf } from "@/lib/graph/flow-elements";
import type { Plan, PlanIssue } from "@/lib/plan/shapes";
import { useEditFlow, useTabUndo } from "../useEditFlow";

// Editing dependencies on the graph: a drag adds one, Delete on a selected edge removes one; both
// go through the editor's preview-then-confirm flow and share the tab's one undo.

export interface EditIntent {
  title: string;
  sentence: string;
  /** The issues the edit changes or names: the dialog keeps clear of their cards. */
  ids: string[];
}

export function useDependencyEditor(plan: Plan, byId: ReadonlyMap<string, PlanIssue>, onWritten: () => void) {
  const edit = useEditFlow(onWritten);
  const undo = useTabUndo();
  const [selectedEdge, setSelectedEdge] = useState<string | null>(null);
  const [intent, setIntentNow] = useState<EditIntent | null>(null);
  /** What the last written edit wrote, said above the graph once its dialog closed. */
  const [written, setWritten] = useState<string | null>(null);
  // A new proposal replaces what the bar said.
  const setIntent = (next: EditIntent | null) => {
    if (next) setWritten(null);
    setIntentNow(next);
  };
  const dialogRef = useRef<HTMLDivElement>(null);

  const titled = (id: string) => `${id} ${byId.get(id)?.title ?? ""}`.trim();

  /** Propose "dependent depends on dependency": previewed, written only on Confirm. */
  const proposeDependency = (dependency: string, dependent: string) => {
    if (dependency === dependent || !byId.has(dependency) || !byId.has(dependent)) return;
    setIntent({
      title: "Add a dependency",
      sentence: `${titled(dependent)} will wait on ${titled(dependency)} (the arrow ${dependency} → ${dependent}).`,
      ids: [dependency, dependent],
    });
    edit.preview({
      id: dependent,
      input: { add: { depends_on: [dependency] } },
      label: `add depends_on ${dependency}`,
      undo: { id: dependent, input: { remove: { depends_on: [dependency] } }, label: `undo of add depends_on ${dependency}` },
    });
  };

  /** Propose removing the dependency an edge draws: previewed, written only on Confirm. */
  const proposeRemoval = (edgeId: string) => {
    const d = dependencyOf(edgeId);
    if (!d) return;
    setIntent({
      title: "Remove a dependency",
      sentence: `${titled(d.dependent)} will no longer wait on ${titled(d.dependency)} (the arrow ${d.dependency} → ${d.dependent}).`,
      ids: [d.dependency, d.dependent],
    });
    edit.preview({
      id: d.dependent,
      input: { remove: { depends_on: [d.dependency] } },
      label: `remove depends_on ${d.dependency}`,
      undo: { id: d.dependent, input: { add: { depends_on: [d.dependency] } }, label: `undo of remove depends_on ${d.dependency}` },
    });
  };

  const proposeUndo = () => {
    if (!undo) return;
    setIntent({ title: "Undo the last edit", sentence: `${undo.label} on ${titled(undo.id)}.`, ids: [undo.id] });
    edit.preview({ id: undo.id, input: undo.input, label: undo.label, undoes: undo.ledger_id });
  };

  const closeDialog = () => {
    edit.dismiss();
    setIntent(null);
  };

  // A drag ends on a handle (onConnect), or anywhere on an issue's card (onConnectEnd).
  const onConnect = (c: Connection) => proposeDependency(c.source, c.target);
  const onConnectEnd = (event: MouseEvent | TouchEvent, state: FinalConnectionState) => {
    if (state.isValid || !state.fromNode || state.fromHandle?.type !== "source") return;
    const point = "changedTouches" in event ? event.changedTouches[0] : event;
    const card = document.elementFromPoint(point.clientX, point.clientY)?.closest<HTMLElement>(".react-flow__node-issue");
    const to = state.toNode?.id ?? card?.dataset.id;
    if (to) proposeDependency(state.fromNode.id, to);
  };
  const onEdgesChange = (changes: EdgeChange[]) => {
    for (const c of changes) if (c.type === "select" && c.selected && dependencyOf(c.id)) setSelectedEdge(c.id);
  };

  // The dialog takes the focus when a preview opens; Escape cancels it.
  const previewShown = edit.pending?.preview;
  useEffect(() => {
    if (previewShown && !previewShown.written) dialogRef.current?.focus();
  }, [previewShown]);
  // An edge the plan no longer has is no longer selected.
  useEffect(() => {
    if (selectedEdge && !plan.edges.some((e) => `${e.from}->${e.to}` === selectedEdge)) setSelectedEdge(null);
  }, [plan, selectedEdge]);

  /** Delete (or Backspace) on a focused or selected dependency edge proposes removing it; whether it did. */
  const onDeleteKey = (e: React.KeyboardEvent): boolean => {
    if (e.key !== "Delete" && e.key !== "Backspace") return false;
    const focused = (e.target as Element).closest<HTMLElement>(".react-flow__edge")?.dataset.id;
    const target = focused && dependencyOf(focused) ? focused : selectedEdge;
    if (!target) return false;
    e.preventDefault();
    setSelectedEdge(target);
    proposeRemoval(target);
    return true;
  };

  // A written edit closes the dialog: the graph shows it, and the bar above says what was written.
  const wroteText = edit.outcome?.ok && edit.pending?.preview?.written ? edit.outcome.text : null;
  const { dismiss } = edit;
  useEffect(() => {
    if (wroteText === null) return;
    setWritten(wroteText);
    dismiss();
    setIntent(null);
  }, [wroteText, dismiss]);

  const isDialogOpen = !!intent && !!(edit.busy || edit.pending || edit.outcome);

  return {
    edit,
    undo,
    intent,
    isDialogOpen,
    written,
    dialogRef,
    selectedEdge,
    setSelectedEdge,
    proposeRemoval,
    proposeUndo,
    closeDialog,
    onConnect,
    onConnectEnd,
    onEdgesChange,
    onDeleteKey,
  };
}

export type DependencyEditor = ReturnType<typeof useDependencyEditor>;
