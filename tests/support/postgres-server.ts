import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { freePort } from "./ports";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A throwaway PostgreSQL cluster for tests: Debian's `postgresql` binaries, a fresh data folder in
 * a temporary folder, a free loopback port, password authentication over TCP. PostgreSQL refuses
 * to run as root, so under root (CI) the server runs as the `postgres` system user (or `nobody`).
 */
export interface PgServer {
  port: number;
  /** `postgres://postgres:<password>@127.0.0.1:<port>/postgres` */
  url: string;
  password: string;
  /** A URL for another database of this server (created by `createDatabase`). */
  urlFor(database: string, password?: string): string;
  createDatabase(name: string): void;
  /** Run SQL through psql as the superuser; returns psql's unaligned output. */
  sql(statement: string, database?: string): string;
  /** Kill the server at once (SIGKILL, as a crash), keeping its data. */
  kill(): Promise<void>;
  /** Start it again on the same port and data. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

const PASSWORD = "cockpit-test-secret";

export function postgresBinDir(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => /^\d+$/.test(v) && existsSync(join(root, v, "bin", "postgres")))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(root, versions[0], "bin") : undefined;
}

export function hasPostgres(): boolean {
  return postgresBinDir() !== undefined;
}

function runAsUser(): { name: string; uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  for (const name of ["postgres", "nobody"]) {
    try {
      const uid = Number(execFileSync("id", ["-u", name], { encoding: "utf8" }).trim());
      const gid = Number(execFileSync("id", ["-g", name], { encoding: "utf8" }).trim());
      return { name, uid, gid };
    } catch {
      /* no such user */
    }
  }
  throw new Error("tests run as root, but neither a 'postgres' nor a 'nobody' user exists to run PostgreSQL");
}

/** `[command, args]` that run `bin` as the non-root user (setpriv execs, so the pid is the server's). */
function asUser(user: ReturnType<typeof runAsUser>, bin: string, args: string[]): [string, string[]] {
  if (!user) return [bin, args];
  return ["setpriv", [`--reuid=${user.uid}`, `--regid=${user.gid}`, "--clear-groups", "--", bin, ...args]];
}

export { freePort };

const live = new Set<() => void>();
let exitHooked = false;
function stopAllOnExit(): void {
  if (exitHooked) return;
  exitHooked = true;
  process.on("exit", () => {
    for (const stop of live) stop();
  });
}

export async function startPostgres(): Promise<PgServer> {
  const bin = postgresBinDir();
  if (!bin) throw new Error("PostgreSQL is not installed (apt-get install -y postgresql)");
  const user = runAsUser();
  const dir = mkdtempSync(join(tmpdir(), "cockpit-pg-"));
  const data = join(dir, "data");
  const pwfile = join(dir, "pw");
  writeFileSync(pwfile, PASSWORD + "\n");
  if (user) chownSync(dir, user.uid, user.gid);
  if (user) chownSync(pwfile, user.uid, user.gid);
  const env = { ...process.env, LC_ALL: "C", LANG: "C" };
  const [initCmd, initArgs] = asUser(user, join(bin, "initdb"), [
    "-D", data, "-U", "postgres", "--pwfile", pwfile, "--auth-local=trust", "--auth-host=scram-sha-256", "-E", "UTF8", "--no-sync",
  ]);
  execFileSync(initCmd, initArgs, { env, stdio: "pipe", cwd: dir });
  const port = await freePort();
  let child: ChildProcess | undefined;

  const start = async () => {
    const [cmd, args] = asUser(user, join(bin, "postgres"), [
      "-D", data, "-p", String(port), "-k", dir, "-c", "listen_addresses=127.0.0.1",
      "-c", "fsync=off", "-c", "full_page_writes=off", "-c", "max_connections=200",
    ]);
    const proc = spawn(cmd, args, { env, stdio: ["ignore", "ignore", "pipe"], cwd: dir });
    let log = "";
    proc.stderr!.on("data", (d: Buffer) => (log = (log + d.toString()).slice(-4000)));
    child = proc;
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (proc.exitCode !== null) throw new Error(`PostgreSQL exited at start:\n${log}`);
      try {
        const [c, a] = asUser(user, join(bin, "pg_isready"), ["-h", "127.0.0.1", "-p", String(port), "-q"]);
        execFileSync(c, a, { stdio: "ignore" });
        return;
      } catch {
        if (Date.now() > deadline) throw new Error(`PostgreSQL did not accept connections in 30 s:\n${log}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  };

  const waitExit = (proc: ChildProcess | undefined) =>
    new Promise<void>((resolve) => {
      if (!proc || proc.exitCode !== null || proc.signalCode !== null) return resolve();
      proc.once("exit", () => resolve());
    });

  const psql = (statement: string, database = "postgres") => {
    const [c, a] = asUser(user, join(bin, "psql"), ["-h", dir, "-p", String(port), "-U", "postgres", "-d", database, "-v", "ON_ERROR_STOP=1", "-A", "-t", "-c", statement]);
    return execFileSync(c, a, { encoding: "utf8", env }).trim();
  };

  const stopNow = () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGQUIT");
    rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
  };
  live.add(stopNow);
  stopAllOnExit();
  await start();

  const urlFor = (database: string, password = PASSWORD) =>
    `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
  return {
    port,
    password: PASSWORD,
    url: urlFor("postgres"),
    urlFor,
    createDatabase: (name) => void psql(`CREATE DATABASE "${name}"`),
    sql: psql,
    async kill() {
      const proc = child;
      proc?.kill("SIGKILL");
      await waitExit(proc);
      // The backends notice their postmaster died; wait until the port and shared memory are free.
      const deadline = Date.now() + 15_000;
      while (Date.now() < deadline && existsSync(join(data, "postmaster.pid"))) {
        try {
          const pid = Number(execFileSync("head", ["-1", join(data, "postmaster.pid")], { encoding: "utf8" }).trim());
          process.kill(pid, 0);
        } catch {
          break;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      await new Promise((r) => setTimeout(r, 300));
    },
    async restart() {
      await start();
    },
    async stop() {
      const proc = child;
      if (proc && proc.exitCode === null && proc.signalCode === null) {
        proc.kill("SIGINT"); // fast shutdown
        await waitExit(proc);
      }
      live.delete(stopNow);
      rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
    },
  };
}
