import { admit, settingsFromEnv } from "@/lib/surfaces/http";
import { securityFromEnv } from "@/lib/server/security";
import { subscribeToChanges } from "@/lib/server/state";
import { subscribeToAsks } from "@/lib/coordination/plan-asks";

export const dynamic = "force-dynamic";

/** Server-sent events: `change` whenever a record of the served plan changes on disk; `ask` when an ask opens or ends here (docs/inbox.md). */
export async function GET(request: Request) {
  const { repo, security } = settingsFromEnv();
  const { denied } = await admit(request, security ?? securityFromEnv(), "query");
  if (denied) return denied;
  const encoder = new TextEncoder();
  let cleanup = () => {};
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (text: string) => {
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          cleanup();
        }
      };
      send("retry: 1000\n\n");
      const unsubscribe = subscribeToChanges(repo, () => send(`event: change\ndata: ${Date.now()}\n\n`));
      const unsubscribeAsks = subscribeToAsks((e) => send(`event: ask\ndata: ${JSON.stringify(e)}\n\n`));
      const keepAlive = setInterval(() => send(": keep-alive\n\n"), 15_000);
      cleanup = () => {
        clearInterval(keepAlive);
        unsubscribe();
        unsubscribeAsks();
      };
      request.signal.addEventListener("abort", () => {
        cleanup();
        try {
          controller.close();
        } catch {
          /* already closed */
        }
      });
    },
    cancel() {
      cleanup();
    },
  });
  return new Response(stream, {
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache, no-transform", connection: "keep-alive" },
  });
}
