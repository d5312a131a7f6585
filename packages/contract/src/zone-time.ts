/**
 * IANA time zones this runtime knows (`Intl.supportedValuesOf`), plus UTC. Runtimes disagree on
 * canonical names (Asia/Kolkata vs Asia/Calcutta), so a name is valid when it or the runtime's
 * canonical form of it is in the list.
 */
export function timeZones(): string[] {
  return ['UTC', ...Intl.supportedValuesOf('timeZone').filter((z) => z !== 'UTC')];
}

export function isTimeZone(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(name)) return false;
  let canonical: string;
  try {
    canonical = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return false;
  }
  const known = Intl.supportedValuesOf('timeZone');
  return canonical === 'UTC' || known.includes(name) || known.includes(canonical);
}

/**
 * Instants shown and picked on a station's wall clock (its IANA zone), whatever the browser's
 * zone: `2026-03-01 08:00:00` in Asia/Shanghai is `2026-03-01T00:00:00Z`.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function partsIn(at: Date, zone: string) {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(zone, f);
  }
  const p = Object.fromEntries(f.formatToParts(at).map((x) => [x.type, x.value]));
  return { y: +p.year!, mo: +p.month!, d: +p.day!, h: +p.hour!, mi: +p.minute!, s: +p.second! };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `YYYY-MM-DD HH:mm:ss` of an instant on the zone's wall clock. */
export function wallClock(at: Date | string, zone: string): string {
  const p = partsIn(new Date(at), zone);
  return `${p.y}-${pad(p.mo)}-${pad(p.d)} ${pad(p.h)}:${pad(p.mi)}:${pad(p.s)}`;
}

/** How far the zone's wall clock is ahead of UTC at an instant, in ms. */
function offsetAt(ms: number, zone: string): number {
  const p = partsIn(new Date(ms), zone);
  return Date.UTC(p.y, p.mo - 1, p.d, p.h, p.mi, p.s) - Math.floor(ms / 1000) * 1000;
}

/**
 * The instant a wall-clock time (`YYYY-MM-DD HH:mm[:ss]`) names in a zone. A time skipped by a
 * daylight-saving jump resolves to the instant after the jump; a repeated one to its first occurrence.
 */
export function instantOf(wall: string, zone: string): Date | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(wall.trim());
  if (!m) return undefined;
  const asUtc = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +(m[6] ?? 0));
  let guess = asUtc - offsetAt(asUtc, zone);
  const second = asUtc - offsetAt(guess, zone);
  if (second !== guess) guess = Math.max(second, guess);
  // Repeated hour: prefer the earlier instant when it shows the same wall clock.
  const earlier = guess - 3600_000;
  if (earlier + offsetAt(earlier, zone) === asUtc) guess = earlier;
  return new Date(guess);
}

/** Midnight starting the day and the month that hold an instant, on the zone's wall clock. */
export function dayAndMonthStart(now: Date, zone: string): { day: Date; month: Date } {
  const p = partsIn(now, zone);
  const month = `${p.y}-${pad(p.mo)}`;
  return { day: instantOf(`${month}-${pad(p.d)} 00:00`, zone)!, month: instantOf(`${month}-01 00:00`, zone)! };
}

/** `wallClock` of an instant that may be missing (a session not yet ended): empty then. */
export const wallClockOrEmpty = (at: string | null | undefined, zone: string): string => (at ? wallClock(at, zone) : '');

/** A day `YYYY-MM-DD` of a time filter: bounded on the wall clock of the list's zone by the server. */
export const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The instants of a day filter in a zone: the start of the first day and the last millisecond of
 * the last (both inclusive, as the lists compare). Instants given as such pass unchanged.
 */
export function dayBounds(
  f: { startTime?: string | Date | undefined; endTime?: string | Date | undefined },
  zone: string,
): { startTime?: Date; endTime?: Date } {
  const startOf = (day: string) => instantOf(`${day} 00:00`, zone)!;
  const nextDay = (day: string) => {
    const d = new Date(`${day}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() + 1);
    return d.toISOString().slice(0, 10);
  };
  const out: { startTime?: Date; endTime?: Date } = {};
  if (f.startTime !== undefined) out.startTime = typeof f.startTime === 'string' ? startOf(f.startTime) : f.startTime;
  if (f.endTime !== undefined)
    out.endTime = typeof f.endTime === 'string' ? new Date(startOf(nextDay(f.endTime)).getTime() - 1) : f.endTime;
  return out;
}
