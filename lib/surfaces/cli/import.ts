import { readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { MAX_FILE_BYTES } from "../../import/limits";
import { readSource } from "../../import/read-source";
import { IMPORT_FORMATS, type ImportFormat, type ImportResult } from "../../import/shapes";
import { UsageError, type ParsedArgs } from "./args";

// The command line of plan.import: FORMAT SOURCE read from disk into the capability's input, and
// its answer in words.

export function importInput(args: ParsedArgs): Record<string, unknown> {
  if (args.words.length !== 2) throw new UsageError(`cockpit plan import takes a format (${IMPORT_FORMATS.join(", ")}) and a source file or folder`);
  const [format, source] = args.words;
  if (!(IMPORT_FORMATS as readonly string[]).includes(format)) throw new UsageError(`'${format}' is not a format; the formats are ${IMPORT_FORMATS.join(", ")}`);
  const files = readSource(format as ImportFormat, resolve(source));
  const dependencies = args.options.get("dependencies");
  let dependenciesText: string | undefined;
  if (dependencies !== undefined) {
    const size = statSync(resolve(dependencies), { throwIfNoEntry: false })?.size;
    if (size === undefined) throw new UsageError(`no dependencies file '${dependencies}'`);
    if (size > MAX_FILE_BYTES) throw new UsageError(`${dependencies} is more than the ${MAX_FILE_BYTES} bytes an import reads of one file`);
    dependenciesText = readFileSync(resolve(dependencies), "utf8");
  }
  return {
    format,
    source,
    files,
    ...(args.options.has("prefix") ? { prefix: args.options.get("prefix") } : {}),
    ...(dependenciesText !== undefined ? { dependencies: dependenciesText } : {}),
    ...(args.options.has("dry-run") ? { dry_run: true } : {}),
  };
}

const SHOWN = 20;

function some<T>(items: readonly T[], line: (t: T) => string): string[] {
  const shown = items.slice(0, SHOWN).map((t) => `  ${line(t)}`);
  return items.length > SHOWN ? [...shown, `  … and ${items.length - SHOWN} more (--json lists every one)`] : shown;
}

export function renderImport(r: ImportResult): string {
  const lines = [`import: ${r.summary}`];
  if (r.created.milestones.length) lines.push(`milestones: ${r.created.milestones.join(", ")}`);
  if (r.created.issues.length) lines.push(`issues: ${r.created.issues.length}`);
  const mapped = Object.entries(r.mapped).map(([from, to]) => `  ${from} → ${Object.entries(to).map(([s, n]) => `${s} ${n}`).join(", ")}`);
  if (mapped.length) lines.push("mapped:", ...mapped);
  if (r.skipped.length) lines.push(`skipped (${r.skipped.length}):`, ...some(r.skipped, (s) => `${s.id}: ${s.why}`));
  if (r.dropped.length) lines.push("dropped:", ...r.dropped.map((d) => `  ${d.what} (${d.count}): ${d.why}`));
  if (r.findings.length) lines.push(`findings the import causes (${r.findings.length}):`, ...some(r.findings, (f) => `${f.level} ${f.code} ${f.subject}: ${f.message}`));
  return lines.join("\n");
}
