import { dayBounds, type DayZoneDto } from '@csms/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { chargePoint, station } from '../db/schema.js';
import type { Principal } from '../http/context.js';
import { providerScope, stationScope } from './scope.js';

/** What names one station in a record list's filters. */
export interface StationFilter {
  stationId?: number | undefined;
  pointId?: number | undefined;
  /** Only a whole serial number names a station; part of one searches several. */
  serialNumber?: string | undefined;
}

/**
 * The zone whose days a record list's time filter takes: the station's where the list is of one
 * station (a station, point or whole serial number chosen, or a user bound to one station), else
 * the default `CSMS_TIME_ZONE`. A station outside the caller's scope gives `null`.
 */
export function createDayZone({ db, defaultZone }: { db: Db; defaultZone: string }) {
  const visible = (p: Principal) => and(providerScope(p, station.providerId), stationScope(p, station.id));
  const head = { timeZone: station.timeZone, stationId: station.id, stationName: station.name };

  async function zoneOf(p: Principal, f: StationFilter): Promise<DayZoneDto | null> {
    if (f.stationId !== undefined) {
      const [s] = await db
        .select(head)
        .from(station)
        .where(and(visible(p), eq(station.id, f.stationId)))
        .limit(1);
      return s ?? null;
    }
    if (f.pointId !== undefined || f.serialNumber) {
      const which =
        f.pointId !== undefined ? eq(chargePoint.id, f.pointId) : sql`lower(${chargePoint.serialNumber}) = lower(${f.serialNumber})`;
      const [s] = await db
        .select(head)
        .from(chargePoint)
        .innerJoin(station, eq(station.id, chargePoint.stationId))
        .where(and(visible(p), which))
        .limit(1);
      if (s) return s;
      if (f.pointId !== undefined) return null;
    }
    if (p.stationIds?.length === 1) {
      const [s] = await db.select(head).from(station).where(eq(station.id, p.stationIds[0]!)).limit(1);
      if (s) return s;
    }
    return { timeZone: defaultZone, stationId: null, stationName: null };
  }

  return {
    zoneOf,
    /** A list's filter with its days turned into instants of its zone (instants pass unchanged). */
    async bound<F extends StationFilter & { startTime?: string | Date | undefined; endTime?: string | Date | undefined }>(
      p: Principal,
      f: F,
    ): Promise<Omit<F, 'startTime' | 'endTime'> & { startTime?: Date; endTime?: Date }> {
      const { startTime, endTime, ...rest } = f;
      if (startTime === undefined && endTime === undefined) return rest;
      const days = typeof startTime === 'string' || typeof endTime === 'string';
      const zone = days ? ((await zoneOf(p, f))?.timeZone ?? defaultZone) : defaultZone;
      return { ...rest, ...dayBounds({ startTime, endTime }, zone) };
    },
  };
}

export type DayZone = ReturnType<typeof createDayZone>;
