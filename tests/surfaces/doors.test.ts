import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LEDGER_FILE } from "@/lib/plan/constants";
import { CLI, ROOT, cleanup, copyRepo, ensureBuild, freePort, hashRepo, mcpHttp, startServer, type RunningServer } from "./helpers";

// The doors of the server, over real HTTP: the Host check on loopback (DNS rebinding); on loopback
// with a token and a users file, reads open and every command asking for a caller, on every
// surface; beyond loopback (`cockpit serve --host ::` with a token and a users file) a caller for
// every request; and the guess limit of wrong tokens.

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** One request with full control of its headers (Host included), as a rebinding page's would be. */
function send(url: string, o: { method?: string; headers?: Record<string, string>; body?: string; localAddress?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: o.method ?? "GET", headers: o.headers, localAddress: o.localAddress }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      if (String(res.headers["content-type"]).startsWith("text/event-stream")) {
        // A stream never ends: its first bytes are the answer.
        res.once("data", (d: string) => {
          resolve({ status: res.statusCode!, headers: res.headers, text: d });
          req.destroy();
        });
        return;
      }
      res.on("data", (d: string) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, text }));
    });
    req.on("error", reject);
    if (o.body !== undefined) req.write(o.body);
    req.end();
  });
}

const json = { "content-type": "application/json" };
const lastLedgerLine = (repo: string) => JSON.parse(readFileSync(join(repo, LEDGER_FILE), "utf8").trim().split("\n").at(-1)!) as { by: string; event: string };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The id of the server action every page calls (`runCapability`), from the build's manifest. */
function actionId(dist: string): string {
  const manifest = JSON.parse(readFileSync(join(ROOT, dist, "server", "server-reference-manifest.json"), "utf8")) as { node: Record<string, unknown> };
  const ids = Object.keys(manifest.node);
  expect(ids.length).toBeGreaterThan(0);
  return ids[0];
}

let dist: string;

beforeAll(async () => {
  dist = await ensureBuild();
}, 300_000);
afterAll(() => cleanup());

describe("on loopback, only our own host names (DNS rebinding)", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(dist, copyRepo("cockpit-doors-loopback-"));
  }, 120_000);
  afterAll(() => server?.stop());

  const evil = () => ({ host: `evil.example:${server.port}`, origin: `http://evil.example:${server.port}` });

  it.each(["/", "/issues/BK-020", "/waves", "/api/v1/plan", "/api/v1/plan/next", "/api/v1/events", "/api/v1/openapi.json", "/_next/static/nothing.js"])(
    "GET %s under a foreign Host is 403, naming --allowed-host",
    async (path) => {
      const r = await send(`${server.url}${path}`, { headers: evil() });
      expect(r.status).toBe(403);
      expect(r.text).toMatch(/--allowed-host evil\.example/);
      expect(r.text).not.toMatch(/Harbor Bookings/);
    },
  );

  it("commands, MCP and server actions under a foreign Host are 403 and write nothing", async () => {
    const before = hashRepo(server.repo);
    const transition = await send(`${server.url}/api/v1/plan/transition`, { method: "POST", headers: { ...evil(), ...json }, body: JSON.stringify({ issue: "BK-020", transition: "start" }) });
    expect(transition.status).toBe(403);
    const claim = await send(`${server.url}/api/v1/plan/claim`, { method: "POST", headers: { ...evil(), ...json }, body: "{}" });
    expect(claim.status).toBe(403);
    const mcp = await send(`${server.url}/api/mcp`, {
      method: "POST",
      headers: { ...evil(), ...json, accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "plan_claim", arguments: {} } }),
    });
    expect(mcp.status).toBe(403);
    const action = await send(`${server.url}/issues/BK-020`, {
      method: "POST",
      headers: { ...evil(), "next-action": actionId(dist), "content-type": "text/plain;charset=UTF-8", accept: "text/x-component" },
      body: JSON.stringify(["plan.transition", { issue: "BK-020", transition: "start" }]),
    });
    expect(action.status).toBe(403);
    expect(hashRepo(server.repo)).toBe(before);
  });

  it("our own names still need nothing", async () => {
    for (const host of [`127.0.0.1:${server.port}`, `localhost:${server.port}`]) {
      const page = await send(`${server.url}/`, { headers: { host } });
      expect(page.status, host).toBe(200);
      expect(page.text).toMatch(/Harbor Bookings/);
    }
    const r = await send(`${server.url}/api/v1/plan/claim`, { method: "POST", headers: json, body: "{}" });
    expect(r.status).toBe(200);
  });
});

/** `cockpit serve` over `repo` with `args`, answering once `probe` (with `headers`) is 200. */
async function serve(repo: string, args: string[], env: Record<string, string>, probe: { path: string; headers?: Record<string, string> }) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = "";
  const child = spawn(process.execPath, [CLI, "serve", "--repo", repo, "--port", String(port), ...args], {
    cwd: ROOT,
    env: { ...process.env, COCKPIT_DIST_DIR: dist, NEXT_TELEMETRY_DISABLED: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d: Buffer) => (output += d));
  child.stderr!.on("data", (d: Buffer) => (output += d));
  const deadline = Date.now() + 90_000;
  for (;;) {
    try {
      if ((await send(`${url}${probe.path}`, { headers: probe.headers })).status === 200) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`cockpit serve did not answer:\n${output}`);
    await sleep(200);
  }
  return { child, port, url, log: () => output };
}

/** A git work tree of a fresh copy, with users made by `cockpit users add`; their tokens by name. */
function repoWithUsers(prefix: string, names: string[]) {
  const repo = copyRepo(prefix);
  for (const args of [["init", "-q", "-b", "main"], ["config", "user.name", "Cockpit server"], ["config", "user.email", "server@cockpit.invalid"], ["add", "-A"], ["commit", "-q", "-m", "the plan"]]) {
    execFileSync("git", args, { cwd: repo, stdio: "ignore" });
  }
  const usersFile = join(repo, "..", `${repo.split("/").pop()}-users.yaml`);
  const tokens: Record<string, string> = {};
  for (const name of names) tokens[name] = execFileSync(process.execPath, [CLI, "users", "add", name, "--users", usersFile], { encoding: "utf8" }).trim();
  return { repo, usersFile, tokens };
}

/** A server action posted by hand, as the browser posts one: the action's id, its arguments as JSON. */
const postAction = (url: string, page: string, args: unknown[], headers: Record<string, string> = {}) =>
  send(`${url}${page}`, {
    method: "POST",
    headers: { "next-action": actionId(dist), "content-type": "text/plain;charset=UTF-8", accept: "text/x-component", ...headers },
    body: JSON.stringify(args),
  });

describe("on loopback with a token and users, reads are open and every command needs a caller", () => {
  const TOKEN = "the-shared-token-of-the-loopback-doors-test";
  let repo: string;
  let tokens: Record<string, string>;
  let server: Awaited<ReturnType<typeof serve>>;

  beforeAll(async () => {
    let usersFile: string;
    ({ repo, tokens, usersFile } = repoWithUsers("cockpit-doors-lo-", ["ada", "bob"]));
    server = await serve(repo, ["--host", "127.0.0.1", "--users", usersFile], { COCKPIT_TOKEN: TOKEN }, { path: "/api/v1/openapi.json" });
  }, 180_000);
  afterAll(async () => {
    server?.child.kill("SIGTERM");
    await sleep(300);
  });

  const signIn = (token: string, o: { next?: string; localAddress?: string } = {}) =>
    send(`${server.url}/api/auth/signin`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token, next: o.next ?? "/" }).toString(),
      localAddress: o.localAddress,
    });
  const cookieOf = (r: Answer) => String(([] as string[]).concat(r.headers["set-cookie"] ?? [])[0] ?? "").split(";")[0];

  it("pages and HTTP reads need nothing; an HTTP command needs a caller", async () => {
    const page = await send(`${server.url}/issues/BK-020`);
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/Harbor Bookings/);
    expect((await send(`${server.url}/api/v1/plan/next`)).status).toBe(200);
    const before = hashRepo(repo);
    const claim = await send(`${server.url}/api/v1/plan/claim`, { method: "POST", headers: json, body: "{}" });
    expect(claim.status).toBe(401);
    expect(hashRepo(repo)).toBe(before);
  });

  it("a server action posted by hand without a session writes nothing; with ada's session it moves, by ada", async () => {
    const before = hashRepo(repo);
    const forged = await postAction(server.url, "/issues/BK-020", ["plan.transition", { issue: "BK-020", transition: "start" }]);
    expect(forged.text).toMatch(/"code":"unauthorized"/);
    expect(forged.text).toMatch(/need you to sign in at \/signin/);
    expect(hashRepo(repo)).toBe(before);
    // A query through the action stays open.
    const read = await postAction(server.url, "/issues/BK-020", ["plan.next", {}]);
    expect(read.text).toMatch(/"ok":true/);

    const cookie = cookieOf(await signIn(tokens.ada));
    const moved = await postAction(server.url, "/issues/BK-020", ["plan.transition", { issue: "BK-020", transition: "start" }], { cookie, origin: server.url });
    expect(moved.text).toMatch(/"ok":true/);
    expect(lastLedgerLine(repo)).toMatchObject({ event: "plan_start", by: "ada" });
  });

  it("MCP reads without a token (initialize, tools/list, resources, a query tool); a command tool needs the bearer", async () => {
    const anonymous = await mcpHttp(server.url);
    try {
      expect((await anonymous.client.listTools()).tools.map((t) => t.name)).toContain("plan_claim");
      expect((await anonymous.client.listResources()).resources.map((r) => r.uri)).toContain("cockpit://plan");
      expect((await anonymous.client.readResource({ uri: "cockpit://plan" })).contents).toHaveLength(1);
      const next = (await anonymous.client.callTool({ name: "plan_next", arguments: {} })) as { isError?: boolean };
      expect(next.isError).toBeFalsy();
      const before = hashRepo(repo);
      await expect(anonymous.client.callTool({ name: "plan_claim", arguments: {} })).rejects.toThrow(/unauthorized.*Authorization: Bearer/);
      expect(hashRepo(repo)).toBe(before);
    } finally {
      await anonymous.close();
    }
    const bob = await mcpHttp(server.url, { authorization: `Bearer ${tokens.bob}` });
    try {
      const claim = (await bob.client.callTool({ name: "plan_claim", arguments: {} })) as { isError?: boolean };
      expect(claim.isError).toBeFalsy();
      expect(lastLedgerLine(repo)).toMatchObject({ event: "plan_start", by: "bob" });
    } finally {
      await bob.close();
    }
    // bob's token is bob: an actor argument may repeat his name, never name someone else.
    const bobAgain = await mcpHttp(server.url, { authorization: `Bearer ${tokens.bob}` });
    try {
      const before = hashRepo(repo);
      const forged = (await bobAgain.client.callTool({ name: "plan_claim", arguments: { actor: "alice" } })) as { isError?: boolean; content: { text: string }[] };
      expect(forged.isError).toBe(true);
      expect(forged.content[0].text).toMatch(/actor names 'alice', but the caller is bob/);
      expect(hashRepo(repo)).toBe(before);
      const own = (await bobAgain.client.callTool({ name: "plan_claim", arguments: { actor: "bob" } })) as { isError?: boolean };
      expect(own.isError).toBeFalsy();
      expect(lastLedgerLine(repo)).toMatchObject({ event: "plan_start", by: "bob" });
    } finally {
      await bobAgain.close();
    }
    // Under the reference's names (a client written for it): the same doors, the same answers.
    const reference = await mcpHttp(server.url, {}, "/api/mcp?reference_names");
    try {
      const names = (await reference.client.listTools()).tools.map((t) => t.name);
      expect(names).toContain("majordomus_plan_claim");
      expect(names).not.toContain("plan_claim");
      expect((await reference.client.listResources()).resources.map((r) => r.uri)).toEqual(["majordomus://plan"]);
      const before = hashRepo(repo);
      await expect(reference.client.callTool({ name: "majordomus_plan_claim", arguments: {} })).rejects.toThrow(/unauthorized.*Authorization: Bearer/);
      expect(hashRepo(repo)).toBe(before);
    } finally {
      await reference.close();
    }
  });

  it("wrong tokens count on every surface: after five in a minute the sixth is 429, with the API's error and a Retry-After; a valid token or session from that address is answered", async () => {
    const from = "127.0.0.7";
    const cookie = cookieOf(await signIn(tokens.ada, { localAddress: from }));
    const wrong = { authorization: "Bearer not-a-token" };
    const mcpInit = (headers: Record<string, string>) =>
      send(`${server.url}/api/mcp`, {
        method: "POST",
        headers: { ...json, accept: "application/json, text/event-stream", ...headers },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } }),
        localAddress: from,
      });
    // Five failures: over HTTP (a read and a command), MCP, and the sign-in form.
    expect((await send(`${server.url}/api/v1/plan`, { headers: wrong, localAddress: from })).status).toBe(401);
    expect((await send(`${server.url}/api/v1/plan/claim`, { method: "POST", headers: { ...json, ...wrong }, body: "{}", localAddress: from })).status).toBe(401);
    expect((await mcpInit(wrong)).status).toBe(401);
    expect((await signIn("not-a-token", { localAddress: from })).headers.location).toMatch(/^\/signin\?error=invalid/);
    expect((await send(`${server.url}/issues/BK-021`, { headers: wrong, localAddress: from })).status).toBe(401);

    const limited = await send(`${server.url}/api/v1/plan/next`, { headers: { authorization: "Bearer another-guess" }, localAddress: from });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    expect(JSON.parse(limited.text)).toEqual({ error: { code: "too_many_requests", message: expect.stringMatching(/too many wrong tokens/) } });
    expect((await mcpInit({ authorization: "Bearer a-third-guess" })).status).toBe(429);
    expect((await signIn("a-fourth-guess", { localAddress: from })).status).toBe(429);

    // The same address, with a valid token or session: answered as ever.
    expect((await send(`${server.url}/api/v1/plan/next`, { headers: { authorization: `Bearer ${tokens.bob}` }, localAddress: from })).status).toBe(200);
    expect((await mcpInit({ authorization: `Bearer ${TOKEN}` })).status).toBe(200);
    expect((await send(`${server.url}/api/v1/plan/status`, { headers: { cookie }, localAddress: from })).status).toBe(200);
    expect((await signIn(tokens.ada, { localAddress: from })).status).toBe(303);
    // Another address is not limited.
    expect((await send(`${server.url}/api/v1/plan`, { headers: wrong, localAddress: "127.0.0.8" })).status).toBe(401);
  });

  it.each([
    ["/issues/\u00c9-1", "/issues/%C3%89-1"],
    ["/issues/BK-020?q=\u{1F680} r\u00e9sum\u00e9", "/issues/BK-020?q=%F0%9F%9A%80%20r%C3%A9sum%C3%A9"],
  ])("signing in with next=%s goes there, percent-encoded", async (next, location) => {
    const r = await signIn(tokens.ada, { next });
    expect(r.status).toBe(303);
    expect(r.headers.location).toBe(location);
  });
});

describe("beyond loopback, every request needs a caller", () => {
  const TOKEN = "the-shared-token-of-the-doors-test";
  let repo: string;
  let usersFile: string;
  let url: string;
  let port: number;
  let child: ChildProcess;
  let tokens: Record<string, string> = {};

  beforeAll(async () => {
    // A git work tree, so that plan.commit can commit what the users moved.
    ({ repo, usersFile, tokens } = repoWithUsers("cockpit-doors-open-", ["ada", "bob"]));
    ({ child, port, url } = await serve(repo, ["--host", "::", "--users", usersFile], { COCKPIT_TOKEN: TOKEN }, { path: "/api/v1/openapi.json", headers: { authorization: `Bearer ${TOKEN}` } }));
  }, 180_000);

  afterAll(async () => {
    child?.kill("SIGTERM");
    await sleep(300);
  });

  const signIn = (token: string, o: { localAddress?: string; next?: string; host?: string } = {}) =>
    send(`${o.localAddress === "::1" ? `http://[::1]:${port}` : url}/api/auth/signin`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...(o.host ? { host: o.host } : {}) },
      body: new URLSearchParams({ token, next: o.next ?? "/" }).toString(),
      localAddress: o.localAddress,
    });
  const cookieOf = (r: Answer) => String(([] as string[]).concat(r.headers["set-cookie"] ?? [])[0] ?? "").split(";")[0];

  it("a request head over 16 KB is refused before the app (431) with JSON that says what to do; the server stays up", async () => {
    const r = await send(`${url}/api/v1/plan/record?id=${"x".repeat(100_000)}`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(r.status).toBe(431);
    expect(r.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(r.text)).toEqual({ error: { code: "invalid_input", message: expect.stringContaining("send large input in a JSON body") } });
    expect((await send(`${url}/api/v1/openapi.json`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
  });

  it("an anonymous browser is sent to sign in, and sees nothing of the plan", async () => {
    const page = await send(`${url}/issues/BK-020`);
    expect(page.status).toBe(307);
    expect(page.headers.location).toBe("/signin?next=%2Fissues%2FBK-020");
    const signin = await send(`${url}/signin?next=%2Fissues%2FBK-020`);
    expect(signin.status).toBe(200);
    expect(signin.text).toMatch(/Sign in to Cockpit/);
    // Only the path asked for comes back (in the form), nothing of the plan.
    expect(signin.text).not.toMatch(/Harbor Bookings|BK-001|BK-019|Live calendar feed/);
  });

  it.each(["/api/v1/plan", "/api/v1/plan/next", "/api/v1/events", "/api/v1/openapi.json"])("an anonymous GET %s is 401 and names the header", async (path) => {
    const r = await send(`${url}${path}`);
    expect(r.status).toBe(401);
    expect(r.headers["www-authenticate"]).toMatch(/^Bearer/);
    expect(r.text).toMatch(/Authorization: Bearer <token>/);
  });

  it("a forged server action, MCP call or command without a caller is 401 and writes nothing", async () => {
    const before = hashRepo(repo);
    const action = await send(`${url}/issues/BK-020`, {
      method: "POST",
      headers: { "next-action": actionId(dist), "content-type": "text/plain;charset=UTF-8", accept: "text/x-component" },
      body: JSON.stringify(["plan.transition", { issue: "BK-020", transition: "start" }]),
    });
    expect(action.status).toBe(401);
    const mcp = await send(`${url}/api/mcp`, {
      method: "POST",
      headers: { ...json, accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "plan_claim", arguments: {} } }),
    });
    expect(mcp.status).toBe(401);
    const claim = await send(`${url}/api/v1/plan/claim`, { method: "POST", headers: json, body: "{}" });
    expect(claim.status).toBe(401);
    const wrong = await send(`${url}/api/v1/plan/claim`, { method: "POST", headers: { ...json, authorization: "Bearer not-a-token" }, body: "{}" });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toMatch(/the bearer token is not valid/);
    expect(hashRepo(repo)).toBe(before);
  });

  it("a foreign Host is refused beyond loopback too", async () => {
    const r = await send(`${url}/`, { headers: { host: `evil.example:${port}`, authorization: `Bearer ${TOKEN}` } });
    expect(r.status).toBe(403);
  });

  it("each user's moves are attributed to them, by token and by session; the shared token is the server's git identity", async () => {
    const claim = (headers: Record<string, string>) => send(`${url}/api/v1/plan/claim`, { method: "POST", headers: { ...json, ...headers }, body: "{}" });
    const byBob = await claim({ authorization: `Bearer ${tokens.bob}` });
    expect(byBob.status, byBob.text).toBe(200);
    expect(lastLedgerLine(repo)).toMatchObject({ event: "plan_start", by: "bob" });

    const signedIn = await signIn(tokens.ada);
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.location).toBe("/");
    const cookie = cookieOf(signedIn);
    const byAda = await claim({ cookie, origin: url });
    expect(byAda.status, byAda.text).toBe(200);
    expect(lastLedgerLine(repo)).toMatchObject({ event: "plan_start", by: "ada" });

    const shared = await claim({ authorization: `Bearer ${TOKEN}` });
    expect(shared.status, shared.text).toBe(200);
    // The shared token names nobody: the server's git identity signs the move, never the program's name.
    expect(lastLedgerLine(repo).by).toBe("Cockpit server");

    // bob commits the moves: he is the commit's author, the server's identity its committer.
    const commit = await send(`${url}/api/v1/plan/commit`, { method: "POST", headers: { ...json, authorization: `Bearer ${tokens.bob}` }, body: JSON.stringify({ push: false }) });
    expect(commit.status, commit.text).toBe(200);
    const who = execFileSync("git", ["log", "-1", "--format=%an|%cn|%s%n%b"], { cwd: repo, encoding: "utf8" });
    expect(who).toMatch(/^bob\|Cockpit server\|/);
    expect(who).toMatch(/\[bob\]/);
    expect(who).toMatch(/\[ada\]/);
  });

  it("signing in issues an HttpOnly, SameSite=Strict, expiring cookie that opens the pages and the stream", async () => {
    const r = await signIn(tokens.ada, { next: "/waves" });
    expect(r.status).toBe(303);
    expect(r.headers.location).toBe("/waves");
    const set = String(([] as string[]).concat(r.headers["set-cookie"] ?? [])[0]);
    expect(set).toMatch(/^cockpit_session=[^;]+; Path=\/; HttpOnly; SameSite=Strict; Max-Age=43200$/);
    const cookie = cookieOf(r);
    const page = await send(`${url}/`, { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/Harbor Bookings/);
    expect(page.text).toMatch(/Signed in as ada/);
    const stream = await send(`${url}/api/v1/events`, { headers: { cookie } });
    expect(stream.status).toBe(200);
    expect(stream.headers["content-type"]).toMatch(/text\/event-stream/);
  });

  it("a sign-in goes back only to a page of this site", async () => {
    const r = await signIn(tokens.ada, { next: "//evil.example/x" });
    expect(r.headers.location).toBe("/");
  });

  it("a tampered cookie is no session", async () => {
    const cookie = cookieOf(await signIn(tokens.ada));
    const i = cookie.length - 12;
    const tampered = cookie.slice(0, i) + (cookie[i] === "x" ? "y" : "x") + cookie.slice(i + 1);
    const page = await send(`${url}/`, { headers: { cookie: tampered } });
    expect(page.status).toBe(307);
    expect(page.headers.location).toBe("/signin?next=%2F&expired=1");
  });

  it("signing out clears the cookie", async () => {
    const cookie = cookieOf(await signIn(tokens.ada));
    const out = await send(`${url}/api/auth/signout`, { method: "POST", headers: { cookie } });
    expect(out.status).toBe(303);
    expect(out.headers.location).toBe("/signin?signedout=1");
    expect(String(([] as string[]).concat(out.headers["set-cookie"] ?? [])[0])).toMatch(/^cockpit_session=; .*Max-Age=0/);
  });

  it("a user removed from the file loses their token and their session at the next request", async () => {
    const cookie = cookieOf(await signIn(tokens.bob));
    expect((await send(`${url}/`, { headers: { cookie } })).status).toBe(200);
    execFileSync(process.execPath, [CLI, "users", "remove", "bob", "--users", usersFile], { stdio: "ignore" });
    expect((await send(`${url}/`, { headers: { cookie } })).status).toBe(307);
    expect((await send(`${url}/api/v1/plan`, { headers: { authorization: `Bearer ${tokens.bob}` } })).status).toBe(401);
    expect((await send(`${url}/api/v1/plan`, { headers: { authorization: `Bearer ${tokens.ada}` } })).status).toBe(200);
  });

  it("five failed sign-ins a minute from one address: the sixth wrong one is 429, whatever X-Forwarded-For says; a valid token still signs in; other addresses are not slowed", async () => {
    for (let i = 0; i < 5; i++) {
      const r = await signIn("wrong-token", { localAddress: "::1" });
      expect(r.status).toBe(303);
      expect(r.headers.location).toMatch(/^\/signin\?error=invalid/);
    }
    const sixth = await signIn("wrong-token", { localAddress: "::1" });
    expect(sixth.status).toBe(429);
    expect(Number(sixth.headers["retry-after"])).toBeGreaterThan(0);
    const spoofed = await send(`http://[::1]:${port}/api/auth/signin`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": "203.0.113.9" },
      body: new URLSearchParams({ token: "wrong-token" }).toString(),
      localAddress: "::1",
    });
    expect(spoofed.status).toBe(429);
    // A valid token is never limited, even from that address.
    expect((await signIn(tokens.ada, { localAddress: "::1" })).status).toBe(303);
    // Another address (IPv4 loopback) is not limited either.
    const other = await signIn("wrong-token");
    expect(other.status).toBe(303);
    expect(other.headers.location).toMatch(/^\/signin\?error=invalid/);
  });
});
