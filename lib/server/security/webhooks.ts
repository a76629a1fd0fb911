import { createHmac, timingSafeEqual } from "node:crypto";
import { webhookSecret } from "../../config";

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
