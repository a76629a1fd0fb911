// Made once per vitest run and shared by its test files (vitest's globalSetup, handed over with
// provide/inject): the folder the run's one copy of the web build goes to. The copy is made by the
// first file that needs a server (tests/surfaces/helpers.ts's ensureBuild), so a run without one
// builds nothing; it is removed when the run ends.
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** The run's copy of the web build, relative to the app (as COCKPIT_DIST_DIR wants it). */
    cockpitBuildCopy: string;
  }
}

export default function setup(project: TestProject) {
  const root = join(__dirname, "..", "..");
  const copy = join("node_modules", ".cache", "cockpit-surface-tests", `run-${process.pid}-${Date.now()}`);
  project.provide("cockpitBuildCopy", copy);
  return () => rmSync(join(root, copy), { recursive: true, force: true });
}
