// Next.js runs register() once when the server starts: a `cockpit serve --follow` server starts
// following its remote then, not at its first request; one with --notify-url starts telling its
// receivers what happens (docs/inbox.md#webhooks).
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  if (process.env.COCKPIT_FOLLOW) {
    const { startFollowing } = await import("./lib/server/follow");
    startFollowing();
  }
  if (process.env.COCKPIT_NOTIFY_URLS) {
    const { startNotifying } = await import("./lib/server/notify");
    startNotifying();
  }
}
