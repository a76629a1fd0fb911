import Link from "@/components/Link";
import { currentViewer } from "@/app/viewer";
import { SessionBounce } from "@/components/SessionBounce";
import { safeNext } from "@/lib/server/security";

export const dynamic = "force-dynamic";
export const metadata = { title: "Sign in" };

type Search = Promise<Record<string, string | string[] | undefined>>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

const NOTES: Record<string, { text: string; alert: boolean }> = {
  invalid: { text: "That token is not valid. Check it and try again.", alert: true },
  expired: { text: "Your session has expired or was revoked. Sign in again.", alert: true },
  signedout: { text: "You are signed out.", alert: false },
};

/** The sign-in page: a token in, a session cookie out (the form posts to /api/auth/signin). */
export default async function SignInPage({ searchParams }: { searchParams: Search }) {
  const params = await searchParams;
  const next = safeNext(one(params.next));
  const viewer = await currentViewer();
  const note = one(params.error) === "invalid" ? NOTES.invalid : one(params.expired) ? NOTES.expired : one(params.signedout) ? NOTES.signedout : undefined;
  return (
    <main className="mx-auto mt-10 max-w-md">
      <section className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900">
        <h1 className="mb-2 text-xl font-semibold">Sign in to Cockpit</h1>
        {!viewer.canSignIn ? (
          <p className="text-sm">
            This server needs no sign-in: it has no token and no users file. <Link href="/" className="text-blue-700 underline dark:text-blue-300">Open the Cockpit</Link>.
          </p>
        ) : viewer.signedIn ? (
          <p className="text-sm">
            You are signed in{viewer.name ? ` as ${viewer.name}` : ""}. <Link href={next} className="text-blue-700 underline dark:text-blue-300">Continue</Link>.
          </p>
        ) : (
          <>
            <SessionBounce next={next} />
            {!viewer.authRequired && (
              <p className="mb-2 text-sm text-slate-700 dark:text-slate-300">Reading needs no sign-in on this server; moves and edits do.</p>
            )}
            <p className="mb-4 text-sm text-slate-700 dark:text-slate-300">
              Paste your token: the server&apos;s <code className="font-mono">COCKPIT_TOKEN</code>, or the one <code className="font-mono">cockpit users add NAME</code> printed for you.
            </p>
            {note && (
              <p role={note.alert ? "alert" : "status"} data-testid="signin-note" className={`mb-4 rounded border px-3 py-2 text-sm ${note.alert ? "border-red-300 bg-red-50 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100" : "border-slate-300 bg-slate-50 dark:border-slate-700 dark:bg-slate-800"}`}>
                {note.text}
              </p>
            )}
            <form method="post" action="/api/auth/signin" className="flex flex-col gap-3">
              <input type="hidden" name="next" value={next} />
              <label htmlFor="token" className="text-sm font-medium">
                Token
              </label>
              <input
                id="token"
                name="token"
                type="password"
                required
                autoComplete="current-password"
                autoFocus
                className="rounded border border-slate-400 bg-white px-3 py-2 font-mono text-sm dark:border-slate-600 dark:bg-slate-950"
              />
              <button type="submit" className="rounded bg-blue-700 px-4 py-2 text-sm font-semibold text-white hover:bg-blue-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-400">
                Sign in
              </button>
            </form>
          </>
        )}
      </section>
    </main>
  );
}
