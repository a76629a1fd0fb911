import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commitAt, git, issuePath, issueText, milestonePath, milestoneText, newRepo, PROJECT, projectText, removeTempDirs } from "@/tests/support/history";
import { CLI, ensureCliBuilt } from "@/tests/support/processes";
import { zeroBlob } from "./sandbox";

// A history holding a 700 MB blob under issues/ (zeros: a .git of a few MB), committed and then
// removed: every answer that reads that commit stays within the record limits, measured as the
// peak RSS of a real `cockpit` process (GNU time's, which counts its git children too).

const BLOB_BYTES = 700 * 1024 * 1024;
const RSS_LIMIT_KB = 300 * 1024;

let repo: string;
/** Each answer's peak RSS, printed together once every answer ran (for the issue's closing note). */
const figures: [string, number][] = [];

function record(call: string, maxRssKb: number): void {
  figures.push([call, maxRssKb]);
}

interface Measured {
  code: number | null;
  stdout: string;
  stderr: string;
  maxRssKb: number;
}

/** `cockpit plan …` under GNU time: its exit, output and peak resident set (kB), children included. */
function measured(args: readonly string[]): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const child = spawn("/usr/bin/time", ["-f", "maxrss=%M", process.execPath, CLI, "plan", ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => {
      const m = /maxrss=(\d+)\s*$/.exec(stderr);
      if (!m) return reject(new Error(`no maxrss from /usr/bin/time: ${stderr}`));
      resolve({ code, stdout, stderr: stderr.slice(0, m.index), maxRssKb: Number(m[1]) });
    });
  });
}

beforeAll(async () => {
  ensureCliBuilt();
  repo = newRepo("cockpit-huge-blob-");
  commitAt(repo, "2026-10-01T10:00:00Z", {
    [PROJECT]: projectText(),
    [milestonePath("m1")]: milestoneText("m1"),
    [issuePath("I1")]: issueText({ id: "I1", milestone: "m1" }),
  });
  // The blob under two names: a record's (a finding, never read) and another file's (ignored).
  const blob = await zeroBlob(repo, BLOB_BYTES);
  git(repo, ["update-index", "--add", "--cacheinfo", `100644,${blob},${issuePath("ZERO")}`]);
  git(repo, ["update-index", "--add", "--cacheinfo", `100644,${blob},.ai/repo/project/issues/zeros.bin`]);
  git(repo, ["commit", "-q", "-m", "a huge blob"], { GIT_AUTHOR_DATE: "2026-10-02T10:00:00Z", GIT_COMMITTER_DATE: "2026-10-02T10:00:00Z" });
  git(repo, ["rm", "-q", "--cached", issuePath("ZERO"), ".ai/repo/project/issues/zeros.bin"]);
  commitAt(repo, "2026-10-03T10:00:00Z", { [issuePath("I2")]: issueText({ id: "I2", milestone: "m1" }) }, "the blob removed");
}, 180_000);

afterAll(() => {
  removeTempDirs();
  if (figures.length === 0) return;
  const width = Math.max(...figures.map(([call]) => call.length));
  const lines = figures.map(([call, kb]) => `  ${call.padEnd(width)}  ${(kb / 1024).toFixed(0).padStart(4)} MB`);
  console.log([`peak RSS of cockpit (git children included) over a history holding a ${BLOB_BYTES / 1024 / 1024} MB blob (limit ${RSS_LIMIT_KB / 1024} MB):`, ...lines].join("\n"));
});

describe("a 700 MB blob committed, then removed, under issues/", () => {
  it("plan model --at HEAD~1: the record is a finding with its size, the other file ignored, under 300 MB of peak RSS", async () => {
    const r = await measured(["model", "--json", "--at", "HEAD~1", "--repo", repo]);
    record("cockpit plan model --at HEAD~1", r.maxRssKb);
    expect(r.code, r.stderr).toBe(0);
    const plan = JSON.parse(r.stdout) as { issues: { id: string }[]; findings: { code: string; subject: string; message: string }[] };
    expect(plan.issues.map((i) => i.id)).toEqual(["I1"]);
    expect(plan.findings.filter((f) => f.code === "unreadable_record")).toEqual([
      {
        level: "FAIL",
        code: "unreadable_record",
        subject: "ZERO",
        message: `${issuePath("ZERO")} is ${BLOB_BYTES} bytes, larger than 1048576 bytes (1 MiB), the most a record file may be; it is not read`,
      },
    ]);
    expect(r.maxRssKb).toBeLessThan(RSS_LIMIT_KB);
  });

  it.for([
    ["history", ["history", "ZERO", "--json"]],
    ["changes", ["changes", "--since", "HEAD~2", "--until", "HEAD~1", "--json"]],
    ["burnup", ["burnup", "--milestone", "m1", "--since", "2026-10-01", "--until", "2026-10-03", "--json"]],
    ["standup", ["standup", "--since", "HEAD~2", "--json"]],
    ["code", ["code", "--json"]],
  ] as const)("plan %s over the commit that holds it answers under 300 MB of peak RSS", async ([, args]) => {
    const r = await measured([...args, "--repo", repo]);
    record(`cockpit plan ${args.filter((a) => a !== "--json").join(" ")}`, r.maxRssKb);
    expect(r.code, r.stderr).toBe(0);
    expect(r.maxRssKb).toBeLessThan(RSS_LIMIT_KB);
  });
});
