import { z } from 'zod';
import { DEFAULT_PHASES, VOLTS_PER_PHASE } from './charging-profile.js';

/**
 * Limits an outside system put on a charger (OCPP 2.0.1 NotifyChargingLimit, K12): the site's
 * energy manager (EMS), the grid's system operator (SO), the charging station operator (CSO) or
 * another. The charger reports them; the server shows them and plans within them.
 */
export const chargingLimitSources = ['EMS', 'SO', 'CSO', 'Other'] as const;
export type ChargingLimitSource = (typeof chargingLimitSources)[number];

/** A schedule reported with a limit (2.0.1 ChargingScheduleType): the fields the server reads. */
export interface ExternalSchedule {
  startSchedule?: string;
  /** Seconds; without it the last period lasts. */
  duration?: number;
  chargingRateUnit: 'W' | 'A';
  chargingSchedulePeriod: { startPeriod: number; limit: number; numberPhases?: number }[];
}

/** An external limit on a connector as monitoring shows it: `limitW` null when the charger sent no schedule in force now. */
export const externalLimitState = z.object({
  source: z.enum(chargingLimitSources),
  gridCritical: z.boolean(),
  limitW: z.number().nullable(),
  reportedAt: z.string(),
});
export type ExternalLimitState = z.infer<typeof externalLimitState>;

/**
 * The power (W, whole) the reported schedules allow at `now`: the lowest of the schedules in force
 * (a schedule without `startSchedule` starts when it was reported; amperes are per phase, at
 * 230 V on the period's phases, three when it names none). Null when none is in force.
 */
export function externalLimitW(schedules: readonly ExternalSchedule[] | null | undefined, reportedAt: Date, now: Date): number | null {
  let lowest: number | null = null;
  for (const s of schedules ?? []) {
    const start = s.startSchedule ? Date.parse(s.startSchedule) : reportedAt.getTime();
    const offset = (now.getTime() - start) / 1000;
    if (!(offset >= 0) || (s.duration !== undefined && offset >= s.duration)) continue;
    let period: ExternalSchedule['chargingSchedulePeriod'][number] | undefined;
    for (const p of s.chargingSchedulePeriod) if (p.startPeriod <= offset && (!period || p.startPeriod >= period.startPeriod)) period = p;
    if (!period) continue;
    const w = s.chargingRateUnit === 'W' ? period.limit : period.limit * VOLTS_PER_PHASE * (period.numberPhases ?? DEFAULT_PHASES);
    lowest = lowest === null ? w : Math.min(lowest, w);
  }
  return lowest === null ? null : Math.max(0, Math.round(lowest));
}
