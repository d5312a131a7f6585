import type { ChargingProfileDto, ProfileInForce, ProfileTargetStatus, RemoteStartProfileOption } from '@csms/contract';
import { and, asc, desc, eq, gt, inArray, isNull, ne, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  chargePoint,
  chargingProfile,
  chargingProfileTarget,
  chargingTransaction,
  connector,
  provider,
  station,
  systemUser,
} from '../../db/schema.js';
import type { Principal } from '../../http/context.js';
import { pageTotal } from '../../lib/bounded-count.js';
import { coalescing } from '../../lib/coalesce.js';
import { prebuilt } from '../../db/prebuilt.js';
import { contains, lowerLike } from '../../lib/text-search.js';
import { stationScope } from '../monitor/scope.js';

export type ProfileRow = typeof chargingProfile.$inferSelect;
export type ProfileValues = Omit<typeof chargingProfile.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>;

export interface ProfileFilter {
  stationId?: number | undefined;
  purpose?: ProfileRow['purpose'] | undefined;
  serialNumber?: string | undefined;
  providerId?: number | undefined;
}

/** A point a profile may name: its rating and connectors, for the per-point checks. */
export interface TargetPoint {
  id: number;
  serialNumber: string;
  name: string;
  stationId: number;
  providerId: number;
  ratedPowerW: number;
  connectorNos: number[];
}

/** Statuses under which a charger holds the profile (what `inForce` lists and a boot re-sends). */
export const HELD: ProfileTargetStatus[] = ['accepted', 'scheduled', 'rebootRequired'];

/** At most this many profiles offered to a remote start. */
const OPTION_LIMIT = 50;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * A target whose point is still at the profile's station (and so of its provider). A point moved away
 * since is no longer the profile's to command: not sent from the console, not re-sent at its boot.
 */
const stillThere = and(eq(chargePoint.stationId, chargingProfile.stationId), eq(chargePoint.providerId, chargingProfile.providerId));

/** Charging profiles and their targets, scoped to the caller's providers and bound stations. */
export function createChargingProfileRepo({ db }: { db: Db }) {
  /** Built once (`prebuilt`): drizzle built this wide select at every batch of booting chargers. */
  const heldQuery = prebuilt(db, (d) =>
    d
      .select({ profile: chargingProfile, connectorNo: chargingProfileTarget.connectorNo, pointId: chargingProfileTarget.chargePointId })
      .from(chargingProfileTarget)
      .innerJoin(chargingProfile, eq(chargingProfile.id, chargingProfileTarget.profileId))
      .innerJoin(chargePoint, eq(chargePoint.id, chargingProfileTarget.chargePointId))
      .where(
        and(
          sql`${chargingProfileTarget.chargePointId} = any(${sql.placeholder('pointIds')}::int[])`,
          stillThere,
          inArray(chargingProfileTarget.status, HELD),
          notInArray(chargingProfile.purpose, ['TxProfile']),
          or(isNull(chargingProfile.validTo), gt(chargingProfile.validTo, sql.placeholder('earliest'))),
        ),
      )
      .orderBy(asc(chargingProfile.id), asc(chargingProfileTarget.connectorNo)),
  );
  const heldAfterBoot = coalescing(
    async (asked: readonly { pointId: number; now: Date }[]) => {
      const earliest = asked.reduce((min, a) => (a.now < min ? a.now : min), asked[0]!.now);
      const rows = await heldQuery(db, { pointIds: [...new Set(asked.map((a) => a.pointId))], earliest });
      return new Map(
        asked.map((a) => [
          a,
          rows
            .filter((r) => r.pointId === a.pointId && (r.profile.validTo === null || r.profile.validTo > a.now))
            .map(({ profile, connectorNo }) => ({ profile, connectorNo })),
        ]),
      );
    },
    { missing: [] },
  );
  const where = (p: Principal, ...more: (SQL | undefined)[]) =>
    and(stationScope(p, chargingProfile.providerId, chargingProfile.stationId), ...more);
  const filterSql = (f: ProfileFilter) =>
    and(
      f.stationId ? eq(chargingProfile.stationId, f.stationId) : undefined,
      f.purpose ? eq(chargingProfile.purpose, f.purpose) : undefined,
      f.providerId ? eq(chargingProfile.providerId, f.providerId) : undefined,
      f.serialNumber
        ? sql`exists (select 1 from ${chargingProfileTarget} t join ${chargePoint} cp on cp.id = t.charge_point_id
            where t.profile_id = charging_profile.id and ${lowerLike(sql`cp.serial_number`, contains(f.serialNumber))})`
        : undefined,
    );
  const head = () =>
    db
      .select({ profile: chargingProfile, providerName: provider.name, stationName: station.name, createdByName: systemUser.username })
      .from(chargingProfile)
      .innerJoin(provider, eq(provider.id, chargingProfile.providerId))
      .innerJoin(station, eq(station.id, chargingProfile.stationId))
      .leftJoin(systemUser, eq(systemUser.id, chargingProfile.createdBy));

  /** The rows as the console sees them, with their targets (one query for the page). */
  async function dtos(rows: Awaited<ReturnType<ReturnType<typeof head>['where']>>): Promise<ChargingProfileDto[]> {
    if (rows.length === 0) return [];
    const targets = await db
      .select({
        profileId: chargingProfileTarget.profileId,
        serialNumber: chargePoint.serialNumber,
        pointName: chargePoint.name,
        connectorNo: chargingProfileTarget.connectorNo,
        status: chargingProfileTarget.status,
        chargerStatus: chargingProfileTarget.chargerStatus,
        transactionId: chargingProfileTarget.transactionId,
        sentAt: chargingProfileTarget.sentAt,
      })
      .from(chargingProfileTarget)
      .innerJoin(chargePoint, eq(chargePoint.id, chargingProfileTarget.chargePointId))
      .where(
        inArray(
          chargingProfileTarget.profileId,
          rows.map((r) => r.profile.id),
        ),
      )
      .orderBy(asc(chargePoint.serialNumber), asc(chargingProfileTarget.connectorNo));
    return rows.map(({ profile: r, providerName, stationName, createdByName }) => {
      const mine = targets.filter((t) => t.profileId === r.id);
      return {
        id: r.id,
        providerId: r.providerId,
        providerName,
        stationId: r.stationId,
        stationName,
        purpose: r.purpose,
        stackLevel: r.stackLevel,
        validFrom: iso(r.validFrom),
        validTo: iso(r.validTo),
        chargingProfileKind: r.kind,
        recurrencyKind: r.recurrencyKind,
        chargingRateUnit: r.rateUnit,
        startSchedule: iso(r.startSchedule),
        duration: r.durationSec,
        minChargingRate: r.minChargingRate,
        periods: r.periods,
        serialNumbers: [...new Set(mine.map((t) => t.serialNumber))],
        connectors: [...new Set(mine.map((t) => t.connectorNo))].sort((a, b) => a - b),
        targets: mine.map((t) => ({
          serialNumber: t.serialNumber,
          pointName: t.pointName,
          connectorNo: t.connectorNo,
          status: t.status,
          chargerStatus: t.chargerStatus,
          transactionId: t.transactionId,
          sentTime: iso(t.sentAt),
        })),
        acceptedCount: new Set(mine.filter((t) => HELD.includes(t.status)).map((t) => t.serialNumber)).size,
        createdByName,
        createTime: r.createdAt.toISOString(),
        updateTime: r.updatedAt.toISOString(),
      };
    });
  }

  return {
    async list(p: Principal, f: ProfileFilter, page: number, limit: number) {
      const cond = where(p, filterSql(f));
      const offset = (page - 1) * limit;
      const rows = await head().where(cond).orderBy(desc(chargingProfile.id)).limit(limit).offset(offset);
      const total = await pageTotal(
        db,
        { offset, size: limit, rows: rows.length },
        db.select({ id: chargingProfile.id }).from(chargingProfile).where(cond),
      );
      return { list: await dtos(rows), ...total };
    },
    async count(p: Principal, f: ProfileFilter) {
      const [r] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(chargingProfile)
        .where(where(p, filterSql(f)));
      return r?.n ?? 0;
    },
    /** Keyset pages for the export. */
    async page(p: Principal, f: ProfileFilter, afterId: number, size: number) {
      const rows = await head()
        .where(where(p, filterSql(f), gt(chargingProfile.id, afterId)))
        .orderBy(asc(chargingProfile.id))
        .limit(size);
      return dtos(rows);
    },
    async get(p: Principal, id: number): Promise<ChargingProfileDto | undefined> {
      const rows = await head()
        .where(where(p, eq(chargingProfile.id, id)))
        .limit(1);
      return (await dtos(rows))[0];
    },
    async visible(p: Principal, ids: number[]) {
      return db
        .select({ id: chargingProfile.id })
        .from(chargingProfile)
        .where(where(p, inArray(chargingProfile.id, ids)));
    },
    /** A station the caller may see. */
    async station(p: Principal, stationId: number) {
      const [row] = await db
        .select({ id: station.id, providerId: station.providerId })
        .from(station)
        .where(and(eq(station.id, stationId), stationScope(p, station.providerId, station.id)))
        .limit(1);
      return row;
    },
    /** The points among `serialNumbers` the caller may see, with their connectors. */
    async points(p: Principal, serialNumbers: string[]): Promise<TargetPoint[]> {
      if (serialNumbers.length === 0) return [];
      const rows = await db
        .select({
          id: chargePoint.id,
          serialNumber: chargePoint.serialNumber,
          name: chargePoint.name,
          stationId: chargePoint.stationId,
          providerId: chargePoint.providerId,
          ratedPowerW: chargePoint.ratedPowerW,
          connectorNos: sql<number[]>`coalesce((select array_agg(c.connector_no order by c.connector_no) from ${connector} c
            where c.charge_point_id = charge_point.id), '{}')`,
        })
        .from(chargePoint)
        .where(and(inArray(chargePoint.serialNumber, serialNumbers), stationScope(p, chargePoint.providerId, chargePoint.stationId)));
      return rows.map((r) => ({ ...r, connectorNos: (r.connectorNos ?? []).map(Number) }));
    },
    /** A point by serial number in the caller's scope. */
    async point(p: Principal, serialNumber: string) {
      return (await this.points(p, [serialNumber]))[0];
    },
    async insert(values: ProfileValues, targets: { chargePointId: number; connectorNo: number }[]) {
      return db.transaction(async (q) => {
        const [row] = await q.insert(chargingProfile).values(values).returning({ id: chargingProfile.id });
        await q.insert(chargingProfileTarget).values(targets.map((t) => ({ ...t, profileId: row!.id })));
        return row!.id;
      });
    },
    /** New values; every target back to not sent (the chargers hold the old version until it is sent again). */
    async update(id: number, values: ProfileValues, targets: { chargePointId: number; connectorNo: number }[]) {
      await db.transaction(async (q) => {
        await q
          .update(chargingProfile)
          .set({ ...values, updatedAt: new Date() })
          .where(eq(chargingProfile.id, id));
        await q.delete(chargingProfileTarget).where(eq(chargingProfileTarget.profileId, id));
        await q.insert(chargingProfileTarget).values(targets.map((t) => ({ ...t, profileId: id })));
      });
    },
    /** Of `ids`, how many targets chargers still hold, per profile. */
    async held(ids: number[]) {
      return db
        .select({ id: chargingProfileTarget.profileId, n: sql<number>`count(*)::int` })
        .from(chargingProfileTarget)
        .where(and(inArray(chargingProfileTarget.profileId, ids), inArray(chargingProfileTarget.status, HELD)))
        .groupBy(chargingProfileTarget.profileId);
    },
    async remove(ids: number[]) {
      const rows = await db.delete(chargingProfile).where(inArray(chargingProfile.id, ids)).returning({ id: chargingProfile.id });
      return rows.length;
    },
    async row(id: number): Promise<ProfileRow | undefined> {
      const [r] = await db.select().from(chargingProfile).where(eq(chargingProfile.id, id)).limit(1);
      return r;
    },
    /** A profile the caller may see (its provider's subtree and bound stations), as stored. */
    async visibleRow(p: Principal, id: number): Promise<ProfileRow | undefined> {
      const [r] = await db
        .select()
        .from(chargingProfile)
        .where(where(p, eq(chargingProfile.id, id)))
        .limit(1);
      return r;
    },
    /** The TxProfiles of a provider that the caller may see and that have not expired: what a remote start may carry, newest first. */
    async remoteStartOptions(p: Principal, providerId: number, now = new Date()): Promise<RemoteStartProfileOption[]> {
      const rows = await db
        .select({ r: chargingProfile, stationName: station.name })
        .from(chargingProfile)
        .innerJoin(station, eq(station.id, chargingProfile.stationId))
        .where(
          where(
            p,
            eq(chargingProfile.providerId, providerId),
            eq(chargingProfile.purpose, 'TxProfile'),
            or(isNull(chargingProfile.validTo), gt(chargingProfile.validTo, now)),
          ),
        )
        .orderBy(desc(chargingProfile.id))
        .limit(OPTION_LIMIT);
      return rows.map(({ r, stationName }) => ({
        id: r.id,
        stationName,
        stackLevel: r.stackLevel,
        chargingProfileKind: r.kind,
        chargingRateUnit: r.rateUnit,
        limit: r.periods[0]?.limit ?? 0,
      }));
    },
    /** The targets of a profile with the session running on each connector (for a TxProfile). */
    async targets(profileId: number, pointId?: number) {
      return db
        .select({
          chargePointId: chargingProfileTarget.chargePointId,
          serialNumber: chargePoint.serialNumber,
          connectorNo: chargingProfileTarget.connectorNo,
          status: chargingProfileTarget.status,
          runningTx: sql<
            number | null
          >`(select t.id from ${chargingTransaction} t where t.charge_point_id = charging_profile_target.charge_point_id
            and t.connector_no = charging_profile_target.connector_no and t.stopped_at is null order by t.started_at desc limit 1)`,
        })
        .from(chargingProfileTarget)
        .innerJoin(chargePoint, eq(chargePoint.id, chargingProfileTarget.chargePointId))
        .innerJoin(chargingProfile, eq(chargingProfile.id, chargingProfileTarget.profileId))
        .where(
          and(
            eq(chargingProfileTarget.profileId, profileId),
            stillThere,
            pointId ? eq(chargingProfileTarget.chargePointId, pointId) : undefined,
          ),
        )
        .orderBy(asc(chargePoint.serialNumber), asc(chargingProfileTarget.connectorNo));
    },
    async answered(
      t: { profileId: number; chargePointId: number; connectorNo: number },
      a: { status: ProfileTargetStatus; chargerStatus: string | null; transactionId: number | null; at: Date },
    ) {
      await db
        .update(chargingProfileTarget)
        .set({ status: a.status, chargerStatus: a.chargerStatus, transactionId: a.transactionId, sentAt: a.at })
        .where(
          and(
            eq(chargingProfileTarget.profileId, t.profileId),
            eq(chargingProfileTarget.chargePointId, t.chargePointId),
            eq(chargingProfileTarget.connectorNo, t.connectorNo),
          ),
        );
    },
    /**
     * What a ClearChargingProfile the charger accepted removed there (OCPP 1.6 §5.5): by id alone, or every
     * profile matching all of the given connector, purpose and stack level (none: all of them).
     */
    async cleared(
      pointId: number,
      c: { id?: number | null; connectorId?: number | null; purpose?: string | null; stackLevel?: number | null },
    ) {
      const match = c.id
        ? eq(chargingProfileTarget.profileId, c.id)
        : and(
            c.connectorId !== null && c.connectorId !== undefined ? eq(chargingProfileTarget.connectorNo, c.connectorId) : undefined,
            c.purpose || (c.stackLevel !== null && c.stackLevel !== undefined)
              ? inArray(
                  chargingProfileTarget.profileId,
                  db
                    .select({ id: chargingProfile.id })
                    .from(chargingProfile)
                    .where(
                      and(
                        c.purpose ? eq(chargingProfile.purpose, c.purpose as ProfileRow['purpose']) : undefined,
                        c.stackLevel !== null && c.stackLevel !== undefined ? eq(chargingProfile.stackLevel, c.stackLevel) : undefined,
                      ),
                    ),
                )
              : undefined,
          );
      const rows = await db
        .update(chargingProfileTarget)
        .set({ status: 'cleared' })
        .where(and(eq(chargingProfileTarget.chargePointId, pointId), ne(chargingProfileTarget.status, 'cleared'), match))
        .returning({ id: chargingProfileTarget.profileId });
      return rows.length;
    },
    /** The profiles a point holds now: accepted, not cleared, not past validTo (a TxProfile only while its session runs). */
    async inForce(pointId: number, now: Date): Promise<ProfileInForce[]> {
      const rows = await db
        .select({ profile: chargingProfile, target: chargingProfileTarget })
        .from(chargingProfileTarget)
        .innerJoin(chargingProfile, eq(chargingProfile.id, chargingProfileTarget.profileId))
        .leftJoin(chargingTransaction, eq(chargingTransaction.id, chargingProfileTarget.transactionId))
        .where(
          and(
            eq(chargingProfileTarget.chargePointId, pointId),
            inArray(chargingProfileTarget.status, HELD),
            or(isNull(chargingProfile.validTo), gt(chargingProfile.validTo, now)),
            or(ne(chargingProfile.purpose, 'TxProfile'), isNull(chargingTransaction.stoppedAt)),
          ),
        )
        .orderBy(asc(chargingProfileTarget.connectorNo), asc(chargingProfile.purpose), desc(chargingProfile.stackLevel));
      return rows.map(({ profile: r, target: t }) => ({
        id: r.id,
        connectorNo: t.connectorNo,
        purpose: r.purpose,
        stackLevel: r.stackLevel,
        chargingProfileKind: r.kind,
        chargingRateUnit: r.rateUnit,
        validFrom: iso(r.validFrom),
        validTo: iso(r.validTo),
        transactionId: t.transactionId,
        periods: r.periods,
        sentTime: iso(t.sentAt),
      }));
    },
    /**
     * What a point should hold again after a reboot: its held profiles but Tx ones (their sessions ended), not
     * expired at `now`. Points asked for together (chargers booting in a storm) share one query.
     */
    afterBoot: (pointId: number, now: Date) => heldAfterBoot({ pointId, now }),
  };
}

export type ChargingProfileRepo = ReturnType<typeof createChargingProfileRepo>;
