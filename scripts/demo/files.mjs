import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { finalMainCode } from "./code.mjs";
import { ISSUES } from "./issues.mjs";
import { MILESTONES, PROJECT } from "./plan.mjs";
import { README } from "./readme.mjs";
import { issueRecord, milestoneRecord } from "./records.mjs";
import { emit } from "./yaml.mjs";

/** The files of the demo, relative path → text, in a stable order. */
export function demoFiles(shift = 0) {
  const files = new Map();
  files.set("README.md", README);
  files.set(".ai/repo/project/project.yaml", emit(PROJECT));
  for (const m of MILESTONES) files.set(`.ai/repo/project/milestones/${m.id}.yaml`, milestoneRecord(m, shift));
  for (const i of ISSUES) files.set(`.ai/repo/project/issues/${i.id}.yaml`, issueRecord(i, shift));
  for (const [path, text] of finalMainCode()) files.set(path, text);
  return files;
}

export function writeDemo(outDir) {
  const files = demoFiles();
  // Drop records a previous run wrote that this one does not (a renamed issue must not linger).
  for (const sub of [".ai/repo/project/milestones", ".ai/repo/project/issues"]) {
    let names = [];
    try {
      names = readdirSync(join(outDir, sub));
    } catch {
      continue;
    }
    for (const name of names) {
      if (name.endsWith(".yaml") && !files.has(`${sub}/${name}`)) rmSync(join(outDir, sub, name));
    }
  }
  for (const [rel, text] of files) {
    const path = join(outDir, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
  return files.size;
}
