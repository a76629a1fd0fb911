// Commit times as git prints them (seconds since the epoch), as the answers name them: ISO UTC.

/** Each day's "YYYY-MM-DD" once: a history's thousands of commits fall on a few hundred days. */
const dayNames = new Map<number, string>();
const two = (n: number) => (n < 10 ? `0${n}` : `${n}`);

/** A commit time (seconds since the epoch) as ISO UTC without fractions. */
export function isoOfSeconds(seconds: number): string {
  if (!Number.isSafeInteger(seconds)) return new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
  const day = Math.floor(seconds / 86_400);
  const t = seconds - day * 86_400;
  return `${dayName(day)}T${two(Math.floor(t / 3600))}:${two(Math.floor(t / 60) % 60)}:${two(t % 60)}Z`;
}

/** Day `day` since the epoch as "YYYY-MM-DD", made once. */
export function dayName(day: number): string {
  let name = dayNames.get(day);
  if (name === undefined) {
    name = new Date(day * 86_400_000).toISOString().slice(0, 10);
    if (dayNames.size < 100_000) dayNames.set(day, name);
  }
  return name;
}
