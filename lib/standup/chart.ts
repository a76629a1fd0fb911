// The burn-up's labels: the dates on its axis (with their year), and a label at the end of each
// line, kept apart so two lines that end close together stay readable. Pure functions.

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** An axis date as "Nov 9", and its year where it starts the axis or a new year begins. */
export interface AxisLabel {
  date: string;
  label: string;
  year: string | null;
}

export function axisLabels(ticks: readonly string[]): AxisLabel[] {
  return ticks.map((date, i) => {
    const [y, m, d] = date.slice(0, 10).split("-");
    const isNewYear = i === 0 || ticks[i - 1].slice(0, 4) !== y;
    return { date, label: `${MONTHS[Number(m) - 1]} ${Number(d)}`, year: isNewYear ? y : null };
  });
}

/**
 * The y of each line's end label: at its line's end, pushed apart to at least `gap` (user units)
 * and kept within [top, bottom]. Input and output in the same order.
 */
export function spreadLabels(ys: readonly number[], gap: number, top: number, bottom: number): number[] {
  const order = ys.map((y, i) => ({ y, i })).sort((a, b) => a.y - b.y || a.i - b.i);
  const out = order.map((o) => Math.min(Math.max(o.y, top), bottom));
  for (let k = 1; k < out.length; k++) out[k] = Math.max(out[k], out[k - 1] + gap);
  // Pushed past the bottom: move the whole stack up, keeping the gaps.
  const over = out.length > 0 ? out[out.length - 1] - bottom : 0;
  if (over > 0) for (let k = 0; k < out.length; k++) out[k] -= over;
  for (let k = out.length - 2; k >= 0; k--) out[k] = Math.min(out[k], out[k + 1] - gap);
  const result = new Array<number>(ys.length);
  order.forEach((o, k) => (result[o.i] = out[k]));
  return result;
}
