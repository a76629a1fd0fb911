"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { runCapability, type ActionAnswer, type ActionResult } from "@/app/actions";

/** `signIn`: refused because the browser must sign in first (the outcome shows the way). */
export type CapabilityOutcome = { ok: boolean; text: string; signIn?: boolean } | null;

/**
 * Run a capability from a button or a form: the outcome in words (`describe` for a success,
 * "Refused: …" with the server's reason otherwise), then a refresh so the page shows the plan as
 * the server now derives it.
 */
export function useCapability() {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [status, setStatus] = useState<CapabilityOutcome>(null);
  const run = <Id extends string>(id: Id, input: Record<string, unknown>, describe: (value: ActionAnswer<Id>) => string, answered?: (r: ActionResult<ActionAnswer<Id>>) => void) =>
    start(async () => {
      const r = await runCapability(id, input);
      setStatus(r.ok ? { ok: true, text: describe(r.value) } : { ok: false, text: `Refused: ${r.error.message}`, signIn: r.error.code === "unauthorized" });
      answered?.(r);
      router.refresh();
    });
  return { pending, status, run };
}
