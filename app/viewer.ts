import { headers } from "next/headers";
import { authenticate, securityFromEnv } from "@/lib/server/security";

/** Who is looking at a page: whether this server asks for sign-in, and who is signed in. */
export interface Viewer {
  /** Beyond loopback: every page needs a signed-in caller. */
  authRequired: boolean;
  /** Whether sign-in is possible at all (a token or a users file is configured): then every move and edit needs it, on loopback too. */
  canSignIn: boolean;
  signedIn: boolean;
  /** The signed-in user's name (none for the single shared token). */
  name?: string;
}

export async function currentViewer(): Promise<Viewer> {
  const security = securityFromEnv();
  const { actor } = await authenticate(await headers(), security);
  return { authRequired: security.authRequired, canSignIn: Boolean(security.token || security.usersFile), signedIn: Boolean(actor), name: actor?.name };
}

/** Whether a page may show the plan to this viewer. */
export const maySeePlan = (v: Viewer) => !v.authRequired || v.signedIn;
