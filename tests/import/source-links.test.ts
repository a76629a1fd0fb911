import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readSource } from "@/lib/import/read-source";
import { runPlanCommand } from "@/lib/surfaces/cli/plan";
import { newRepo, removeTempDirs } from "../support/history";
import { hashRepo } from "../surfaces/helpers";

// A folder given to an import is read without following a link anywhere on the way to the file
// it reads: not the folder itself, not `.beads` or `.taskmaster/tasks` in the middle of the path.

const made: string[] = [];
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), "cockpit-source-links-"));
  made.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
  removeTempDirs();
});

const BEAD = `${JSON.stringify({ id: "OUT-1", title: "read through a link", status: "open" })}\n`;

/** A folder outside holding `rel`'s file, and a source folder whose `link` component leads to it. */
function linkedSource(link: string, rel: string, text: string): string {
  const outside = folder();
  mkdirSync(join(outside, rel, ".."), { recursive: true });
  writeFileSync(join(outside, rel), text);
  const src = folder();
  const under = link.split("/").slice(0, -1).join("/");
  if (under) mkdirSync(join(src, under), { recursive: true });
  symlinkSync(join(outside, link), join(src, link));
  return src;
}

describe("a folder import never follows a link on the way to its file", () => {
  it("beads: SRC/.beads leading out is refused, naming it", () => {
    const src = linkedSource(".beads", ".beads/issues.jsonl", BEAD);
    expect(() => readSource("beads", src)).toThrow(`${join(src, ".beads")} is a link`);
  });

  it("taskmaster: a link at any depth (.taskmaster, .taskmaster/tasks) is refused", () => {
    const tasks = JSON.stringify({ tasks: [{ id: 1, title: "out", status: "pending" }] });
    const top = linkedSource(".taskmaster", ".taskmaster/tasks/tasks.json", tasks);
    expect(() => readSource("taskmaster", top)).toThrow(`${join(top, ".taskmaster")} is a link`);
    const deep = linkedSource(".taskmaster/tasks", ".taskmaster/tasks/tasks.json", tasks);
    expect(() => readSource("taskmaster", deep)).toThrow(`${join(deep, ".taskmaster", "tasks")} is a link`);
  });

  it("backlog: SRC/backlog leading out is refused", () => {
    const src = linkedSource("backlog", "backlog/tasks/task-1 - Out.md", "---\nid: task-1\ntitle: out\n---\n");
    expect(() => readSource("backlog", src)).toThrow(`${join(src, "backlog")} is a link`);
  });

  it("cockpit plan import refuses it (exit 2) and writes nothing", async () => {
    const src = linkedSource(".beads", ".beads/issues.jsonl", BEAD);
    const repo = newRepo("cockpit-source-links-");
    const before = hashRepo(repo);
    let err = "";
    const code = await runPlanCommand(["import", "beads", src, "--repo", repo], { out: () => undefined, err: (t) => (err += t) });
    expect(err).toMatch(/\.beads is a link/);
    expect(code).toBe(2);
    expect(hashRepo(repo)).toBe(before);
  });

  it("a folder with no link reads as before", () => {
    const src = folder();
    mkdirSync(join(src, ".beads"));
    writeFileSync(join(src, ".beads", "issues.jsonl"), BEAD);
    expect(readSource("beads", src)).toEqual({ ".beads/issues.jsonl": BEAD });
  });
});
