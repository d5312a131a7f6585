import { describe, expect, it } from 'vitest';
import { computeBill, slotBoundaries, slotIndex, TariffError, type PriceVersion, type Tier } from './tariff.js';

const day = (tier: Tier): Tier[] => Array.from({ length: 48 }, () => tier);

/** Valley before 08:00, peak 08:00–12:00, flat afterwards. */
function version(id: number, effectiveFrom: string, scale = 1): PriceVersion {
  const slots = day('flat');
  for (let i = 0; i < 16; i++) slots[i] = 'valley';
  for (let i = 16; i < 24; i++) slots[i] = 'peak';
  return {
    id,
    effectiveFrom: new Date(effectiveFrom),
    elec: { sharp: 15000 * scale, peak: 12345 * scale, flat: 8000 * scale, valley: 3333 * scale },
    service: { sharp: 5000 * scale, peak: 4000 * scale, flat: 3000 * scale, valley: 1000 * scale },
    slots,
  };
}

const at = (iso: string) => new Date(iso);

describe('slots in the station time zone', () => {
  it('maps local half hours, following the local clock', () => {
    expect(slotIndex(at('2026-03-01T00:00:00Z'), 'Asia/Shanghai')).toBe(16); // 08:00 local
    expect(slotIndex(at('2026-03-01T00:29:59Z'), 'Asia/Shanghai')).toBe(16);
    expect(slotIndex(at('2026-03-01T00:30:00Z'), 'Asia/Shanghai')).toBe(17);
    // Kathmandu is UTC+5:45: local half hours start at UTC :15 and :45.
    expect(slotIndex(at('2026-03-01T02:15:00Z'), 'Asia/Kathmandu')).toBe(16);
    expect(slotBoundaries(at('2026-03-01T02:00:00Z'), at('2026-03-01T03:00:00Z'), 'Asia/Kathmandu').map((d) => d.toISOString())).toEqual([
      '2026-03-01T02:15:00.000Z',
      '2026-03-01T02:45:00.000Z',
    ]);
  });

  it('has 46 half hours on a spring-forward day and 50 on a fall-back day', () => {
    // New York: 2026-03-08 02:00 → 03:00; 2026-11-01 02:00 → 01:00.
    const count = (from: string, to: string) => slotBoundaries(at(from), at(to), 'America/New_York').length + 1;
    expect(count('2026-03-08T05:00:00Z', '2026-03-09T04:00:00Z')).toBe(46);
    expect(count('2026-11-01T04:00:00Z', '2026-11-02T05:00:00Z')).toBe(50);
  });
});

describe('computeBill', () => {
  it('bills a session across the valley→peak boundary as a hand calculation does', () => {
    // Shanghai (UTC+8). 07:30–08:30 local at a constant 7 kW: 3.5 kWh valley, 3.5 kWh peak.
    const bill = computeBill({
      timeZone: 'Asia/Shanghai',
      versions: [version(1, '2026-01-01T00:00:00Z')],
      samples: [
        { at: at('2026-03-01T23:30:00Z'), wh: 1_000 },
        { at: at('2026-03-02T00:30:00Z'), wh: 8_000 },
      ],
    });
    expect(bill.energyWh).toBe(7000);
    expect(bill.lines).toEqual([
      // 3.5 kWh × 1.2345 = 4.32075 → 4.32; × 0.4 = 1.40
      { priceId: 1, tier: 'peak', kind: 'elec', energyWh: 3500, unitPrice: 12345, amountCents: 432 },
      { priceId: 1, tier: 'peak', kind: 'service', energyWh: 3500, unitPrice: 4000, amountCents: 140 },
      // 3.5 kWh × 0.3333 = 1.16655 → 1.17 (half-up once per line); × 0.1 = 0.35
      { priceId: 1, tier: 'valley', kind: 'elec', energyWh: 3500, unitPrice: 3333, amountCents: 117 },
      { priceId: 1, tier: 'valley', kind: 'service', energyWh: 3500, unitPrice: 1000, amountCents: 35 },
    ]);
    expect(bill).toMatchObject({ elecFeeCents: 549, serviceFeeCents: 175, totalCents: 724 });
  });

  it('splits a sample pair linearly over the boundary it straddles', () => {
    // One sample pair 07:50–08:10 local, 2 kWh: 1 kWh valley, 1 kWh peak.
    const bill = computeBill({
      timeZone: 'Asia/Shanghai',
      versions: [version(1, '2026-01-01T00:00:00Z')],
      samples: [
        { at: at('2026-03-01T23:50:00Z'), wh: 0 },
        { at: at('2026-03-02T00:10:00Z'), wh: 2000 },
      ],
    });
    expect(bill.lines.filter((l) => l.kind === 'elec').map((l) => [l.tier, l.energyWh])).toEqual([
      ['peak', 1000],
      ['valley', 1000],
    ]);
  });

  it('bills a session crossing a price version change per part', () => {
    const bill = computeBill({
      timeZone: 'Asia/Shanghai',
      versions: [version(1, '2026-01-01T00:00:00Z'), version(2, '2026-03-02T06:00:00Z', 2)],
      samples: [
        { at: at('2026-03-02T05:00:00Z'), wh: 0 }, // 13:00 local, flat
        { at: at('2026-03-02T07:00:00Z'), wh: 10_000 },
      ],
    });
    expect(bill.lines.map((l) => [l.priceId, l.tier, l.kind, l.energyWh, l.amountCents])).toEqual([
      [1, 'flat', 'elec', 5000, 400],
      [1, 'flat', 'service', 5000, 150],
      [2, 'flat', 'elec', 5000, 800],
      [2, 'flat', 'service', 5000, 300],
    ]);
    expect(bill.totalCents).toBe(1650);
  });

  it('refuses a session that started before any price', () => {
    expect(() =>
      computeBill({
        timeZone: 'UTC',
        versions: [version(1, '2026-06-01T00:00:00Z')],
        samples: [
          { at: at('2026-05-01T00:00:00Z'), wh: 0 },
          { at: at('2026-05-01T01:00:00Z'), wh: 100 },
        ],
      }),
    ).toThrow(TariffError);
  });

  it('never yields negative energy from a register that goes backwards', () => {
    const bill = computeBill({
      timeZone: 'UTC',
      versions: [version(1, '2026-01-01T00:00:00Z')],
      samples: [
        { at: at('2026-05-01T00:00:00Z'), wh: 5000 },
        { at: at('2026-05-01T00:30:00Z'), wh: 6000 },
        { at: at('2026-05-01T01:00:00Z'), wh: 10 },
        { at: at('2026-05-01T01:30:00Z'), wh: 510 },
      ],
    });
    expect(bill.energyWh).toBe(1500);
    expect(bill.lines.every((l) => l.energyWh > 0 && l.amountCents >= 0)).toBe(true);
  });
});

/** Small seeded generator (mulberry32), so a failure reproduces. */
function rng(seed: number) {
  let a = seed;
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('property: energy over slots sums to the session, money over lines to the total', () => {
  const zones = ['Asia/Shanghai', 'America/New_York', 'Europe/Berlin', 'Asia/Kathmandu', 'UTC', 'Australia/Lord_Howe'];
  it('holds for 300 random sessions', () => {
    const random = rng(20261122);
    for (let run = 0; run < 300; run++) {
      const timeZone = zones[Math.floor(random() * zones.length)]!;
      const start = Date.UTC(
        2026,
        Math.floor(random() * 12),
        1 + Math.floor(random() * 28),
        Math.floor(random() * 24),
        Math.floor(random() * 60),
      );
      const randomTiers = () => Array.from({ length: 48 }, () => (['sharp', 'peak', 'flat', 'valley'] as const)[Math.floor(random() * 4)]!);
      const unit = () => Math.floor(random() * 30000);
      const versions: PriceVersion[] = [0, 1, 2].map((i) => ({
        id: i + 1,
        effectiveFrom: new Date(start - 86_400_000 + i * random() * 2 * 86_400_000),
        elec: { sharp: unit(), peak: unit(), flat: unit(), valley: unit() },
        service: { sharp: unit(), peak: unit(), flat: unit(), valley: unit() },
        slots: randomTiers(),
      }));
      versions[0]!.effectiveFrom = new Date(start - 86_400_000);
      const samples = [{ at: new Date(start), wh: Math.floor(random() * 1e6) }];
      const n = 1 + Math.floor(random() * 40);
      for (let i = 0; i < n; i++) {
        const prev = samples[samples.length - 1]!;
        samples.push({
          at: new Date(prev.at.getTime() + Math.floor(random() * 3 * 3_600_000)),
          wh: prev.wh + Math.floor(random() * 20_000),
        });
      }
      const bill = computeBill({ samples, versions, timeZone });
      const energy = samples[samples.length - 1]!.wh - samples[0]!.wh;
      expect(bill.energyWh).toBe(energy);
      for (const kind of ['elec', 'service'] as const) {
        expect(bill.lines.filter((l) => l.kind === kind).reduce((s, l) => s + l.energyWh, 0)).toBe(energy);
      }
      expect(bill.lines.reduce((s, l) => s + l.amountCents, 0)).toBe(bill.totalCents);
      expect(bill.elecFeeCents + bill.serviceFeeCents).toBe(bill.totalCents);
      for (const l of bill.lines) {
        expect(Number.isInteger(l.energyWh) && l.energyWh > 0).toBe(true);
        // Each line is its own energy × price, rounded half-up once.
        expect(l.amountCents).toBe(Math.floor((l.energyWh * l.unitPrice) / 100_000 + 0.5));
      }
    }
  });
});
