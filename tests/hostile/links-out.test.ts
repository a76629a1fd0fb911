import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commitAt, git, issuePath, issueText, milestonePath, milestoneText, newRepo, PROJECT, projectText, removeTempDirs, tempDir } from "@/tests/support/history";
import { ensureCliBuilt, jsonOf, spawnCli } from "@/tests/support/processes";

// A records folder that is a link out of the repository (committed so, as a cloned repository
// holds it): the records there are not read, in the work tree or at a revision, and no move,
// edit or creation writes there. A link to a folder inside the repository is followed, as today.

const ISSUES = ".ai/repo/project/issues";
const MILESTONES = ".ai/repo/project/milestones";

interface Plan {
  issues: { id: string }[];
  milestones: { id: string }[];
  findings: { level: string; code: string; subject: string; message: string }[];
}

/** Every file under `dir` with its bytes' hash, and its mode: what "nothing outside changed" compares. */
function fingerprint(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else out[relative(dir, p)] = `${st.mode.toString(8)} ${createHash("sha256").update(readFileSync(p)).digest("hex")}`;
    }
  };
  walk(dir);
  return out;
}

/**
 * A repository whose plan (milestone m1) was committed, then `link` (a records folder, relative)
 * replaced by a link to a folder outside, holding what the link leads to (issue X1 in its issues
 * folder; a header and milestone MX when it stands above them), committed as a link.
 */
function linkedRepo(link: string): { repo: string; outside: string } {
  const repo = newRepo("cockpit-links-out-");
  const outside = tempDir("cockpit-outside-");
  commitAt(repo, "2026-10-01T10:00:00Z", { [PROJECT]: projectText(), [milestonePath("m1")]: milestoneText("m1") });
  const below = (path: string) => join(outside, relative(link, path));
  if (link !== MILESTONES) {
    mkdirSync(below(ISSUES), { recursive: true });
    writeFileSync(join(below(ISSUES), "X1.yaml"), issueText({ id: "X1", milestone: "m1", title: "Outside the repository" }));
  }
  if (link !== ISSUES) {
    mkdirSync(below(MILESTONES), { recursive: true });
    writeFileSync(join(below(MILESTONES), "MX.yaml"), milestoneText("MX"));
  }
  if (ISSUES.startsWith(`${link}/`) && MILESTONES.startsWith(`${link}/`)) writeFileSync(below(PROJECT), projectText("Outside"));
  rmSync(join(repo, link), { recursive: true, force: true });
  symlinkSync(outside, join(repo, link));
  commitAt(repo, "2026-10-02T10:00:00Z");
  return { repo, outside };
}

const outsideFinding = (folder: string) => ({
  level: "FAIL",
  code: "unreadable_record",
  subject: folder,
  message: `${folder} is a symbolic link that leads outside the repository; nothing in it is read or written (replace the link with a folder inside the repository)`,
});

beforeAll(() => ensureCliBuilt());
afterAll(removeTempDirs);

describe("the issues folder is a link to a folder outside the repository", () => {
  let repo: string;
  let outside: string;
  beforeAll(() => ({ repo, outside } = linkedRepo(ISSUES)));

  it("plan model (the files, and --at HEAD) does not read it: one finding names the folder, the milestones are served", async () => {
    for (const at of [[], ["--at", "HEAD"]]) {
      const plan = jsonOf(await spawnCli(["model", "--json", ...at, "--repo", repo])) as Plan;
      expect(plan.issues).toEqual([]);
      expect(plan.milestones.map((m) => m.id)).toEqual(["m1"]);
      expect(plan.findings.filter((f) => f.code === "unreadable_record")).toEqual([outsideFinding(ISSUES)]);
    }
  });

  it("a move, an evidence, an edit and a creation are refused (exit 15 naming the folder, or not found), and nothing outside changes", async () => {
    const before = fingerprint(outside);
    const runs = [
      await spawnCli(["start", "X1", "--repo", repo]),
      await spawnCli(["evidence", "X1", "--covers", "proof", "--type", "test", "--command", "npm test", "--repo", repo]),
      await spawnCli(["edit", "X1", "--set", "title=Changed", "--repo", repo]),
      await spawnCli(["create", "issue", "--milestone", "m1", "--title", "New", "--repo", repo]),
      await spawnCli(["create", "issue", "--milestone", "m1", "--title", "New", "--id", "X9", "--repo", repo]),
    ];
    for (const r of runs) expect([12, 15], r.stderr).toContain(r.code);
    expect(runs[0]).toMatchObject({ code: 15, stderr: expect.stringContaining(`${ISSUES} is a symbolic link that leads outside the repository`) });
    expect(runs[3]).toMatchObject({ code: 15, stderr: expect.stringContaining(`${ISSUES} is a symbolic link that leads outside the repository`) });
    expect(fingerprint(outside)).toEqual(before);
    expect(git(repo, ["status", "--porcelain", "--", ".ai/repo"])).toBe("");
  });
});

describe("a folder above the records is the link out", () => {
  it.for([".ai", ".ai/repo", ".ai/repo/project", MILESTONES])("%s: one finding names it, nothing under it is read, at HEAD alike", async (folder) => {
    const { repo, outside } = linkedRepo(folder);
    for (const at of [[], ["--at", "HEAD"]]) {
      const plan = jsonOf(await spawnCli(["model", "--json", ...at, "--repo", repo])) as Plan;
      expect(plan.issues).toEqual([]);
      expect(plan.milestones.map((m) => m.id)).toEqual([]);
      expect(plan.findings.filter((f) => f.code === "unreadable_record")).toEqual([outsideFinding(folder)]);
    }
    const before = fingerprint(outside);
    const r = await spawnCli(["create", "milestone", "--title", "New", "--id", "m9", "--repo", repo]);
    expect(r).toMatchObject({ code: 15, stderr: expect.stringContaining(`${folder} is a symbolic link that leads outside the repository`) });
    expect(fingerprint(outside)).toEqual(before);
  });
});

describe("a link to a folder inside the repository stays allowed", () => {
  it("issues -> a folder elsewhere in the repository: its records are served, in the files and at HEAD, and a move writes there", async () => {
    const repo = newRepo("cockpit-links-in-");
    commitAt(repo, "2026-10-01T10:00:00Z", {
      [PROJECT]: projectText(),
      [milestonePath("m1")]: milestoneText("m1"),
      "shared/issues/I1.yaml": issueText({ id: "I1", milestone: "m1" }),
    });
    symlinkSync("../../../shared/issues", join(repo, ISSUES));
    // A link beside it, read where the folder really is (shared/issues/I1.yaml), as the kernel reads it.
    symlinkSync("I1.yaml", join(repo, "shared/issues/I2.yaml"));
    commitAt(repo, "2026-10-02T10:00:00Z");
    const plans: string[] = [];
    for (const at of [[], ["--at", "HEAD"]]) {
      const { at: _where, ...plan } = jsonOf(await spawnCli(["model", "--json", ...at, "--repo", repo])) as Plan & { at?: unknown };
      expect(plan.issues.map((i) => i.id)).toEqual(["I1"]);
      expect(plan.findings.filter((f) => f.code === "unreadable_record").map((f) => f.message)).toEqual([
        `${ISSUES}/I2.yaml declares id 'I1' but its filename says I2`,
      ]);
      plans.push(JSON.stringify(plan));
    }
    expect(plans[1]).toBe(plans[0]);
    const r = await spawnCli(["start", "I1", "--repo", repo]);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(repo, "shared/issues/I1.yaml"), "utf8")).toMatch(/^started_at: /m);
    expect(issuePath("I1")).toBe(`${ISSUES}/I1.yaml`);
  });
});
