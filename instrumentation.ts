// Next.js runs register() once when the server starts: a `cockpit serve --follow` server starts
// following its remote then, not at its first request.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs" || !process.env.COCKPIT_FOLLOW) return;
  const { startFollowing } = await import("./lib/server/follow");
  startFollowing();
}
