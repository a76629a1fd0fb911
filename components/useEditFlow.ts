"use client";

import { useCallback, useEffect, useState, useTransition } from "react";
import { runCapability, type ActionAnswer } from "@/app/actions";
import { newIdempotencyKey } from "./idempotency-key";

// The flow every plan edit of the browser takes (the inline editor, the graph's drags and
// deletes): a dry run to preview, a confirm that writes against the version it previewed, and
// one undo per tab (sessionStorage), itself an edit with its preview.

/** What an edit answers (plan.edit's output): its preview, its version, its ledger line. */
export type EditAnswer = Extract<ActionAnswer<"plan.edit">, { id: string }>;

/** plan.edit's answer to an edit of one record (an edit by id never answers a batch). */
function oneRecord(v: ActionAnswer<"plan.edit">): EditAnswer {
  if ("ids" in v) throw new Error("the edit of one record was answered for a batch");
  return v;
}

/** The edit that takes the last one back. */
export interface Undo {
  id: string;
  /** The inverse edit: previewed, so the person sees what the undo does to the plan. */
  input: Record<string, unknown>;
  label: string;
  /** The ledger line of the edit it undoes: confirmed, plan.undo puts the record's bytes back. */
  ledger_id?: number;
}

export interface PendingEdit {
  /** The record edited. */
  id: string;
  input: Record<string, unknown>;
  preview?: EditAnswer;
  /** The version the write carries: the page's, the current one after a conflict, else the one previewed. */
  version?: string;
  label: string;
  /** The edit that takes this one back (absent for an undo: there is one undo, not a history). */
  undo?: Undo;
  /** An undo: the ledger line plan.undo takes back on confirm (the input is only previewed). */
  undoes?: number;
  /** The confirm's idempotency key, one per preview: a confirm sent twice writes once. */
  key?: string;
}

export interface EditOutcome {
  ok: boolean;
  text: string;
  conflictVersion?: string;
  /** Refused because the browser must sign in first. */
  signIn?: boolean;
}

const UNDO_KEY = "cockpit-undo";
/** Sent when the tab's undo changes, so every editor on the page shows the same one. */
const UNDO_EVENT = "cockpit-undo-changed";

function readUndo(): Undo | null {
  const saved = sessionStorage.getItem(UNDO_KEY);
  return saved ? (JSON.parse(saved) as Undo) : null;
}

function writeUndo(undo: Undo | undefined) {
  if (undo) sessionStorage.setItem(UNDO_KEY, JSON.stringify(undo));
  else sessionStorage.removeItem(UNDO_KEY);
  window.dispatchEvent(new Event(UNDO_EVENT));
}

/** The tab's undo, or null; `onlyFor` keeps only an undo of that record. */
export function useTabUndo(onlyFor?: string): Undo | null {
  const [undo, setUndo] = useState<Undo | null>(null);
  useEffect(() => {
    const read = () => {
      const u = readUndo();
      setUndo(u && (onlyFor === undefined || u.id === onlyFor) ? u : null);
    };
    read();
    window.addEventListener(UNDO_EVENT, read);
    return () => window.removeEventListener(UNDO_EVENT, read);
  }, [onlyFor]);
  return undo;
}

/** Preview, confirm, cancel and re-apply of one edit at a time; `onWritten` refreshes the page. */
export function useEditFlow(onWritten: () => void) {
  const [busy, start] = useTransition();
  const [pending, setPending] = useState<PendingEdit | null>(null);
  const [outcome, setOutcome] = useState<EditOutcome | null>(null);

  const preview = useCallback(
    (next: PendingEdit) =>
      start(async () => {
        setOutcome(null);
        const r = await runCapability("plan.edit", { id: next.id, ...next.input, dry_run: true });
        if (!r.ok) {
          setPending(null);
          setOutcome({ ok: false, text: `Refused: ${r.error.message}`, signIn: r.error.code === "unauthorized" });
          return;
        }
        setPending({ ...next, preview: oneRecord(r.value), key: newIdempotencyKey() });
      }),
    [],
  );

  const confirm = useCallback(
    () =>
      start(async () => {
        if (!pending?.preview) return;
        const version = pending.version ?? pending.preview.previous_version;
        const key = pending.key ?? newIdempotencyKey();
        const r =
          pending.undoes !== undefined
            ? await runCapability("plan.undo", { ledger_id: pending.undoes, idempotency_key: key })
            : await runCapability("plan.edit", { id: pending.id, ...pending.input, ...(version ? { if_version: version } : {}), idempotency_key: key });
        if (!r.ok) {
          // A refusal may pass once its cause is fixed: the next confirm is a new request.
          setPending({ ...pending, key: newIdempotencyKey() });
          const details = (r.error as { details?: { version?: string } }).details;
          setOutcome({ ok: false, text: `Refused: ${r.error.message}`, conflictVersion: r.error.code === "conflict" ? details?.version : undefined, signIn: r.error.code === "unauthorized" });
          return;
        }
        // An undo answers with its ledger line, not the record: what it wrote is the preview it showed.
        const answer = "changes" in r.value ? oneRecord(r.value) : { ...pending.preview, written: true };
        setOutcome({ ok: true, text: `${pending.id} ${pending.label}: ${answer.changes.join("; ")}.` });
        setPending({ ...pending, preview: answer });
        writeUndo(pending.undo && { ...pending.undo, ledger_id: answer.ledger_id });
        onWritten();
      }),
    [pending, onWritten],
  );

  const cancel = useCallback(() => setPending(null), []);
  const reapply = useCallback(() => {
    if (pending && outcome?.conflictVersion) preview({ ...pending, version: outcome.conflictVersion });
  }, [pending, outcome, preview]);
  /** Close a written edit's before → after (the page moved on). */
  const dismiss = useCallback(() => {
    setPending(null);
    setOutcome(null);
  }, []);

  return { busy, pending, outcome, preview, confirm, cancel, reapply, dismiss };
}

export type EditFlow = ReturnType<typeof useEditFlow>;
