import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { git, gitText } from "./git-run";

const dir = mkdtempSync(join(tmpdir(), "cockpit-gitrun-"));
spawnSync("git", ["init", "-q"], { cwd: dir });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("bounded git", () => {
  it("answers git's output and exit code", async () => {
    expect((await gitText(dir, ["rev-parse", "--is-inside-work-tree"]))?.trim()).toBe("true");
    expect((await git(dir, ["rev-parse", "--verify", "-q", "HEAD"])).status).not.toBe(0);
    expect((await git(dir, ["hash-object", "--stdin"], { input: "x\n" })).stdout.toString().trim()).toMatch(/^[0-9a-f]{40}$/);
  });

  it("refuses output past its cap", async () => {
    await expect(git(dir, ["--version"], { maxBytes: 4 })).rejects.toThrow(/printed more than/);
  });

  it("stops a call that outlives its limit, with the children it started, and names the limit", async () => {
    // An alias that runs a shell which never ends stands for any git that hangs (a remote, a lock).
    const t0 = Date.now();
    await expect(git(dir, ["-c", "alias.hang=!sleep 30", "hang"], { timeoutMs: 200 })).rejects.toThrow(/took longer than 0.2 s/);
    expect(Date.now() - t0).toBeLessThan(3000);
  });

  it("does not run the repository's fsmonitor command", async () => {
    spawnSync("git", ["config", "core.fsmonitor", "touch fsmonitor-ran"], { cwd: dir });
    await git(dir, ["status", "--porcelain"]);
    expect(spawnSync("ls", [dir]).stdout.toString()).not.toMatch(/fsmonitor-ran/);
  });
});
