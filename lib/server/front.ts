import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { limitedGuess, securityFromEnv, tooManyGuesses, type HeaderBag } from "./security";
import { APP_ROOT } from "./serve";

// The server `cockpit serve` runs: Next.js's request handler behind a front of our own. The front
// is the one place that sees the socket, so it alone can say where a request came from (for the
// sign-in rate limit); forwarded headers reach the app only when a trusted proxy is declared.
// It also answers a guessing address's wrong tokens itself (429), before the app spends anything.

const FORWARDED = ["x-forwarded-for", "x-forwarded-host", "x-forwarded-proto", "x-forwarded-port"];

export function peerAddress(req: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const hops = String(req.headers["x-forwarded-for"] ?? "").split(",").map((h) => h.trim()).filter(Boolean);
    if (hops.length) return hops[hops.length - 1];
  }
  return req.socket.remoteAddress ?? "unknown";
}

/** Next.js's server factory, as the front uses it: the front's entry (bin/front-main.ts) requires it. */
export type NextFactory = (o: { dev: boolean; dir: string; hostname: string; port: number }) => {
  prepare(): Promise<void>;
  getRequestHandler(): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
};

/** Serve the app with the settings cockpit serve gave this process (frontEnvironment adds the nonce). */
export async function runFront(next: NextFactory, env: Readonly<Record<string, string | undefined>>): Promise<void> {
  const host = env.COCKPIT_BIND_HOST || "127.0.0.1";
  const port = Number(env.COCKPIT_PORT || 3000);
  const trustProxy = env.COCKPIT_TRUST_PROXY === "1";
  // The app believes the peer header only with this nonce beside it.
  const nonce = env.COCKPIT_FRONT_NONCE;
  if (!nonce) throw new Error("the front starts from cockpit serve, which gives it COCKPIT_FRONT_NONCE");
  const app = next({ dev: false, dir: APP_ROOT, hostname: host, port });
  const handle = app.getRequestHandler();
  await app.prepare();
  const server = createServer((req, res) => {
    const peer = peerAddress(req, trustProxy);
    delete req.headers["x-cockpit-peer"];
    delete req.headers["x-cockpit-front"];
    if (!trustProxy) for (const h of FORWARDED) delete req.headers[h];
    req.headers["x-cockpit-peer"] = peer;
    req.headers["x-cockpit-front"] = nonce;
    const headers: HeaderBag = { get: (name) => [req.headers[name.toLowerCase()] ?? []].flat().join(", ") || null };
    limitedGuess(headers, securityFromEnv(env))
      .then((wait) => {
        if (wait === undefined) return handle(req, res);
        const refusal = tooManyGuesses(wait);
        res.writeHead(refusal.status, refusal.headers).end(refusal.body);
      })
      .catch((error: unknown) => {
        process.stderr.write(`cockpit serve: ${error instanceof Error ? error.stack : String(error)}\n`);
        if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
        res.end("internal error");
      });
  });
  // A request Node refuses before the app sees it (a head over 16 KB, a request that is not
  // HTTP, one too slow to arrive) is answered as the API answers: JSON naming what to fix.
  server.on("clientError", (error: NodeJS.ErrnoException, socket) => {
    if (error.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    const [status, reason, message] =
      error.code === "HPE_HEADER_OVERFLOW"
        ? [431, "Request Header Fields Too Large", "the request's URL and headers are over 16 KB; send large input in a JSON body"]
        : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
          ? [408, "Request Timeout", "the request did not arrive in time"]
          : [400, "Bad Request", "the request is not well-formed HTTP"];
    const body = JSON.stringify({ error: { code: "invalid_input", message } });
    socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  });
  await new Promise<void>((done, fail) => {
    server.once("error", fail);
    server.listen(port, host, () => done());
  });
  process.stderr.write(`cockpit serve: ready\n`);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      server.close(() => process.exit(0));
      setTimeout(() => process.exit(0), 3000).unref();
    });
  }
}
