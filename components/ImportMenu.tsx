"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { runCapability } from "@/app/actions";
import type { ImportResult } from "@/lib/import/shapes";

// "New plan from…": a person picks a format and a file (a folder for Backlog.md), sees what the
// import would do (plan.import with dry_run: created, skipped, mapped, dropped, findings), then
// confirms. The answer shown is the server's; nothing is guessed here.

const FORMATS = [
  { id: "beads", label: "beads (.beads/issues.jsonl)", folder: false },
  { id: "backlog", label: "Backlog.md (the backlog/ folder)", folder: true },
  { id: "taskmaster", label: "Task Master (tasks.json)", folder: false },
  { id: "github", label: "GitHub Issues (gh issue list --json)", folder: false },
] as const;
type FormatId = (typeof FORMATS)[number]["id"];

const SHOWN = 8;

/** A folder's files by path inside it (the folder's own name taken off), as plan.import reads them. */
async function filesOf(list: FileList, folder: boolean): Promise<Record<string, string>> {
  const out: [string, string][] = [];
  for (const file of Array.from(list)) {
    const rel = (file as File & { webkitRelativePath?: string }).webkitRelativePath || file.name;
    const path = folder ? rel.split("/").slice(1).join("/") || rel : file.name;
    if (folder && !(path.endsWith(".md") || path === "config.yml" || path === "backlog/config.yml")) continue;
    out.push([path, await file.text()]);
  }
  // A file's name is a key of its own (`__proto__` too), never the object's prototype.
  return Object.fromEntries(out);
}

export function ImportMenu() {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [format, setFormat] = useState<FormatId>("beads");
  const [source, setSource] = useState<{ name: string; files: Record<string, string> } | null>(null);
  const [dependencies, setDependencies] = useState<string | undefined>(undefined);
  const [prefix, setPrefix] = useState("");
  const [preview, setPreview] = useState<ImportResult | null>(null);
  const [outcome, setOutcome] = useState("");
  const [busy, start] = useTransition();
  const spec = FORMATS.find((f) => f.id === format)!;

  const input = (dryRun: boolean) => ({
    format,
    files: source!.files,
    source: source!.name,
    ...(prefix && (format === "taskmaster" || format === "github") ? { prefix } : {}),
    ...(dependencies !== undefined && format === "github" ? { dependencies } : {}),
    ...(dryRun ? { dry_run: true } : {}),
  });
  const run = (dryRun: boolean) =>
    start(async () => {
      const r = await runCapability("plan.import", input(dryRun));
      if (!r.ok) {
        setOutcome(`Refused: ${r.error.message}`);
        setPreview(null);
        return;
      }
      const answer = r.value;
      if (dryRun) {
        setPreview(answer);
        setOutcome("");
      } else {
        setPreview(null);
        setSource(null);
        setOutcome(`Imported: ${answer.summary}.`);
        router.refresh();
      }
    });

  const pick = async (list: FileList | null) => {
    setPreview(null);
    setOutcome("");
    if (!list || list.length === 0) return setSource(null);
    const files = await filesOf(list, spec.folder);
    const first = (list[0] as File & { webkitRelativePath?: string }).webkitRelativePath?.split("/")[0] || list[0].name;
    setSource({ name: spec.folder ? first : list[0].name, files });
  };

  return (
    <div className="relative text-sm">
      <button
        type="button"
        data-testid="import-open"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        className="rounded-md border border-slate-300 px-2.5 py-1.5 text-slate-700 hover:bg-slate-100 dark:border-slate-700 dark:text-slate-300 dark:hover:bg-slate-800"
      >
        New plan from…
      </button>
      {open && (
        <div data-testid="import-panel" role="dialog" aria-label="Import a plan" className="absolute right-0 z-20 mt-1 w-[34rem] rounded border border-slate-300 bg-white p-4 shadow-lg dark:border-slate-700 dark:bg-slate-900">
          <h2 className="mb-3 font-semibold">Import a plan</h2>
          <div className="grid grid-cols-[minmax(0,7rem)_minmax(0,1fr)] items-center gap-2">
            <label htmlFor="import-format">Format</label>
            <select
              id="import-format"
              data-testid="import-format"
              value={format}
              onChange={(e) => {
                setFormat(e.target.value as FormatId);
                setSource(null);
                setPreview(null);
              }}
              className="rounded border border-slate-300 bg-white px-2 py-1 dark:border-slate-600 dark:bg-slate-800"
            >
              {FORMATS.map((f) => (
                <option key={f.id} value={f.id}>
                  {f.label}
                </option>
              ))}
            </select>
            <label htmlFor="import-source">{spec.folder ? "Folder" : "File"}</label>
            <input
              key={format}
              id="import-source"
              data-testid="import-source"
              type="file"
              multiple={spec.folder}
              {...(spec.folder ? { webkitdirectory: "", directory: "" } : { accept: format === "beads" ? ".jsonl,.json" : ".json" })}
              onChange={(e) => void pick(e.target.files)}
              className="text-xs"
            />
            {format === "github" && (
              <>
                <label htmlFor="import-deps">Dependencies</label>
                <input id="import-deps" data-testid="import-dependencies" type="file" accept=".json" onChange={async (e) => setDependencies(e.target.files?.[0] ? await e.target.files[0].text() : undefined)} className="text-xs" />
              </>
            )}
            {(format === "taskmaster" || format === "github") && (
              <>
                <label htmlFor="import-prefix">Id prefix</label>
                <input id="import-prefix" data-testid="import-prefix" value={prefix} placeholder={format === "github" ? "GH" : "TM"} onChange={(e) => setPrefix(e.target.value)} className="w-24 rounded border border-slate-300 bg-white px-2 py-1 dark:border-slate-600 dark:bg-slate-800" />
              </>
            )}
          </div>
          <div className="mt-3 flex gap-2">
            <button type="button" data-testid="import-preview" disabled={!source || busy} onClick={() => run(true)} className="rounded-md border border-slate-300 px-3 py-1.5 disabled:opacity-50 dark:border-slate-600">
              {busy && !preview ? "Reading…" : "Preview"}
            </button>
            {preview && (
              <button type="button" data-testid="import-confirm" disabled={busy || preview.created.issues.length + preview.created.milestones.length === 0} onClick={() => run(false)} className="rounded-md bg-blue-700 px-3 py-1.5 font-medium text-white disabled:opacity-50">
                Import {preview.created.issues.length} issue(s)
              </button>
            )}
          </div>
          {preview && <ImportPreview result={preview} />}
          <p role="status" aria-live="polite" data-testid="import-outcome" className="mt-2 text-xs">
            {outcome}
          </p>
        </div>
      )}
    </div>
  );
}

function ImportPreview({ result }: { result: ImportResult }) {
  const mapped = Object.entries(result.mapped);
  return (
    <div data-testid="import-dry-run" className="mt-3 max-h-[26rem] space-y-2 overflow-auto border-t border-slate-200 pt-2 text-xs dark:border-slate-700">
      <p className="font-medium">{result.summary}</p>
      <dl className="grid grid-cols-[minmax(0,6rem)_minmax(0,1fr)] gap-x-2 gap-y-1">
        <dt className="text-slate-600 dark:text-slate-400">Created</dt>
        <dd data-testid="import-created">
          {result.created.milestones.length} milestone(s), {result.created.issues.length} issue(s)
        </dd>
        <dt className="text-slate-600 dark:text-slate-400">Mapped</dt>
        <dd data-testid="import-mapped">
          {mapped.length === 0 ? "—" : mapped.map(([from, to]) => `${from} → ${Object.entries(to).map(([s, n]) => `${s} ${n}`).join(", ")}`).join("; ")}
        </dd>
      </dl>
      <Section title={`Skipped (${result.skipped.length})`} testId="import-skipped" items={result.skipped.map((s) => `${s.id}: ${s.why}`)} />
      <Section title={`Dropped (${result.dropped.length})`} testId="import-dropped" items={result.dropped.map((d) => `${d.what} ×${d.count}: ${d.why}`)} />
      <Section title={`Findings (${result.findings.length})`} testId="import-findings" items={findingGroups(result)} />
    </div>
  );
}

/** Findings by level and code, failures first: thousands of imported issues make a few kinds. */
function findingGroups(result: ImportResult): string[] {
  const groups = new Map<string, { level: string; code: string; subjects: string[] }>();
  for (const f of result.findings) {
    const key = `${f.level} ${f.code}`;
    const g = groups.get(key) ?? { level: f.level, code: f.code, subjects: [] };
    g.subjects.push(f.subject);
    groups.set(key, g);
  }
  return [...groups.values()]
    .sort((a, b) => (a.level === b.level ? 0 : a.level === "FAIL" ? -1 : 1))
    .map((g) => `${g.level} ${g.code} ×${g.subjects.length}: ${g.subjects.slice(0, 4).join(", ")}${g.subjects.length > 4 ? ", …" : ""}`);
}

function Section({ title, items, testId }: { title: string; items: string[]; testId: string }) {
  if (items.length === 0) return null;
  return (
    <div data-testid={testId}>
      <p className="font-medium">{title}</p>
      <ul className="ml-4 list-disc">
        {items.slice(0, SHOWN).map((t, i) => (
          <li key={i}>{t}</li>
        ))}
        {items.length > SHOWN && <li className="list-none text-slate-600 dark:text-slate-400">… and {items.length - SHOWN} more</li>}
      </ul>
    </div>
  );
}
