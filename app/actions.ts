"use server";

import { headers } from "next/headers";
import { findCapability } from "@/lib/capabilities/index";
import { contextFor } from "@/lib/surfaces/context";
import { settingsFromEnv } from "@/lib/surfaces/http";
import { invoke, type Invocation } from "@/lib/surfaces/invoke";
import { authenticate, byOf, securityFromEnv } from "@/lib/surfaces/security";

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
 * The proxy already turned away callers without a session; this checks again, and names the
 * signed-in person in the ledger.
 */
export async function runCapability(id: string, input: unknown): Promise<Invocation> {
  const capability = typeof id === "string" ? findCapability(id) : undefined;
  if (!capability) return { ok: false, error: { code: "not_found", message: `no capability '${String(id)}'` } };
  const settings = settingsFromEnv();
  const security = settings.security ?? securityFromEnv();
  const { actor } = await authenticate(await requestHeaders(), security);
  if (security.authRequired && !actor) {
    return { ok: false, error: { code: "refused", message: "your session has expired or was revoked; sign in again at /signin" } };
  }
  return invoke(capability, contextFor(settings.repo, byOf(actor)), input);
}
