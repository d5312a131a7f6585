import type { ChargingProfile, ChargingProfilePurpose } from '../smart-charging.js';

/** Charging profiles for the tests, written as compactly as the cases they make. */

export const T0 = Date.UTC(2026, 0, 1); // a Thursday, 00:00 UTC
export const H = 3_600_000;
export const iso = (ms: number) => new Date(ms).toISOString();

export interface ProfileOptions {
  kind?: ChargingProfile['chargingProfileKind'];
  unit?: 'A' | 'W';
  start?: number;
  duration?: number;
  recurrencyKind?: 'Daily' | 'Weekly';
  validFrom?: number;
  validTo?: number;
  transactionId?: number;
}

/** A profile from [startPeriod, limit, numberPhases?] triples; Absolute from `start` unless told otherwise. */
export function profile(
  chargingProfileId: number,
  purpose: ChargingProfilePurpose,
  stackLevel: number,
  periods: [number, number, number?][],
  o: ProfileOptions = {},
): ChargingProfile {
  const kind = o.kind ?? 'Absolute';
  return {
    chargingProfileId,
    stackLevel,
    chargingProfilePurpose: purpose,
    chargingProfileKind: kind,
    ...(o.transactionId !== undefined ? { transactionId: o.transactionId } : {}),
    ...(o.recurrencyKind ? { recurrencyKind: o.recurrencyKind } : {}),
    ...(o.validFrom !== undefined ? { validFrom: iso(o.validFrom) } : {}),
    ...(o.validTo !== undefined ? { validTo: iso(o.validTo) } : {}),
    chargingSchedule: {
      chargingRateUnit: o.unit ?? 'W',
      ...(o.duration !== undefined ? { duration: o.duration } : {}),
      ...(kind !== 'Relative' ? { startSchedule: iso(o.start ?? T0) } : {}),
      chargingSchedulePeriod: periods.map(([startPeriod, limit, numberPhases]) => ({
        startPeriod,
        limit,
        ...(numberPhases !== undefined ? { numberPhases } : {}),
      })),
    },
  };
}
