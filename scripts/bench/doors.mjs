// Guessing is cheap to refuse: `cockpit serve` on loopback with COCKPIT_TOKEN and 32 users, a
// signed-in user's command (an edit's dry run, with a session) alone and sent with a burst of 40
// anonymous requests carrying wrong bearer tokens. Twice: with the users file `cockpit users add`
// writes (a keyed digest beside each scrypt hash: one lookup per token), and with the same users
// in the format written before digests (one scrypt per user per unknown token). Target: the delay
// at most 100 ms.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { join } from "node:path";
import { BENCH_TMP, ROOT, environment, fmtMs, freePort, median, requireFromRoot, round, table, writeReport } from "./lib.mjs";

export const name = "doors";
export const description = "a signed-in user's request sent with 40 concurrent wrong-token requests (32 users): the delay, with and without token digests";

const USERS = 32;
const ATTACKERS = 40;
const SAMPLES = 20;
const TARGET_MS = 100;
const TOKEN = "the-bench-shared-token";
const CLI = join(ROOT, "bin/cockpit");

function request(port, agent, { method = "GET", path, headers = {}, body }) {
  return new Promise((resolve, reject) => {
    const t = process.hrtime.bigint();
    const req = http.request({ host: "127.0.0.1", port, path, method, headers, agent }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("error", reject);
      res.on("data", (d) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, text, ms: Number(process.hrtime.bigint() - t) / 1e6 }));
    });
    req.on("error", reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

async function waitForServer(port, child) {
  const agent = new http.Agent();
  for (let i = 0; i < 450; i++) {
    if (child.exitCode !== null) throw new Error("the server exited before it answered");
    try {
      if ((await request(port, agent, { path: "/api/v1/openapi.json" })).status === 200) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("the server did not answer within 90 s");
}

/** The same users, as a file written before digests: a YAML list of {name, token_hash}. */
function withoutDigests(text) {
  const { load } = requireFromRoot("js-yaml");
  const { users } = load(text);
  return users.map((u) => `- name: ${u.name}\n  token_hash: "${u.token_hash}"`).join("\n") + "\n";
}

/**
 * The signed-in user's request, SAMPLES times; with `attack`, each sent together with a burst of
 * 40 anonymous requests carrying wrong tokens (the user's goes last, behind them all).
 */
async function measure(port, cookie, attack, samples) {
  // A connection per request: a kept-alive socket the server closes meanwhile would be reset.
  const user = new http.Agent({ maxSockets: 1 });
  const attackers = new http.Agent({ maxSockets: ATTACKERS });
  const edit = () =>
    request(port, user, {
      method: "POST",
      path: "/api/v1/plan/edit",
      headers: { cookie, origin: `http://127.0.0.1:${port}`, "content-type": "application/json" },
      body: JSON.stringify({ id: "BK-020", set: { title: "A title for the bench" }, dry_run: true }),
    });
  const guess = () => request(port, attackers, { path: "/api/v1/plan/next", headers: { authorization: `Bearer ck_${randomBytes(32).toString("base64url")}` } });
  for (let k = 0; k < 3; k++) await edit(); // warm
  const times = [];
  const statuses = {};
  for (let k = 0; k < samples; k++) {
    const burst = attack ? Array.from({ length: ATTACKERS }, guess) : [];
    const r = await edit();
    if (r.status !== 200) throw new Error(`the signed-in user's edit answered ${r.status}: ${r.text.slice(0, 200)}`);
    times.push(r.ms);
    for (const g of await Promise.all(burst)) statuses[g.status] = (statuses[g.status] ?? 0) + 1;
  }
  user.destroy();
  attackers.destroy();
  const sorted = [...times].sort((a, b) => a - b);
  return { p50: median(times), max: sorted.at(-1), statuses };
}

export async function run() {
  const env = environment();
  const dir = join(BENCH_TMP, `doors-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  const repo = join(dir, "repo");
  cpSync(join(ROOT, "examples/demo"), repo, { recursive: true });
  const usersFile = join(dir, "users.yaml");
  const tokens = [];
  for (let i = 0; i < USERS; i++) {
    const r = spawnSync(process.execPath, [CLI, "users", "add", `user${i}`, "--users", usersFile], { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`cockpit users add failed: ${r.stderr}`);
    tokens.push(r.stdout.trim());
  }
  const withDigests = readFileSync(usersFile, "utf8");
  const build = spawnSync(process.execPath, [CLI, "serve", "--build-only"], { stdio: "inherit", cwd: ROOT });
  if (build.status !== 0) throw new Error("the web app did not build");

  const port = await freePort();
  const server = spawn(process.execPath, [CLI, "serve", "--repo", repo, "--host", "127.0.0.1", "--port", String(port), "--users", usersFile], {
    cwd: ROOT,
    env: { ...process.env, COCKPIT_TOKEN: TOKEN, NEXT_TELEMETRY_DISABLED: "1" },
    stdio: ["ignore", "ignore", "ignore"],
  });
  try {
    await waitForServer(port, server);
    const signIn = await request(port, new http.Agent(), {
      method: "POST",
      path: "/api/auth/signin",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: tokens[0], next: "/" }).toString(),
    });
    const cookie = String([].concat(signIn.headers["set-cookie"] ?? [])[0] ?? "").split(";")[0];
    if (!cookie.startsWith("cockpit_session=")) throw new Error(`signing in answered ${signIn.status}`);

    const results = {};
    // Without digests a burst costs 40 × 32 scrypts (seconds): fewer samples of it.
    for (const [label, text, samples] of [
      ["digests", withDigests, SAMPLES],
      ["no digests (an older file)", withoutDigests(withDigests), 3],
    ]) {
      writeFileSync(usersFile, text); // the server reads the file again when it changes
      const alone = await measure(port, cookie, false, SAMPLES);
      const attacked = await measure(port, cookie, true, samples);
      results[label] = { alone, attacked, delay_p50_ms: attacked.p50 - alone.p50, delay_max_ms: attacked.max - alone.p50 };
    }
    const fixed = results.digests;
    const ok = fixed.delay_p50_ms <= TARGET_MS;
    const report = {
      section: name,
      generated_at: new Date().toISOString(),
      environment: env,
      users: USERS,
      attackers: ATTACKERS,
      samples: SAMPLES,
      target: { delay_at_most_ms: TARGET_MS },
      results: Object.fromEntries(
        Object.entries(results).map(([k, v]) => [
          k,
          { alone_p50_ms: round(v.alone.p50), attacked_p50_ms: round(v.attacked.p50), attacked_max_ms: round(v.attacked.max), delay_p50_ms: round(v.delay_p50_ms), delay_max_ms: round(v.delay_max_ms), guesses_answered: v.attacked.statuses },
        ]),
      ),
    };
    writeReport(`bench-${name}`, report);
    const rows = Object.entries(results).map(([k, v]) => [
      k,
      fmtMs(v.alone.p50),
      fmtMs(v.attacked.p50),
      fmtMs(v.attacked.max),
      fmtMs(v.delay_p50_ms),
      fmtMs(v.delay_max_ms),
      Object.entries(v.attacked.statuses)
        .map(([s, n]) => `${n}×${s}`)
        .join(" "),
    ]);
    const text = [
      `A signed-in user's edit (dry run) on loopback with ${USERS} users, alone and sent with ${ATTACKERS} concurrent anonymous requests with wrong tokens (${env.cpus} cores, load ${env.load_average.join(" ")})`,
      table(["users file", "alone p50", "attacked p50", "attacked max", "delay p50", "delay max", "wrong tokens answered"], rows),
      `target: a median delay of at most ${TARGET_MS} ms with digests: ${ok ? "met" : "MISSED"}`,
    ].join("\n");
    return { name, text, report, ok };
  } finally {
    server.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 300));
    rmSync(dir, { recursive: true, force: true });
  }
}
