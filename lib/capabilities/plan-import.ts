import { z } from "zod";
import { importPlan } from "../import/import";
import { MAX_FILES } from "../import/limits";
import { IMPORT_FORMATS, ImportResultSchema } from "../import/shapes";
import { defineCapability } from "./capability";

// The source travels in the request: its files' text by relative path. The HTTP surface's body
// limit bounds it there; the command line reads a file or folder from disk within the import's limits.

export const ImportInput = z.strictObject({
  format: z.enum(IMPORT_FORMATS).describe("beads (a bd export JSONL), backlog (a Backlog.md folder), taskmaster (tasks.json) or github (gh issue list --json)."),
  files: z
    .record(z.string().min(1).max(1000), z.string())
    .refine((f) => Object.keys(f).length > 0 && Object.keys(f).length <= MAX_FILES, `files holds 1 to ${MAX_FILES} files`)
    .describe('The source\'s text by relative path: {"issues.jsonl": "…"}, or a Backlog.md folder\'s {"tasks/task-1 - A.md": "…", "config.yml": "…"}.'),
  source: z.string().min(1).max(1000).optional().describe("What the source is called in the answer and the ledger (a path, a file name)."),
  prefix: z.string().min(1).max(32).optional().describe("taskmaster and github: the id prefix (TM, GH by default)."),
  dependencies: z.string().optional().describe('github: the issue-dependencies list, [{"issue": N, "blocked_by": [N, …]}], as text.'),
  dry_run: z.boolean().optional().describe("Answer the same; write nothing."),
});

export const planImportCapability = defineCapability({
  id: "plan.import",
  kind: "command",
  title: "Import a plan from beads, Backlog.md, Task Master or GitHub Issues",
  description:
    "Writes the source's records the plan lacks as milestones and issues (existing ids are skipped, never overwritten) and answers with what it created, skipped, mapped and dropped, and the findings the new records cause. dry_run writes nothing.",
  input: ImportInput,
  output: ImportResultSchema,
  handler: (ctx, input) =>
    importPlan(
      ctx.repo,
      {
        format: input.format,
        source: input.source ?? Object.keys(input.files)[0],
        files: input.files,
        prefix: input.prefix,
        dependencies: input.dependencies,
        dry_run: input.dry_run,
      },
      { by: ctx.by, cache: ctx.cache },
    ),
});
