const formatters = new Map<string, Intl.DateTimeFormat>();

function parts(at: number, timeZone: string): Record<string, number> {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  const out: Record<string, number> = {};
  for (const p of f.formatToParts(at)) if (p.type !== 'literal') out[p.type] = Number(p.value);
  return out;
}

/** Offset of `timeZone` from UTC at instant `at`, in ms (local wall time − UTC). */
function offsetMs(at: number, timeZone: string): number {
  const p = parts(at, timeZone);
  const wall = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
  return wall - Math.floor(at / 1000) * 1000;
}

/** The instant the calendar month containing `now` began in `timeZone` (IANA), e.g. for monthly group limits. */
export function startOfMonth(now: Date, timeZone: string): Date {
  const p = parts(now.getTime(), timeZone);
  const wallStart = Date.UTC(p.year!, p.month! - 1, 1);
  // Local midnight of the 1st: subtract the offset in force then (re-checked once for DST).
  let t = wallStart - offsetMs(wallStart, timeZone);
  t = wallStart - offsetMs(t, timeZone);
  return new Date(t);
}
