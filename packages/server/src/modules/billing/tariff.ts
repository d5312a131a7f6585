/**
 * Time-of-use billing of one charging session (DESIGN.md §3, §9). Pure: no database, no clock.
 *
 * - The day is 48 half-hour slots in the station's IANA time zone, following the local clock
 *   (a daylight-saving day has 46 or 50 half hours; each is billed at its local slot's tier).
 * - Energy between two meter samples is spread evenly over the time between them, so a sample
 *   pair that straddles a slot boundary or a price version change is split linearly in time.
 * - Energy per line is in whole Wh; fractions are apportioned by largest remainder so the lines
 *   sum exactly to the session's energy.
 * - Money: one line per price version × tier × fee kind, `energyWh × unitPrice` rounded half-up
 *   to the cent once; the total is the sum of the lines.
 */

export const TIERS = ['sharp', 'peak', 'flat', 'valley'] as const;
export type Tier = (typeof TIERS)[number];
export const SLOTS_PER_DAY = 48;

export interface PriceVersion {
  id: number;
  effectiveFrom: Date;
  /** Unit prices per kWh in 1/10,000 of the currency unit. */
  elec: Record<Tier, number>;
  service: Record<Tier, number>;
  /** 48 tier names from local 00:00. */
  slots: readonly Tier[];
}

export interface MeterSample {
  at: Date;
  /** Energy register in Wh. */
  wh: number;
}

export interface BillLine {
  priceId: number;
  tier: Tier;
  kind: 'elec' | 'service';
  energyWh: number;
  unitPrice: number;
  amountCents: number;
}

export interface Bill {
  energyWh: number;
  lines: BillLine[];
  elecFeeCents: number;
  serviceFeeCents: number;
  totalCents: number;
}

export class TariffError extends Error {
  constructor(readonly reason: 'noPrice' | 'badSamples') {
    super(reason);
  }
}

const QUARTER_MS = 15 * 60_000;

/** Local minute of the day for an instant in a zone (cached formatter per zone). */
const formatters = new Map<string, Intl.DateTimeFormat>();
function localMinuteOfDay(at: Date, timeZone: string): number {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    formatters.set(timeZone, f);
  }
  let hour = 0;
  let minute = 0;
  for (const part of f.formatToParts(at)) {
    if (part.type === 'hour') hour = Number(part.value);
    else if (part.type === 'minute') minute = Number(part.value);
  }
  return hour * 60 + minute;
}

/** Index 0–47 of the local half hour an instant falls in. */
export function slotIndex(at: Date, timeZone: string): number {
  return Math.floor(localMinuteOfDay(at, timeZone) / 30);
}

/**
 * Instants in (from, to) where the local clock passes a half hour. Every zone's offset is a whole
 * number of quarter hours, so local half hours start on UTC quarter hours: test those.
 */
export function slotBoundaries(from: Date, to: Date, timeZone: string): Date[] {
  const out: Date[] = [];
  let t = Math.floor(from.getTime() / QUARTER_MS) * QUARTER_MS + QUARTER_MS;
  let prev = slotIndex(new Date(t - QUARTER_MS), timeZone);
  for (; t < to.getTime(); t += QUARTER_MS) {
    const at = new Date(t);
    const idx = slotIndex(at, timeZone);
    if (localMinuteOfDay(at, timeZone) % 30 === 0 || idx !== prev) out.push(at);
    prev = idx;
  }
  return out.filter((d) => d.getTime() > from.getTime());
}

/** The version in force at an instant: the newest whose `effectiveFrom` is not after it. */
function versionAt(versions: readonly PriceVersion[], at: number): PriceVersion | undefined {
  let found: PriceVersion | undefined;
  for (const v of versions) if (v.effectiveFrom.getTime() <= at && (!found || v.effectiveFrom > found.effectiveFrom)) found = v;
  return found;
}

/** Half-up rounding of a non-negative amount given in 1/10,000-currency × Wh / 1000 units, to cents. */
function lineCents(energyWh: number, unitPrice: number): number {
  // energyWh × unitPrice is in 1/10,000 currency × Wh / kWh = 1/10,000,000 currency; a cent is 100,000 of those.
  const tenMillionths = energyWh * unitPrice;
  return Math.floor((tenMillionths + 50_000) / 100_000);
}

/**
 * Splits a session's energy over price versions and tiers and prices it.
 * `samples` must include the start (meterStart at start time) and the stop; they are sorted
 * by time here. Registers that go backwards contribute nothing (the record's sanity check flags
 * such sessions; this never produces negative energy).
 */
export function computeBill(input: { samples: readonly MeterSample[]; versions: readonly PriceVersion[]; timeZone: string }): Bill {
  const samples = [...input.samples].sort((a, b) => a.at.getTime() - b.at.getTime());
  if (samples.length < 2) throw new TariffError('badSamples');
  const versions = input.versions;
  const changes = versions.map((v) => v.effectiveFrom.getTime());

  // Fractional energy per (version, tier).
  const acc = new Map<string, { version: PriceVersion; tier: Tier; wh: number }>();
  const add = (at: number, wh: number) => {
    if (wh <= 0) return;
    const version = versionAt(versions, at);
    if (!version) throw new TariffError('noPrice');
    const tier = version.slots[slotIndex(new Date(at), input.timeZone)];
    if (!tier) throw new TariffError('noPrice');
    const key = `${version.id}:${tier}`;
    const entry = acc.get(key);
    if (entry) entry.wh += wh;
    else acc.set(key, { version, tier, wh });
  };

  let total = 0;
  for (let i = 1; i < samples.length; i++) {
    const a = samples[i - 1]!;
    const b = samples[i]!;
    const delta = b.wh - a.wh;
    if (delta <= 0) continue;
    total += delta;
    const t0 = a.at.getTime();
    const t1 = b.at.getTime();
    if (t1 <= t0) {
      add(t0, delta);
      continue;
    }
    const cuts = [
      t0,
      ...slotBoundaries(a.at, b.at, input.timeZone).map((d) => d.getTime()),
      ...changes.filter((c) => c > t0 && c < t1),
      t1,
    ].sort((x, y) => x - y);
    for (let k = 1; k < cuts.length; k++) {
      const from = cuts[k - 1]!;
      const to = cuts[k]!;
      if (to > from) add(from, (delta * (to - from)) / (t1 - t0));
    }
  }

  // Whole Wh per line by largest remainder, summing exactly to the session's energy.
  const entries = [...acc.values()];
  const floors = entries.map((e) => Math.floor(e.wh));
  let missing = Math.round(total) - floors.reduce((s, x) => s + x, 0);
  const order = entries.map((e, i) => ({ i, rem: e.wh - floors[i]! })).sort((x, y) => y.rem - x.rem || x.i - y.i);
  for (const { i } of order) {
    if (missing <= 0) break;
    floors[i]! += 1;
    missing -= 1;
  }

  const lines: BillLine[] = [];
  entries.forEach((e, i) => {
    const energyWh = floors[i]!;
    if (energyWh === 0) return;
    for (const kind of ['elec', 'service'] as const) {
      const unitPrice = e.version[kind][e.tier];
      lines.push({ priceId: e.version.id, tier: e.tier, kind, energyWh, unitPrice, amountCents: lineCents(energyWh, unitPrice) });
    }
  });
  lines.sort((x, y) => x.priceId - y.priceId || TIERS.indexOf(x.tier) - TIERS.indexOf(y.tier) || x.kind.localeCompare(y.kind));
  const sum = (kind: 'elec' | 'service') => lines.filter((l) => l.kind === kind).reduce((s, l) => s + l.amountCents, 0);
  const elecFeeCents = sum('elec');
  const serviceFeeCents = sum('service');
  return { energyWh: Math.round(total), lines, elecFeeCents, serviceFeeCents, totalCents: elecFeeCents + serviceFeeCents };
}
