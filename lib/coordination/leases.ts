import { randomBytes } from "node:crypto";
import { closeSync, constants, rmSync } from "node:fs";
import { hostname } from "node:os";
import { basename, join } from "node:path";
import { notFound } from "../plan/errors";
import { writeAll } from "../repo/write";
import { openStateFile, readStateFile, requireState } from "../repo/state-path";
import type { Plan, PlanIssue } from "../plan/shapes";

/** A live lease on an issue, as the derived plan shows it: the session's actor, and times in UTC, second precision (lib/coordination/sessions.ts). */
export interface Lease {
  holder: string;
  since: string;
  expires: string;
}

/** The clone's holder id: created by the first command that reserves a record id in a shared database (record-ids.ts). */
export const HOLDER_FILE = ".ai/local/state/holder";

/** This clone's holder id, or undefined when none was made yet (reads never make one, nor read it through a link). */
export function readHolder(repo: string): string | undefined {
  const id = readStateFile(repo, HOLDER_FILE)?.toString("utf8").trim();
  return id === "" ? undefined : id;
}

/** This clone's holder id, made on first need: host, folder and a random part (two clones, two holders). */
export async function holderOf(repo: string): Promise<string> {
  await requireState(repo, [HOLDER_FILE]);
  const known = readHolder(repo);
  if (known) return known;
  const id = `${hostname()}:${basename(repo)}:${randomBytes(4).toString("hex")}`;
  let fd: number;
  try {
    fd = openStateFile(repo, HOLDER_FILE, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return readHolder(repo) ?? id; // another process of this clone made it first
    throw error;
  }
  try {
    writeAll(fd, Buffer.from(id + "\n"));
  } catch (error) {
    closeSync(fd);
    rmSync(join(repo, HOLDER_FILE), { force: true });
    throw error;
  }
  closeSync(fd);
  return id;
}

/** The key that keeps plans apart in one database: the project's repository, else its name. */
export function projectKey(plan: Plan): string {
  return plan.project.repository || plan.project.name || "default";
}

export function requireIssue(plan: Plan, id: string): PlanIssue {
  const issue = plan.issues.find((i) => i.id === id);
  if (!issue) throw notFound(`no issue '${id}'; cockpit plan issues lists every one`);
  return issue;
}
