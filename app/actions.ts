"use server";

import { headers } from "next/headers";
import { findCapability, type CapabilityId, type OutputOf } from "@/lib/capabilities/index";
import { contextFor } from "@/lib/server/state";
import { needsCaller, settingsFromEnv } from "@/lib/surfaces/http";
import { invoke, type Invocation } from "@/lib/surfaces/invoke";
import { authenticate, byOf, securityFromEnv } from "@/lib/server/security";

/** A capability's answer, or the refusal of a caller who must sign in first (the page shows the way to /signin). */
export type ActionResult<T = unknown> = Invocation<T> | { ok: false; error: { code: "unauthorized"; message: string } };

/** The answer's type for a capability named by id: its output schema's when the id is a registered one. */
export type ActionAnswer<Id extends string> = Id extends CapabilityId ? OutputOf<Id> : unknown;

/** The request's headers; none when called outside a request (a test calls the action directly). */
async function requestHeaders(): Promise<Headers | Awaited<ReturnType<typeof headers>>> {
  try {
    return await headers();
  } catch {
    return new Headers();
  }
}

/**
 * The server-action projection of the registry: the browser calls a capability by id with the
 * same input an HTTP or MCP caller sends, and gets `{ ok, value }` or `{ ok: false, error }`.
 * The doors are HTTP's: a command needs a signed-in caller once a token or users exist (on
 * loopback too), and beyond loopback every call does. The signed-in person is named in the ledger.
 */
export async function runCapability<Id extends string>(id: Id, input: unknown): Promise<ActionResult<ActionAnswer<Id>>> {
  const capability = typeof id === "string" ? findCapability(id) : undefined;
  if (!capability) return { ok: false, error: { code: "not_found", message: `no capability '${String(id)}'` } };
  const settings = settingsFromEnv();
  const security = settings.security ?? securityFromEnv();
  const { actor, invalid } = await authenticate(await requestHeaders(), security);
  if (!actor && needsCaller(security, capability.kind === "command" ? "command" : "query")) {
    const message = invalid ? "your session has expired or was revoked; sign in again at /signin" : "moves and edits on this server need you to sign in at /signin";
    return { ok: false, error: { code: "unauthorized", message } };
  }
  // The capability was found by this very id, so its answer has that capability's output type.
  return invoke(capability, contextFor(settings.repo, byOf(actor)), input) as Promise<Invocation<ActionAnswer<Id>>>;
}
