// Driving the Cockpit against a hostile repository, every answer bounded: the `cockpit` command in
// process (its entry function, output captured) or as a child process (its own process group,
// killed whole past the limit); HTTP through the route handler and MCP through a linked in-memory
// client, in process; and a served Cockpit (`cockpit serve`) over HTTP, MCP and its pages, each
// request aborted past the limit.
import { type ChildProcess, spawn } from "node:child_process";
import { lstatSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { handleCapabilityRequest } from "@/lib/surfaces/http";
import { runCliInProcess } from "../support/cli-in-process";
import { fetchWithin } from "../support/fetch-within";
import { ROOT } from "../support/repo";
import { startServe } from "../support/serve-process";
import { STATE, type Sandbox } from "./sandbox";
import { LAST_LEDGER_LINE } from "./verbs";

const CLI = join(ROOT, "bin", "cockpit");

/** How long one answer may take (a CLI call, an HTTP request, an MCP call). */
export const ANSWER_LIMIT_MS = 15_000;

/**
 * How long a served page or server action may take. Each case's `cockpit serve` is fresh, so every
 * page is that server's first render of its route, and its time is read on the test's own event
 * loop, which the in-process verbs of up to five cases at once keep busy: on an idle machine these
 * take 2–6 s, and a loaded CI machine was seen past 15. What the limit catches is a hang (a read
 * that waits for ever), which no limit lets through.
 */
export const SERVED_ANSWER_LIMIT_MS = 40_000;

/** At most `n` at once; the rest wait their turn (their time is measured from their start). */
export function limiter(n: number) {
  let running = 0;
  const queue: (() => void)[] = [];
  return async function run<T>(task: () => Promise<T>): Promise<T> {
    if (running >= n) await new Promise<void>((resolve) => queue.push(resolve));
    running++;
    try {
      return await task();
    } finally {
      running--;
      queue.shift()?.();
    }
  };
}

// Two cores: a few processes at once keep every one well inside its limit.
const processes = limiter(3);

export interface Answer {
  /** What was asked, for the failure's line. */
  call: string;
  ms: number;
  timedOut: boolean;
  /** Exit code (CLI), HTTP status, or MCP outcome. */
  code: number | string | null;
  signal?: string | null;
  stdout: string;
  stderr: string;
  /** The limit this answer was held to, when not ANSWER_LIMIT_MS. */
  limitMs?: number;
}

function killGroup(child: ChildProcess): void {
  try {
    if (child.pid) process.kill(-child.pid, "SIGKILL");
  } catch {
    /* already gone */
  }
}

/** The number of the ledger's last line now (1 when there is no plain ledger file: a link is never read). */
function lastLedgerLine(sb: Sandbox): number {
  const path = join(sb.repo, STATE, "ledger.jsonl");
  if (!lstatSync(path, { throwIfNoEntry: false })?.isFile()) return 1;
  return Math.max(1, readFileSync(path, "utf8").split("\n").length - 1);
}

/** `value` with LAST_LEDGER_LINE (anywhere in it) replaced by the ledger's last line number now. */
export function withLastLine<T>(sb: Sandbox, value: T): T {
  const text = JSON.stringify(value);
  if (!text?.includes(LAST_LEDGER_LINE)) return value;
  const n = lastLedgerLine(sb);
  return JSON.parse(text.replaceAll(JSON.stringify(LAST_LEDGER_LINE), typeof value === "string" ? JSON.stringify(String(n)) : String(n))) as T;
}

/**
 * `cockpit plan <args>` in the repository (`cockpit plans …` when the first word is `plans`), with the sandbox's HOME, bounded by ANSWER_LIMIT_MS.
 * `waitTurn: false` starts it at once (for calls expected to wait on a hung one, not to compute).
 */
export function runCockpit(sb: Sandbox, args: readonly string[], { waitTurn = true } = {}): Promise<Answer> {
  const turn = waitTurn ? processes : <T,>(task: () => Promise<T>) => task();
  return turn(
    () =>
      new Promise<Answer>((resolve) => {
        const started = Date.now();
        args = args.map((a) => (a === LAST_LEDGER_LINE ? String(lastLedgerLine(sb)) : a));
        const words = args[0] === "plans" ? args : ["plan", ...args];
        const child = spawn(process.execPath, [CLI, ...words, "--repo", sb.repo], {
          cwd: sb.repo,
          env: { ...process.env, ...sb.env },
          stdio: ["ignore", "pipe", "pipe"],
          detached: true,
        });
        let stdout = "";
        let stderr = "";
        let timedOut = false;
        child.stdout!.setEncoding("utf8").on("data", (d: string) => (stdout.length < 1_000_000 ? (stdout += d) : undefined));
        child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr.length < 1_000_000 ? (stderr += d) : undefined));
        const timer = setTimeout(() => {
          timedOut = true;
          killGroup(child);
        }, ANSWER_LIMIT_MS);
        child.on("close", (code, signal) => {
          clearTimeout(timer);
          // Whatever the command left running in its group (a git it started) goes with it.
          killGroup(child);
          resolve({ call: `cockpit ${words.map((a) => JSON.stringify(a)).join(" ")}`, ms: Date.now() - started, timedOut, code, signal, stdout, stderr });
        });
      }),
  );
}

/** What a call in process answers once it outlived its limit (it cannot be killed: it is left to end). */
function withinLimit<T>(work: Promise<T>): Promise<T | "timed out"> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<"timed out">((resolve) => (timer = setTimeout(() => resolve("timed out"), ANSWER_LIMIT_MS)));
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}

/**
 * `cockpit plan <args>` (`cockpit plans …` when the first word is `plans`) through the command
 * line's entry function, in process, its output captured as the process prints it. An exception
 * that escapes it is what the process reports as an internal error (exit 13).
 */
export async function runCockpitInProcess(sb: Sandbox, args: readonly string[]): Promise<Answer> {
  const started = Date.now();
  args = args.map((a) => (a === LAST_LEDGER_LINE ? String(lastLedgerLine(sb)) : a));
  const words = args[0] === "plans" ? args : ["plan", ...args];
  const run = runCliInProcess([...words, "--repo", sb.repo]);
  const answered = await withinLimit(run);
  const call = `cockpit ${words.map((a) => JSON.stringify(a)).join(" ")} (in process)`;
  if (answered === "timed out") return { call, ms: Date.now() - started, timedOut: true, code: null, stdout: "", stderr: "timed out" };
  return { call, ms: Date.now() - started, timedOut: false, code: answered.code, stdout: answered.stdout, stderr: answered.stderr };
}

/** One request to the HTTP API's route handler, in process, over the repository. */
export async function requestInProcess(sb: Sandbox, method: "GET" | "POST", target: string, body?: unknown): Promise<Answer> {
  const started = Date.now();
  const call = `${method} ${target}${body === undefined ? "" : ` ${JSON.stringify(body)}`} (in process)`;
  const request = new Request(new URL(target, "http://127.0.0.1:3000"), {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answered = await withinLimit(
    handleCapabilityRequest(request, new URL(target, "http://127.0.0.1").pathname, { repo: sb.repo }).then(async (r) => ({ status: r.status, text: await r.text() })),
  ).catch((error: unknown) => ({ status: null, text: `the handler threw: ${String(error)}` }));
  if (answered === "timed out") return { call, ms: Date.now() - started, timedOut: true, code: null, stdout: "", stderr: "timed out" };
  return { call, ms: Date.now() - started, timedOut: false, code: answered.status, stdout: answered.text.slice(0, 2_000_000), stderr: "" };
}

/** One MCP tool call through a client linked in memory to the server (tests/support/mcp-memory.ts). */
export async function mcpCallInProcess(client: Client, tool: string, args: Record<string, unknown>): Promise<Answer> {
  const started = Date.now();
  const call = `MCP ${tool} ${JSON.stringify(args)} (in process)`;
  const answered = await withinLimit(
    client.callTool({ name: tool, arguments: args }).then(
      (result) => ({ code: result.isError ? (String((result._meta as Record<string, unknown> | undefined)?.["cockpit/error_code"] ?? "error")) : "ok", text: JSON.stringify(result) }),
      (error: unknown) => ({ code: `rpc ${(error as { code?: number }).code ?? "error"}`, text: String(error) }),
    ),
  );
  if (answered === "timed out") return { call, ms: Date.now() - started, timedOut: true, code: null, stdout: "", stderr: "timed out" };
  return { call, ms: Date.now() - started, timedOut: false, code: answered.code, stdout: answered.text.slice(0, 2_000_000), stderr: "" };
}

export interface Served {
  url: string;
  log(): string;
  stop(): Promise<void>;
}

/** `cockpit serve --repo <repo>` on a free loopback port, from the build in `dist`, with the sandbox's HOME. */
export function serveCockpit(sb: Sandbox, dist: string): Promise<Served> {
  return startServe(sb.repo, [], { env: { ...sb.env, COCKPIT_DIST_DIR: dist } });
}

/** One HTTP request to the served Cockpit, bounded by ANSWER_LIMIT_MS. */
export async function request(served: Served, method: "GET" | "POST", path: string, body?: unknown): Promise<Answer> {
  const started = Date.now();
  const call = `${method} ${path}${body === undefined ? "" : ` ${JSON.stringify(body)}`}`;
  try {
    const r = await fetchWithin(
      `${served.url}${path}`,
      { method, headers: body === undefined ? {} : { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) },
      SERVED_ANSWER_LIMIT_MS,
    );
    return { call, ms: Date.now() - started, timedOut: false, code: r.status, stdout: r.text.slice(0, 2_000_000), stderr: "", limitMs: SERVED_ANSWER_LIMIT_MS };
  } catch (error) {
    const timedOut = (error as Error).name === "TimeoutError" || (error as Error).name === "AbortError";
    return { call, ms: Date.now() - started, timedOut, code: null, stdout: "", stderr: String(error), limitMs: SERVED_ANSWER_LIMIT_MS };
  }
}

/** The id of the server action every page calls (`runCapability`), from the build's manifest in `dist`. */
function actionId(dist: string): string {
  const manifest = JSON.parse(readFileSync(join(ROOT, dist, "server", "server-reference-manifest.json"), "utf8")) as { node: Record<string, unknown> };
  const id = Object.keys(manifest.node)[0];
  if (!id) throw new Error(`no server action in ${dist}'s manifest`);
  return id;
}

/**
 * The pages' server action called by hand, as a browser's button calls it: POST to a page with the
 * action's id, the capability's id and its input as arguments. Its code is the HTTP status, then
 * `ok` or the refusal's code read from the answer (an RSC stream).
 */
export async function actionCall(served: Served, dist: string, capability: string, input: Record<string, unknown>): Promise<Answer> {
  const started = Date.now();
  const call = `server action ${capability} ${JSON.stringify(input)}`;
  try {
    const r = await fetchWithin(
      `${served.url}/`,
      { method: "POST", headers: { "next-action": actionId(dist), "content-type": "text/plain;charset=UTF-8", accept: "text/x-component" }, body: JSON.stringify([capability, input]) },
      SERVED_ANSWER_LIMIT_MS,
    );
    const text = r.text;
    const refusal = /"ok":false,"error":\{"code":"([a-z_]+)"/.exec(text)?.[1];
    const outcome = refusal ?? (/"ok":true/.test(text) ? "ok" : `http ${r.status}`);
    return { call, ms: Date.now() - started, timedOut: false, code: r.status === 200 ? outcome : `http ${r.status}`, stdout: text.slice(0, 2_000_000), stderr: "", limitMs: SERVED_ANSWER_LIMIT_MS };
  } catch (error) {
    const timedOut = (error as Error).name === "TimeoutError" || (error as Error).name === "AbortError";
    return { call, ms: Date.now() - started, timedOut, code: null, stdout: "", stderr: String(error), limitMs: SERVED_ANSWER_LIMIT_MS };
  }
}

let rpcId = 0;

/**
 * One MCP tool call over streamable HTTP (`/api/mcp`, stateless, JSON answers), bounded by
 * ANSWER_LIMIT_MS. Its code is `ok`, the refusal's `cockpit/error_code`, or the JSON-RPC error.
 */
export async function mcpCall(served: Served, tool: string, args: Record<string, unknown>): Promise<Answer> {
  const started = Date.now();
  const call = `MCP ${tool} ${JSON.stringify(args)}`;
  try {
    const r = await fetchWithin(
      `${served.url}/api/mcp`,
      {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: ++rpcId, method: "tools/call", params: { name: tool, arguments: args } }),
      },
      ANSWER_LIMIT_MS,
    );
    const text = r.text;
    const json = text.trim().startsWith("{") ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? "");
    let code: string = `http ${r.status}`;
    try {
      const message = JSON.parse(json) as { result?: { isError?: boolean; _meta?: Record<string, string> }; error?: { code: number } };
      if (message.result) code = message.result.isError ? (message.result._meta?.["cockpit/error_code"] ?? "error") : "ok";
      else if (message.error) code = `rpc ${message.error.code}`;
    } catch {
      /* not JSON: the code stays the HTTP status */
    }
    return { call, ms: Date.now() - started, timedOut: false, code, stdout: text.slice(0, 2_000_000), stderr: "" };
  } catch (error) {
    const timedOut = (error as Error).name === "TimeoutError" || (error as Error).name === "AbortError";
    return { call, ms: Date.now() - started, timedOut, code: null, stdout: "", stderr: String(error) };
  }
}
