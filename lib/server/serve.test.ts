import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseServeArgs, serveEnv } from "./serve";

const dir = mkdtempSync(join(tmpdir(), "cockpit-serve-args-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("cockpit serve's options", () => {
  it("--default-branch is handed to the server as COCKPIT_DEFAULT_BRANCH (plan.code's default); a name git would refuse is refused", () => {
    expect(serveEnv(parseServeArgs(["--repo", dir, "--default-branch", "origin/main"], {}), {}).COCKPIT_DEFAULT_BRANCH).toBe("origin/main");
    expect(serveEnv(parseServeArgs(["--repo", dir], {}), {}).COCKPIT_DEFAULT_BRANCH).toBe("");
    for (const bad of ["a b", "a~1", "x:y", "a^"]) expect(() => parseServeArgs(["--repo", dir, "--default-branch", bad], {}), bad).toThrow(/--default-branch takes a branch name/);
  });

  it("--follow [REMOTE/BRANCH] and --follow-interval S reach the server as COCKPIT_FOLLOW and COCKPIT_FOLLOW_INTERVAL", () => {
    const env = (argv: string[]) => serveEnv(parseServeArgs(["--repo", dir, ...argv], {}), {});
    expect(env([])).toMatchObject({ COCKPIT_FOLLOW: "", COCKPIT_FOLLOW_INTERVAL: "" });
    expect(env(["--follow"])).toMatchObject({ COCKPIT_FOLLOW: "1", COCKPIT_FOLLOW_INTERVAL: "" });
    expect(env(["--follow", "origin/main", "--follow-interval", "5"])).toMatchObject({ COCKPIT_FOLLOW: "origin/main", COCKPIT_FOLLOW_INTERVAL: "5" });
    expect(env(["--follow=upstream/release/2"])).toMatchObject({ COCKPIT_FOLLOW: "upstream/release/2" });
    expect(() => parseServeArgs(["--repo", dir, "--follow", "--follow-interval", "1"], {})).toThrow(/at least 2/);
    expect(() => parseServeArgs(["--repo", dir, "--follow-interval", "5"], {})).toThrow(/give --follow too/);
    expect(() => parseServeArgs(["--repo", dir, "--follow", "main"], {})).toThrow(/REMOTE\/BRANCH/);
    expect(() => parseServeArgs(["--repo", dir, "origin/main"], {})).toThrow(/takes no argument/);
  });

  it("--notify-url URL (repeated, else COCKPIT_NOTIFY_URLS) and --ask-escalate-after reach the server; a URL that is not http(s) is refused at start", () => {
    const env = (argv: string[], given: Record<string, string> = {}) => serveEnv(parseServeArgs(["--repo", dir, ...argv], given), given);
    expect(env([])).toMatchObject({ COCKPIT_NOTIFY_URLS: "", COCKPIT_ASK_ESCALATE_AFTER_S: "" });
    expect(env(["--notify-url", "https://chat.example/hook", "--notify-url", "http://127.0.0.1:9/x", "--ask-escalate-after", "90m"])).toMatchObject({
      COCKPIT_NOTIFY_URLS: "https://chat.example/hook http://127.0.0.1:9/x",
      COCKPIT_ASK_ESCALATE_AFTER_S: "5400",
    });
    expect(env([], { COCKPIT_NOTIFY_URLS: "https://a.example/h, https://b.example/h" })).toMatchObject({ COCKPIT_NOTIFY_URLS: "https://a.example/h https://b.example/h" });
    expect(env(["--ask-escalate-after", "4h"])).toMatchObject({ COCKPIT_ASK_ESCALATE_AFTER_S: "14400" });
    expect(() => parseServeArgs(["--repo", dir, "--notify-url", "ftp://files.example/x"], {})).toThrow("--notify-url: 'ftp://files.example/x' is not http(s): a notify URL is http:// or https://");
    expect(() => parseServeArgs(["--repo", dir, "--notify-url", "not a url"], {})).toThrow("--notify-url: 'not a url' is not a URL");
    expect(() => parseServeArgs(["--repo", dir], { COCKPIT_NOTIFY_URLS: "file:///etc/passwd" })).toThrow(/is not http\(s\)/);
    expect(() => parseServeArgs(["--repo", dir, "--ask-escalate-after", "0"], {})).toThrow(/a duration above 0/);
    expect(() => parseServeArgs(["--repo", dir, "--ask-escalate-after", "2d"], {})).toThrow(/seconds, or with m or h/);
  });

  it("--lease-ttl S and --stale-after S reach the server as COCKPIT_LEASE_TTL_S and COCKPIT_STALE_AFTER_S; no number of seconds is refused", () => {
    expect(serveEnv(parseServeArgs(["--repo", dir, "--lease-ttl", "60", "--stale-after", "20"], {}), {})).toMatchObject({ COCKPIT_LEASE_TTL_S: "60", COCKPIT_STALE_AFTER_S: "20" });
    expect(serveEnv(parseServeArgs(["--repo", dir], {}), { COCKPIT_LEASE_TTL_S: "90" })).toMatchObject({ COCKPIT_LEASE_TTL_S: "90" });
    expect(() => parseServeArgs(["--repo", dir, "--lease-ttl", "0"], {})).toThrow("--lease-ttl takes seconds above 0, not '0'");
    expect(() => parseServeArgs(["--repo", dir, "--stale-after", "5m"], {})).toThrow("--stale-after takes seconds above 0, not '5m'");
  });

  it("binds to loopback with nothing else by default", () => {
    const o = parseServeArgs(["--repo", dir], {});
    expect(o).toMatchObject({ host: "127.0.0.1", port: 3000, allowedHosts: [], trustProxy: false, usersFile: undefined });
    expect(serveEnv(o, {})).toMatchObject({ COCKPIT_BIND_HOST: "127.0.0.1", COCKPIT_PORT: "3000", COCKPIT_ALLOWED_HOSTS: "", COCKPIT_TRUST_PROXY: "" });
  });

  it("refuses to open beyond loopback without a token or a users file, and says how", () => {
    expect(() => parseServeArgs(["--repo", dir, "--host", "0.0.0.0"], {})).toThrow(/set COCKPIT_TOKEN or give --users FILE/);
    expect(parseServeArgs(["--repo", dir, "--host", "0.0.0.0"], { COCKPIT_TOKEN: "t" }).host).toBe("0.0.0.0");
  });

  it("takes --allowed-host any number of times, and refuses what is not a host name", () => {
    const o = parseServeArgs(["--repo", dir, "--allowed-host", "Plan.Example.com", "--allowed-host", ".team.example", "--trust-proxy"], {});
    expect(o.allowedHosts).toEqual(["plan.example.com", ".team.example"]);
    expect(serveEnv(o, {})).toMatchObject({ COCKPIT_ALLOWED_HOSTS: "plan.example.com,.team.example", COCKPIT_TRUST_PROXY: "1" });
    expect(() => parseServeArgs(["--repo", dir, "--allowed-host", "http://x.example/"], {})).toThrow(/--allowed-host takes a host name/);
  });

  it("reads the users file at start, and refuses a missing or broken one", () => {
    expect(() => parseServeArgs(["--repo", dir, "--users", join(dir, "none.yaml")], {})).toThrow(/does not exist; make one with `cockpit users add NAME/);
    writeFileSync(join(dir, "bad.yaml"), "name: ada\n");
    expect(() => parseServeArgs(["--repo", dir, "--users", join(dir, "bad.yaml")], {})).toThrow(/is not valid: a users file is a YAML list/);
    writeFileSync(join(dir, "users.yaml"), "- name: ada\n  token_hash: scrypt$16384$8$1$AAAA$BBBB\n");
    const o = parseServeArgs(["--repo", dir, "--host", "0.0.0.0", "--users", join(dir, "users.yaml")], {});
    expect(serveEnv(o, {}).COCKPIT_USERS).toBe(join(dir, "users.yaml"));
  });
});
