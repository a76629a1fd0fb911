import { planSyncStatusCapability } from "../capabilities/plan-sync-status";
import { githubDeliveries, judgeWebhook, peerOf, securityFromEnv, signInLimiter, tooManyGuesses } from "../server/security";
import { requestSync, syncStatus } from "../server/follow";
import { withUncommitted } from "../capabilities/plan-sync-status";
import { admit, handleCapabilityRequest, settingsFromEnv, type HttpSettings } from "./http";
import { httpPath } from "../capabilities/projection";
import { errorResponse, jsonResponse } from "./responses";

// `/api/v1/sync`: GET is plan.sync_status; POST asks a following server to sync now (202, with the
// state), from any caller that may run commands or from a git host's signed push webhook. A
// GitHub delivery seen in the last hour (a redelivery) is answered with the state and fetches nothing.

const MAX_WEBHOOK_BYTES = 25 * 1024 * 1024;

export function handleSyncStatus(request: Request, settings: HttpSettings = settingsFromEnv()): Promise<Response> {
  return handleCapabilityRequest(request, httpPath(planSyncStatusCapability), settings);
}

export async function handleSyncRequest(request: Request, settings: HttpSettings = settingsFromEnv()): Promise<Response> {
  const length = Number(request.headers.get("content-length") ?? 0);
  if (length > MAX_WEBHOOK_BYTES) return errorResponse("too_large", 413, `the body is over ${MAX_WEBHOOK_BYTES / (1024 * 1024)} MiB`);
  const body = Buffer.from(await request.arrayBuffer());
  const security = settings.security ?? securityFromEnv();
  const verdict = judgeWebhook(request.headers, body);
  if (verdict.kind === "refused") {
    // A wrong signature or token is a guess like a wrong bearer token: one count per address.
    const peer = peerOf(request.headers, security);
    const wait = signInLimiter.retryAfter(peer);
    signInLimiter.fail(peer);
    if (wait > 0) {
      const refusal = tooManyGuesses(wait);
      return new Response(refusal.body, { status: refusal.status, headers: refusal.headers });
    }
    return errorResponse("unauthorized", 401, `${verdict.why}; nothing was fetched`);
  }
  if (verdict.kind === "none") {
    const { denied } = await admit(request, security, "command");
    if (denied) return denied;
  }
  const delivery = verdict.kind === "ok" && verdict.host === "github" ? request.headers.get("x-github-delivery") : null;
  // The answer is plan.sync_status's shape (the records not committed yet counted too).
  const state = delivery && githubDeliveries.seenBefore(delivery) ? await syncStatus(settings.repo) : requestSync(settings.repo);
  return jsonResponse(202, await withUncommitted(settings.repo, state));
}
