import { type BurnupPoint, type ForecastDates, chartGeometry, stepPath } from "@/lib/standup/standup";

// A burn-up drawn as server-rendered SVG: scope, started and done per day, and the forecast's band
// from today's done count to the scope between its 50 % and 95 % dates. The SVG is an image with a
// label; the table beside it carries every number for screen readers and for reading exact values.

const SERIES = [
  { key: "scope", label: "Scope", line: "stroke-slate-500 dark:stroke-slate-300", dash: "6 4", swatch: "bg-slate-500 dark:bg-slate-300" },
  { key: "started", label: "Started", line: "stroke-blue-600 dark:stroke-blue-400", dash: undefined, swatch: "bg-blue-600 dark:bg-blue-400" },
  { key: "done", label: "Done", line: "stroke-green-700 dark:stroke-green-400", dash: undefined, swatch: "bg-green-700 dark:bg-green-400" },
] as const;

export function BurnupChart({
  milestone,
  title,
  points,
  forecast,
  forecastNote,
  large = false,
}: {
  milestone: string;
  title: string;
  points: BurnupPoint[];
  forecast?: ForecastDates;
  /** What the forecast says when it has no dates (not enough history, done). */
  forecastNote?: string;
  large?: boolean;
}) {
  const g = chartGeometry(points, forecast, 640, large ? 300 : 240);
  const last = points.at(-1);
  const summary = last
    ? `${last.done} of ${last.scope} done, ${last.started} started, on ${last.date}` +
      (forecast ? `; forecast: 50 % by ${forecast.p50}, 85 % by ${forecast.p85}, 95 % by ${forecast.p95}` : forecastNote ? `; forecast: ${forecastNote}` : "")
    : "no days to show";
  const tableId = `burnup-table-${milestone}`;
  const text = large ? "text-base" : "text-xs";
  return (
    <figure className={`flex flex-col gap-2 ${large ? "" : "max-w-4xl"}`} data-testid={`burnup-${milestone}`}>
      <div role="img" aria-label={`Milestone ${milestone} burn-up: ${summary}`} aria-describedby={tableId}>
        <svg viewBox={`0 0 ${g.width} ${g.height}`} className="h-auto w-full" aria-hidden="true" focusable="false">
          {/* horizontal grid with counts */}
          {gridCounts(g.maxCount).map((c) => (
            <g key={c}>
              <line x1={40} x2={g.width - 16} y1={g.y(c)} y2={g.y(c)} className="stroke-slate-200 dark:stroke-slate-700" strokeWidth={1} />
              <text x={34} y={g.y(c) + 4} textAnchor="end" className={`fill-slate-600 dark:fill-slate-400 ${large ? "text-[14px]" : "text-[11px]"}`}>
                {c}
              </text>
            </g>
          ))}
          {g.ticks.map((d) => (
            <text key={d} x={g.x(d)} y={g.height - 8} textAnchor="middle" className={`fill-slate-600 dark:fill-slate-400 ${large ? "text-[14px]" : "text-[11px]"}`}>
              {d.slice(5)}
            </text>
          ))}
          {forecast && last && (
            <polygon
              points={`${g.x(last.date)},${g.y(last.done)} ${g.x(forecast.p50)},${g.y(last.scope)} ${g.x(forecast.p95)},${g.y(last.scope)}`}
              className="fill-green-600/20 dark:fill-green-400/25"
            />
          )}
          {forecast &&
            (["p50", "p85", "p95"] as const).map((k) => (
              <g key={k}>
                <line x1={g.x(forecast[k])} x2={g.x(forecast[k])} y1={g.y(g.maxCount)} y2={g.y(0)} className="stroke-green-700 dark:stroke-green-400" strokeDasharray="2 3" strokeWidth={1} />
                <text x={g.x(forecast[k])} y={g.y(g.maxCount) + (large ? 14 : 10)} textAnchor="middle" className={`fill-green-800 dark:fill-green-300 ${large ? "text-[14px]" : "text-[11px]"}`}>
                  {k.slice(1)}%
                </text>
              </g>
            ))}
          {SERIES.map((s) => (
            <polyline
              key={s.key}
              points={stepPath(points, (p) => p[s.key], g)}
              fill="none"
              className={s.line}
              strokeWidth={large ? 3.5 : 2.5}
              strokeDasharray={s.dash}
            />
          ))}
        </svg>
      </div>
      <figcaption className={`flex flex-wrap items-center gap-4 ${text}`}>
        {SERIES.map((s) => (
          <span key={s.key} className="flex items-center gap-1">
            <span className={`inline-block h-1 w-5 rounded ${s.swatch}`} aria-hidden="true" />
            {s.label}
          </span>
        ))}
        {forecast && (
          <span className="flex items-center gap-1">
            <span className="inline-block h-3 w-5 rounded bg-green-600/20 dark:bg-green-400/25" aria-hidden="true" />
            Forecast band (50 % to 95 %)
          </span>
        )}
      </figcaption>
      <p className={large ? "text-xl" : "text-sm"} data-testid={`forecast-${milestone}`}>
        {forecast ? (
          <>
            Forecast for the {last ? last.scope - last.done : 0} issues left: 50 % by <strong>{forecast.p50}</strong>, 85 % by <strong>{forecast.p85}</strong>, 95 % by{" "}
            <strong>{forecast.p95}</strong>.
          </>
        ) : (
          <>Forecast: {forecastNote ?? "none"}</>
        )}
      </p>
      <details className={text}>
        <summary className="cursor-pointer text-slate-700 dark:text-slate-300">The chart as a table</summary>
        <table id={tableId} className="mt-2 w-full tabular-nums">
          <caption className="sr-only">Burn-up of {title}: one row per day, measured at that day&apos;s last commit</caption>
          <thead className="text-left text-slate-600 dark:text-slate-400">
            <tr>
              <th scope="col" className="pr-3 font-medium">Day</th>
              <th scope="col" className="pr-3 font-medium">Scope</th>
              <th scope="col" className="pr-3 font-medium">Started</th>
              <th scope="col" className="pr-3 font-medium">Done</th>
              <th scope="col" className="font-medium">Commit</th>
            </tr>
          </thead>
          <tbody>
            {points.map((p) => (
              <tr key={p.date} className="border-t border-slate-100 dark:border-slate-800">
                <th scope="row" className="pr-3 text-left font-normal">{p.date}</th>
                <td className="pr-3">{p.scope}</td>
                <td className="pr-3">{p.started}</td>
                <td className="pr-3">{p.done}</td>
                <td className="font-mono">{p.commit ? p.commit.slice(0, 10) : "now"}</td>
              </tr>
            ))}
            {forecast &&
              (["p50", "p85", "p95"] as const).map((k) => (
                <tr key={k} className="border-t border-slate-100 dark:border-slate-800">
                  <th scope="row" className="pr-3 text-left font-normal">{forecast[k]}</th>
                  <td colSpan={4}>forecast: all {last?.scope ?? 0} done with {k.slice(1)} % confidence</td>
                </tr>
              ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}

/** Up to five round counts from 0 to the largest, for the grid. */
function gridCounts(max: number): number[] {
  const step = Math.max(1, Math.ceil(max / 4));
  const out: number[] = [];
  for (let c = 0; c <= max; c += step) out.push(c);
  if (out.at(-1) !== max) out.push(max);
  return out;
}
