import type { IssueCode } from "@/lib/code/shapes";
import { SuggestedMove, type Suggestion } from "./TransitionButtons";

// The issue page's Code panel: what plan.code linked to the issue (branches, commits, where it
// merged) and the move its findings suggest, made only through the move's own confirmation.

/** An ISO time as "2026-11-30 09:50 UTC". */
const when = (iso: string) => iso.replace("T", " ").replace(/:\d\d(\.\d+)?Z$/, " UTC");

export function CodePanel({ code, suggestion }: { code: IssueCode; suggestion?: Suggestion }) {
  const hasLinks = code.branches.length > 0 || code.commits.length > 0;
  return (
    <div className="flex flex-col gap-4 text-sm" data-testid="code-panel">
      {code.note && <p className="text-slate-600 dark:text-slate-400">{code.note}</p>}
      {!code.note && !hasLinks && (
        <p>
          No branch or commit mentions {code.id} yet. A branch named after it (<code>{code.id.toLowerCase()}-…</code>) or a commit message naming
          it links it; <code>git fetch</code> brings teammates&apos; branches.
        </p>
      )}
      {code.merged && (
        <p data-testid="code-merged">
          Merged into <strong>{code.default_branch}</strong> by <code title={code.merged.commit}>{code.merged.commit.slice(0, 7)}</code> at {when(code.merged.at)}.
        </p>
      )}
      {code.findings.length > 0 && (
        <ul data-testid="code-findings" className="flex flex-col gap-1">
          {code.findings.map((f) => (
            <li key={f.code + f.message}>
              <span className="font-semibold text-amber-800 dark:text-amber-400">{f.level}</span> <span className="font-mono text-xs">{f.code}</span> {f.message}
            </li>
          ))}
        </ul>
      )}
      {suggestion && <SuggestedMove issue={code.id} suggestion={suggestion} />}
      {code.branches.length > 0 && (
        <table className="w-full" data-testid="code-branches">
          <caption className="mb-1 text-left text-xs text-slate-600 dark:text-slate-400">Branches, against {code.default_branch ?? "no default branch"}</caption>
          <thead className="text-left text-xs text-slate-600 dark:text-slate-400">
            <tr>
              <th className="font-medium">Branch</th>
              <th className="font-medium">Ahead</th>
              <th className="font-medium">Behind</th>
              <th className="font-medium">Merged</th>
              <th className="font-medium">Last commit</th>
            </tr>
          </thead>
          <tbody>
            {code.branches.map((b) => (
              <tr key={`${b.remote}/${b.name}`} data-testid={`code-branch-${b.remote ? `${b.remote}/` : ""}${b.name}`}>
                <td className="font-mono text-xs">{b.remote ? `${b.remote}/${b.name}` : b.name}</td>
                <td className="tabular-nums">{b.ahead}</td>
                <td className="tabular-nums">{b.behind}</td>
                <td>{b.merged ? "yes" : "no"}</td>
                <td className="text-xs">{when(b.last_commit_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {code.commits.length > 0 && (
        <div>
          <p className="mb-1 text-xs text-slate-600 dark:text-slate-400">
            {code.commits.length} commit{code.commits.length === 1 ? "" : "s"} by {code.authors.join(", ")}
            {code.first_activity_at && code.last_activity_at && `, ${when(code.first_activity_at)} to ${when(code.last_activity_at)}`}
          </p>
          <ul className="flex flex-col gap-1" data-testid="code-commits">
            {code.commits.map((c) => (
              <li key={c.sha} className="flex flex-wrap items-baseline gap-x-2">
                <code className="text-xs" title={c.sha}>
                  {c.sha.slice(0, 7)}
                </code>
                <span>{c.subject}</span>
                <span className="text-xs text-slate-600 dark:text-slate-400">
                  {c.author}, {when(c.authored_at)}
                  {c.on_default ? "" : ` · not on ${code.default_branch ?? "the default branch"}`}
                </span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
