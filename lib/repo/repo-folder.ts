import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { PROJECT_DIR } from "../plan/constants";

/** What is wrong with a folder given as the repository (`--repo`), in words, or undefined: it is a folder. */
export function repoFolderProblem(dir: string): string | undefined {
  const stat = statSync(dir, { throwIfNoEntry: false });
  if (stat === undefined) return `${dir} does not exist; --repo names the folder that holds .ai/`;
  if (!stat.isDirectory()) return `${dir} is a file, not a folder; --repo names the folder that holds .ai/`;
  return undefined;
}

/** Whether a folder holds a plan at all: its project folder (an empty plan there is an answer). */
export function hasPlanFolder(repo: string): boolean {
  return existsSync(join(repo, PROJECT_DIR));
}

/** The words for a folder without a plan, for the answers that hand out work (next, claim). */
export function noPlanAt(repo: string): string {
  return `no plan found at ${repo}: it has no ${PROJECT_DIR}/ folder (--repo names the repository that holds it)`;
}
