"use server";

import { findCapability } from "@/lib/capabilities/index";
import { contextFor } from "@/lib/surfaces/context";
import { settingsFromEnv } from "@/lib/surfaces/http";
import { invoke, type Invocation } from "@/lib/surfaces/invoke";

/**
 * The server-action projection of the registry: the browser calls a capability by id with the
 * same input an HTTP or MCP caller sends, and gets `{ ok, value }` or `{ ok: false, error }`.
 */
export async function runCapability(id: string, input: unknown): Promise<Invocation> {
  const capability = typeof id === "string" ? findCapability(id) : undefined;
  if (!capability) return { ok: false, error: { code: "not_found", message: `no capability '${String(id)}'` } };
  const settings = settingsFromEnv();
  return invoke(capability, contextFor(settings.repo), input);
}
