import { axisLabels, spreadLabels } from "@/lib/standup/chart";
import { type BurnupPoint, type ForecastDates, chartGeometry, stepPath } from "@/lib/standup/standup";

// A burn-up drawn as server-rendered SVG: scope, started and done per day, and the forecast's band
// from today's done count to the scope between its 50 % and 95 % dates. The SVG is an image with a
// label; the table beside it carries every number for screen readers and for reading exact values.

const SERIES = [
  { key: "scope", label: "Scope", line: "stroke-slate-500 dark:stroke-slate-300", dash: "6 4", swatch: "bg-slate-500 dark:bg-slate-300", fill: "fill-slate-700 dark:fill-slate-200" },
  { key: "started", label: "Started", line: "stroke-blue-600 dark:stroke-blue-400", dash: undefined, swatch: "bg-blue-600 dark:bg-blue-400", fill: "fill-blue-700 dark:fill-blue-300" },
  { key: "done", label: "Done", line: "stroke-green-700 dark:stroke-green-400", dash: undefined, swatch: "bg-green-700 dark:bg-green-400", fill: "fill-green-800 dark:fill-green-300" },
] as const;

/** Each size's drawing, in the SVG's own units: the screen's is a projector's whole screen. */
const SIZES = {
  page: { width: 640, height: 250, font: 11, stroke: 2.5, pad: { left: 40, right: 72, top: 18, bottom: 36 } },
  large: { width: 640, height: 300, font: 14, stroke: 3.5, pad: { left: 44, right: 88, top: 22, bottom: 44 } },
  screen: { width: 1600, height: 700, font: 30, stroke: 6, pad: { left: 80, right: 210, top: 50, bottom: 96 } },
} as const;

export type BurnupSize = keyof typeof SIZES;

export function BurnupChart({
  milestone,
  title,
  points,
  forecast,
  forecastNote,
  today,
  todayLabel = "today",
  size = "page",
}: {
  milestone: string;
  title: string;
  points: BurnupPoint[];
  forecast?: ForecastDates;
  /** What the forecast says when it has no dates (not enough history, done). */
  forecastNote?: string;
  /** The day the chart is read on (YYYY-MM-DD): a line marks it. */
  today?: string;
  todayLabel?: string;
  size?: BurnupSize;
}) {
  const z = SIZES[size];
  const last = points.at(-1);
  // The lines' labels sit at their ends: room on the right only when nothing is drawn past them.
  const isPastLast = !!last && ((!!forecast && forecast.p95 > last.date) || (!!today && today > last.date));
  const g = chartGeometry(points, forecast, z.width, z.height, { today, pad: isPastLast ? { ...z.pad, right: z.font * 1.6 } : z.pad });
  const summary = last
    ? `${last.done} of ${last.scope} done, ${last.started} started, on ${last.date}` +
      (forecast ? `; forecast: 50 % by ${forecast.p50}, 85 % by ${forecast.p85}, 95 % by ${forecast.p95}` : forecastNote ? `; forecast: ${forecastNote}` : "")
    : "no days to show";
  const tableId = `burnup-table-${milestone}`;
  const isScreen = size === "screen";
  const text = size === "page" ? "text-xs" : size === "large" ? "text-base" : "text-2xl";
  const fontSize = { fontSize: z.font };
  const top = g.y(g.maxCount);
  const bottom = g.y(0);
  // Each line's label at its end, kept apart; a light halo keeps it legible over the band.
  const ends = last ? spreadLabels(SERIES.map((s) => g.y(last[s.key])), z.font * 1.1, top + z.font / 2, bottom) : [];
  const halo = "stroke-white dark:stroke-slate-900";
  return (
    <figure className={`flex flex-col gap-2 ${size === "page" ? "max-w-4xl" : ""} ${isScreen ? "h-full min-h-0" : ""}`} data-testid={`burnup-${milestone}`}>
      <div role="img" aria-label={`Milestone ${milestone} burn-up: ${summary}`} aria-describedby={tableId} className={isScreen ? "min-h-0 flex-1" : ""}>
        <svg viewBox={`0 0 ${g.width} ${g.height}`} className={isScreen ? "h-full w-full" : "h-auto w-full"} aria-hidden="true" focusable="false">
          {/* horizontal grid with counts */}
          {gridCounts(g.maxCount).map((c) => (
            <g key={c}>
              <line x1={g.pad.left} x2={g.width - g.pad.right} y1={g.y(c)} y2={g.y(c)} className="stroke-slate-200 dark:stroke-slate-700" strokeWidth={1} />
              <text x={g.pad.left - 6} y={g.y(c) + z.font / 3} textAnchor="end" className="fill-slate-600 dark:fill-slate-400" style={fontSize}>
                {c}
              </text>
            </g>
          ))}
          {axisLabels(g.ticks).map((t) => (
            <text key={t.date} x={g.x(t.date)} y={bottom + z.font * 1.3} textAnchor="middle" className="fill-slate-700 dark:fill-slate-300" style={fontSize} data-testid="burnup-tick">
              {t.label}
              {t.year && (
                <tspan x={g.x(t.date)} dy={z.font * 1.15} className="font-semibold">
                  {t.year}
                </tspan>
              )}
            </text>
          ))}
          {forecast && last && (
            <g data-testid="burnup-band">
              <polygon
                points={`${g.x(last.date)},${g.y(last.done)} ${g.x(forecast.p50)},${g.y(last.scope)} ${g.x(forecast.p95)},${g.y(last.scope)}`}
                className="fill-green-600/20 stroke-green-700 dark:fill-green-300/35 dark:stroke-green-300"
                strokeWidth={z.stroke / 2}
                strokeDasharray={`${z.stroke * 2} ${z.stroke}`}
              />
              <text
                x={(g.x(forecast.p50) + g.x(forecast.p95)) / 2}
                y={g.y(last.scope) + z.font * 1.4}
                textAnchor="middle"
                className={`fill-green-900 dark:fill-green-100 ${halo}`}
                strokeWidth={z.font / 4}
                paintOrder="stroke"
                style={fontSize}
              >
                forecast
              </text>
            </g>
          )}
          {forecast &&
            (["p50", "p85", "p95"] as const).map((k) => (
              <g key={k}>
                <line x1={g.x(forecast[k])} x2={g.x(forecast[k])} y1={top} y2={bottom} className="stroke-green-700 dark:stroke-green-300" strokeDasharray="2 3" strokeWidth={z.stroke / 2} />
                <text x={g.x(forecast[k])} y={top - z.font * 0.4} textAnchor="middle" className="fill-green-800 dark:fill-green-200" style={fontSize}>
                  {k.slice(1)}%
                </text>
              </g>
            ))}
          {today && (
            <g data-testid="burnup-today">
              <line x1={g.x(today)} x2={g.x(today)} y1={top - z.font * 0.2} y2={bottom} className="stroke-orange-600 dark:stroke-orange-400" strokeWidth={z.stroke / 1.5} strokeDasharray={`${z.stroke * 1.5} ${z.stroke}`} />
              <text x={g.x(today) - z.font * 0.3} y={bottom - z.font * 0.4} textAnchor="end" className={`fill-orange-800 font-semibold dark:fill-orange-300 ${halo}`} strokeWidth={z.font / 4} paintOrder="stroke" style={fontSize}>
                {todayLabel}
              </text>
            </g>
          )}
          {SERIES.map((s) => (
            <polyline
              key={s.key}
              points={stepPath(points, (p) => p[s.key], g)}
              fill="none"
              className={s.line}
              strokeWidth={z.stroke}
              strokeDasharray={s.dash}
            />
          ))}
          {last &&
            SERIES.map((s, i) => (
              <text
                key={s.key}
                x={g.x(last.date) + z.font * 0.4}
                y={ends[i] + z.font / 3}
                className={`${s.fill} font-semibold ${halo}`}
                strokeWidth={z.font / 4}
                paintOrder="stroke"
                style={fontSize}
                data-testid={`burnup-label-${s.key}`}
              >
                {s.label} {last[s.key]}
              </text>
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
            <span className="inline-block h-3 w-5 rounded border border-dashed border-green-700 bg-green-600/20 dark:border-green-300 dark:bg-green-300/35" aria-hidden="true" />
            Forecast band (50 % to 95 %)
          </span>
        )}
      </figcaption>
      <p className={size === "page" ? "text-sm" : size === "large" ? "text-xl" : "text-3xl"} data-testid={`forecast-${milestone}`}>
        {forecast ? (
          <>
            Forecast for the {last ? last.scope - last.done : 0} issues left: 50 % by <strong>{forecast.p50}</strong>, 85 % by <strong>{forecast.p85}</strong>, 95 % by{" "}
            <strong>{forecast.p95}</strong>.
          </>
        ) : (
          <>Forecast: {forecastNote ?? "none"}</>
        )}
      </p>
      <details className={isScreen ? "sr-only" : text}>
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
  // The largest count is always labelled; a round count just below it would crowd it.
  if (out.at(-1) !== max && max - out.at(-1)! < step / 2 && out.length > 1) out.pop();
  if (out.at(-1) !== max) out.push(max);
  return out;
}
