import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, ROOT } from "./helpers";

// What the pages say, the command line says too: evidence by the tokens it covers, unsealed stamps
// marked with the `cockpit plan adopt` way out, and why the active milestone is not the roadmap's
// now. Run through bin/cockpit on copies of the demo and of the real corpus.

let demo: string;
let corpus: string;

beforeAll(() => {
  demo = mkdtempSync(join(tmpdir(), "cockpit-cli-trust-demo-"));
  cpSync(join(ROOT, "examples", "demo"), demo, { recursive: true });
  corpus = mkdtempSync(join(tmpdir(), "cockpit-cli-trust-corpus-"));
  cpSync(join(ROOT, "tests", "fixtures", "majordomus"), corpus, { recursive: true });
});
afterAll(() => {
  rmSync(demo, { recursive: true, force: true });
  rmSync(corpus, { recursive: true, force: true });
});

/** `cockpit <args>` wide enough that no answer line wraps. */
function cockpit(args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: "utf8", env: { ...process.env, COLUMNS: "400" }, maxBuffer: 64 * 1024 * 1024 });
  return { code: r.status ?? 1, stdout: r.stdout, stderr: r.stderr };
}

const rowOf = (text: string, label: string) => text.split("\n").find((l) => l.startsWith(`${label} `))?.slice(label.length).trim();

describe("evidence by what it covers", () => {
  it("two entries for one token and another token missing: 1 of 2 covered, the missing one named", () => {
    for (const n of [1, 2]) {
      expect(cockpit(["plan", "evidence", "BK-020", "--covers", "feed_validates", "--type", "test", "--command", `npm test ${n}`, "--repo", demo]).code).toBe(0);
    }
    const r = cockpit(["plan", "record", "BK-020", "--repo", demo]);
    expect(r.code, r.stderr).toBe(0);
    expect(rowOf(r.stdout, "evidence")).toBe("1 of 2 required token(s) covered; missing: secret_rotation (2 entries)");
    expect(r.stdout).not.toMatch(/evidence +2 of 2/);
  });

  it("a milestone's record says which of its required tokens are missing", () => {
    const r = cockpit(["plan", "record", "accounts", "--repo", demo]);
    expect(r.code, r.stderr).toBe(0);
    expect(rowOf(r.stdout, "evidence")).toBe("1 of 2 required token(s) covered; missing: security_review (1 entry)");
  });
});

describe("unsealed stamps are marked wherever issues show", () => {
  const hint = /cockpit plan adopt/;

  it("plan status's next ready issue (I0010 on the corpus) carries the warning", () => {
    const r = cockpit(["plan", "status", "--repo", corpus]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^next ready issue: I0010 — .* \(unsealed stamps\)$/m);
    const warning = r.stdout.split("\n").find((l) => l.startsWith("WARN unsealed_stamps: I0010 has stamps that do not count"));
    expect(warning).toMatch(hint);
  });

  it("plan issues marks each unsealed issue beside its status and explains the mark once", () => {
    const r = cockpit(["plan", "issues", "--milestone", "M000", "--repo", corpus]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^I0010 +READY \(unsealed\) /m);
    expect(r.stdout).toMatch(/^I0001 +DONE +\d/m);
    const note = r.stdout.split("\n").find((l) => l.startsWith("unsealed: "));
    expect(note).toContain("I0010");
    expect(note).toMatch(hint);
  });

  it("plan record of an unsealed issue says so, and its milestone's record marks it in its list", () => {
    const issue = cockpit(["plan", "record", "I0010", "--repo", corpus]);
    expect(rowOf(issue.stdout, "status")).toBe("READY (unsealed)");
    expect(rowOf(issue.stdout, "stamps")).toMatch(/^I0010 has stamps that do not count \(started_at, verified_at, completed_at: no seal\).*cockpit plan adopt/);
    const milestone = cockpit(["plan", "record", "M000", "--repo", corpus]);
    expect(milestone.stdout).toMatch(/^I0010 +READY \(unsealed\) /m);
    expect(milestone.stdout).toMatch(/^unsealed: .*I0010.*cockpit plan adopt/m);
  });

  it("an issue whose stamps count is not marked", () => {
    const r = cockpit(["plan", "record", "BK-012", "--repo", demo]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/unsealed/);
  });
});

describe("say why the active milestone is not the roadmap's now", () => {
  const why = "accounts is now, but waits on its milestone evidence: security_review, so booking is the active milestone";

  it("plan status and plan roadmap print the pages' line", () => {
    const status = cockpit(["plan", "status", "--repo", demo]);
    expect(status.stdout).toMatch(/^active milestone: booking$/m);
    expect(status.stdout).toContain(`\nwhy: ${why}\n`);
    const roadmap = cockpit(["plan", "roadmap", "--repo", demo]);
    expect(roadmap.stdout).toMatch(/^now: +accounts /m);
    expect(roadmap.stdout).toContain(`\nwhy:  ${why}`);
  });

  it("no why when they agree (the corpus: M000 is both)", () => {
    expect(cockpit(["plan", "status", "--repo", corpus]).stdout).not.toMatch(/^why:/m);
    expect(cockpit(["plan", "roadmap", "--repo", corpus]).stdout).not.toMatch(/^why:/m);
  });
});
