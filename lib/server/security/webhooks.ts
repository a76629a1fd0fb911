import { createHmac, timingSafeEqual } from "node:crypto";
import { webhookSecret } from "../../config";
import { processWide } from "../../process-wide";

// A git host's push webhook may ask a following server to sync (POST /api/v1/sync): GitHub signs
// the body with X-Hub-Signature-256 (HMAC-SHA256 with the webhook's secret), GitLab sends the
// secret itself as X-Gitlab-Token. Both are checked against COCKPIT_WEBHOOK_SECRET in constant
// time. A request carrying either header is judged by it alone.

export interface HeaderGetter {
  get(name: string): string | null;
}

/** `none`: no webhook header (the door policy decides); `ok`; or why it is refused (401). */
export type WebhookVerdict = { kind: "none" } | { kind: "ok"; host: "github" | "gitlab" } | { kind: "refused"; why: string };

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a, "utf8");
  const y = Buffer.from(b, "utf8");
  // Compared at one length so the time does not tell how long the secret is.
  const n = Math.max(x.length, y.length, 1);
  const px = Buffer.alloc(n);
  const py = Buffer.alloc(n);
  x.copy(px);
  y.copy(py);
  return timingSafeEqual(px, py) && x.length === y.length;
}

export function judgeWebhook(headers: HeaderGetter, body: Buffer, secret = webhookSecret()): WebhookVerdict {
  const github = headers.get("x-hub-signature-256");
  const gitlab = headers.get("x-gitlab-token");
  if (github === null && gitlab === null) return { kind: "none" };
  if (!secret) return { kind: "refused", why: "this server has no webhook secret (COCKPIT_WEBHOOK_SECRET), so no webhook is accepted" };
  if (github !== null) {
    const expected = `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
    return sameText(github.trim().toLowerCase(), expected) ? { kind: "ok", host: "github" } : { kind: "refused", why: "X-Hub-Signature-256 does not match the body signed with COCKPIT_WEBHOOK_SECRET" };
  }
  return sameText(gitlab ?? "", secret) ? { kind: "ok", host: "gitlab" } : { kind: "refused", why: "X-Gitlab-Token does not match COCKPIT_WEBHOOK_SECRET" };
}

/** How long a GitHub delivery id is remembered: a redelivery within it fetches nothing. */
export const DELIVERY_WINDOW_MS = 60 * 60_000;

/** GitHub's delivery ids (X-GitHub-Delivery) of signed pushes, with when each was first seen. */
export class DeliveryMemory {
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly windowMs = DELIVERY_WINDOW_MS,
    private readonly max = 10_000,
  ) {}

  /** Whether `id` was seen within the window; a new one is remembered from now. */
  seenBefore(id: string, now = Date.now()): boolean {
    // A Map keeps insertion order, which is the order of first sight: the old ones lead.
    for (const [old, at] of this.seen) {
      if (now - at < this.windowMs) break;
      this.seen.delete(old);
    }
    if (this.seen.has(id)) return true;
    this.seen.set(id, now);
    if (this.seen.size > this.max) this.seen.delete(this.seen.keys().next().value as string);
    return false;
  }
}

/** One memory per process: the route handlers are bundles of their own. */
export const githubDeliveries = processWide("github-deliveries", () => new DeliveryMemory());
