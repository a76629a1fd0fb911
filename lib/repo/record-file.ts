import { join } from "node:path";
import { ISSUES_DIR, MILESTONES_DIR } from "../plan/constants";
import { folderLeavingRepository, readRecordText } from "./load";
import { idProblem } from "./write";
import { parseYaml, type YamlValue } from "../plan/yaml";

export interface RecordFile {
  /** The path relative to the repository. */
  path: string;
  /** The record's fields as written, in file order (undefined when the file does not parse). */
  fields?: [string, YamlValue][];
  text: string;
}

/** A record's file as written, for showing every field of it; read under the loader's limits. */
export function readRecordFileFields(repo: string, kind: "issue" | "milestone", id: string): RecordFile | undefined {
  if (idProblem(id)) return undefined;
  const folder = kind === "issue" ? ISSUES_DIR : MILESTONES_DIR;
  const path = `${folder}/${id}.yaml`;
  let text: string;
  try {
    // As the loader: nothing is read through a records folder that leads outside the repository.
    if (folderLeavingRepository(repo, folder) !== undefined) return undefined;
    const read = readRecordText(join(repo, path), repo);
    if (read === undefined || "refused" in read) return undefined;
    text = read.text;
  } catch {
    return undefined;
  }
  const parsed = parseYaml(text);
  return {
    path,
    text,
    fields: parsed.ok && parsed.value instanceof Map ? [...parsed.value.entries()] : undefined,
  };
}
