import { FIRMWARE_WAVE_TIMEOUT_MINUTES, firmwareFailedStates, firmwareWaveDoneStates, type FirmwarePointState } from '@csms/contract';
import { and, asc, desc, eq, inArray, isNotNull, notInArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { coalescing } from '../../lib/coalesce.js';
import { prebuilt } from '../../db/prebuilt.js';
import { chargePoint, firmwareUpgrade, firmwareUpgradePoint, firmwareVersion } from '../../db/schema.js';

/** States after which a point's part in an upgrade is over, for better or worse: its next reports belong to no upgrade. */
const OVER: FirmwarePointState[] = ['confirmed', 'notInstalled', 'rejected'];
/** A point waiting for its wave has been told nothing: its reports and boots belong to another upgrade. */
const NOT_CURRENT: FirmwarePointState[] = [...OVER, 'queued'];
/** The rows of a rollout still in play (the partial index `firmware_upgrade_point_open`). */
const open = () => notInArray(firmwareUpgradePoint.state, [...firmwareWaveDoneStates]);

const pointOf = (upgradeId: number, chargePointId: number) =>
  and(eq(firmwareUpgradePoint.upgradeId, upgradeId), eq(firmwareUpgradePoint.chargePointId, chargePointId));

/**
 * Where each point of an upgrade stands, as the sending, the charger's reports and the rollout in
 * waves move it (no caller scope: the charger or the sweep asks, never an operator).
 */
export function createRolloutRepo({ db }: { db: Db }) {
  /** Built once (`prebuilt`): drizzle built this select of two whole rows at every batch of booting chargers. */
  const currentQuery = prebuilt(db, (d) =>
    d
      .selectDistinctOn([firmwareUpgradePoint.chargePointId], {
        r: firmwareUpgradePoint,
        u: firmwareUpgrade,
        version: firmwareVersion.version,
      })
      .from(firmwareUpgradePoint)
      .innerJoin(firmwareUpgrade, eq(firmwareUpgrade.id, firmwareUpgradePoint.upgradeId))
      .leftJoin(firmwareVersion, eq(firmwareVersion.id, firmwareUpgrade.versionId))
      .where(
        and(
          sql`${firmwareUpgradePoint.chargePointId} = any(${sql.placeholder('pointIds')}::int[])`,
          notInArray(firmwareUpgradePoint.state, NOT_CURRENT),
        ),
      )
      .orderBy(firmwareUpgradePoint.chargePointId, desc(firmwareUpgradePoint.upgradeId)),
  );
  const currentOf = coalescing(
    async (pointIds: readonly number[]) => {
      const rows = await currentQuery(db, { pointIds: [...new Set(pointIds)] });
      return new Map(rows.map((row) => [row.r.chargePointId, row]));
    },
    { missing: undefined },
  );
  return {
    async upgradeRow(id: number) {
      const [row] = await db.select().from(firmwareUpgrade).where(eq(firmwareUpgrade.id, id));
      return row;
    },
    /** The points of an upgrade in `states` whose charger is online, with what sending needs (an offline one is sent at its boot). */
    async targets(upgradeId: number, states: readonly FirmwarePointState[]) {
      return db
        .select({ chargePointId: chargePoint.id, serialNumber: chargePoint.serialNumber })
        .from(firmwareUpgradePoint)
        .innerJoin(chargePoint, eq(chargePoint.id, firmwareUpgradePoint.chargePointId))
        .where(
          and(
            eq(firmwareUpgradePoint.upgradeId, upgradeId),
            inArray(firmwareUpgradePoint.state, [...states]),
            eq(chargePoint.online, true),
          ),
        )
        .orderBy(asc(chargePoint.serialNumber));
    },
    async setState(
      upgradeId: number,
      chargePointId: number,
      v: { state: FirmwarePointState; reason?: string | null; sentAt?: Date; reportedAt?: Date; reportedVersion?: string | null },
    ) {
      await db
        .update(firmwareUpgradePoint)
        .set(v)
        .where(and(eq(firmwareUpgradePoint.upgradeId, upgradeId), eq(firmwareUpgradePoint.chargePointId, chargePointId)));
    },
    /**
     * Takes a pending point for sending (`sent`, as of `at`): false when another sender took it first,
     * so that a point is sent its UpdateFirmware once however many events and nodes ask at once.
     */
    async claim(upgradeId: number, chargePointId: number, at: Date) {
      const rows = await db
        .update(firmwareUpgradePoint)
        .set({ state: 'sent', sentAt: at, reason: null })
        .where(and(pointOf(upgradeId, chargePointId), eq(firmwareUpgradePoint.state, 'pending')))
        .returning({ id: firmwareUpgradePoint.chargePointId });
      return rows.length > 0;
    },
    /** A claimed point turned out offline: pending again, sent when it connects. */
    async unclaim(upgradeId: number, chargePointId: number) {
      await db
        .update(firmwareUpgradePoint)
        .set({ state: 'pending', sentAt: null })
        .where(and(pointOf(upgradeId, chargePointId), eq(firmwareUpgradePoint.state, 'sent')));
    },
    /** The charger refused (or did not answer): unless a report of it moved on meanwhile. */
    async refused(upgradeId: number, chargePointId: number, reason: string, at: Date) {
      await db
        .update(firmwareUpgradePoint)
        .set({ state: 'rejected', reason: reason.slice(0, 200), reportedAt: at })
        .where(and(pointOf(upgradeId, chargePointId), eq(firmwareUpgradePoint.state, 'sent')));
    },
    /**
     * Releases an upgrade's next wave when every point released so far is done; returns how many
     * points it released. One statement: of two callers at once, one releases the wave, the other
     * finds no point still queued in it (never the wave after).
     */
    async releaseNextWave(upgradeId: number, at: Date) {
      const rows = await db
        .update(firmwareUpgradePoint)
        .set({ state: 'pending', releasedAt: at })
        .where(
          and(
            eq(firmwareUpgradePoint.upgradeId, upgradeId),
            eq(firmwareUpgradePoint.state, 'queued'),
            sql`${firmwareUpgradePoint.wave} = (select min(q.wave) from firmware_upgrade_point q where q.upgrade_id = ${upgradeId} and q.state = 'queued')`,
            sql`not exists (select 1 from firmware_upgrade_point r where r.upgrade_id = ${upgradeId} and r.state <> 'queued' and r.state not in (${sql.join(
              firmwareWaveDoneStates.map((x) => sql`${x}`),
              sql`, `,
            )}))`,
          ),
        )
        .returning({ id: firmwareUpgradePoint.chargePointId });
      return rows.length;
    },
    /**
     * Points of upgrades in waves released longer ago than their wave's time limit (counted from the
     * retrieve date when that is later) and still not done: `timedOut`. Returns their upgrades.
     */
    async timeOut(at: Date) {
      const rows = await db
        .update(firmwareUpgradePoint)
        .set({ state: 'timedOut', reportedAt: at })
        .from(firmwareUpgrade)
        .where(
          and(
            eq(firmwareUpgrade.id, firmwareUpgradePoint.upgradeId),
            isNotNull(firmwareUpgrade.waveSize),
            open(),
            sql`${firmwareUpgradePoint.state} <> 'queued'`,
            sql`greatest(${firmwareUpgradePoint.releasedAt}, ${firmwareUpgrade.retrieveAt}) + make_interval(mins => coalesce(${firmwareUpgrade.waveTimeoutMinutes}, ${FIRMWARE_WAVE_TIMEOUT_MINUTES})) < ${at}`,
          ),
        )
        .returning({ upgradeId: firmwareUpgradePoint.upgradeId });
      return [...new Set(rows.map((r) => r.upgradeId))];
    },
    /** Upgrades with a wave still to release. */
    async waiting() {
      const rows = await db
        .selectDistinct({ id: firmwareUpgradePoint.upgradeId })
        .from(firmwareUpgradePoint)
        .where(and(open(), eq(firmwareUpgradePoint.state, 'queued')));
      return rows.map((r) => r.id);
    },
    /** Pending points whose charger is online (somewhere): what a crash or a reconnect without a boot left unsent. */
    async pendingOnline() {
      return db
        .select({ upgradeId: firmwareUpgradePoint.upgradeId, chargePointId: chargePoint.id, serialNumber: chargePoint.serialNumber })
        .from(firmwareUpgradePoint)
        .innerJoin(chargePoint, eq(chargePoint.id, firmwareUpgradePoint.chargePointId))
        .where(and(open(), eq(firmwareUpgradePoint.state, 'pending'), eq(chargePoint.online, true)))
        .orderBy(asc(firmwareUpgradePoint.upgradeId), asc(chargePoint.serialNumber));
    },
    /**
     * Puts the failed points of an upgrade back to pending, released now; returns how many. `stationIds`:
     * only the points of these stations (a caller bound to stations retries the points they see).
     */
    async resetFailed(upgradeId: number, at: Date, stationIds: number[] | null = null) {
      const rows = await db
        .update(firmwareUpgradePoint)
        .set({ state: 'pending', reason: null, releasedAt: at })
        .where(
          and(
            eq(firmwareUpgradePoint.upgradeId, upgradeId),
            inArray(firmwareUpgradePoint.state, [...firmwareFailedStates]),
            stationIds === null
              ? undefined
              : inArray(
                  firmwareUpgradePoint.chargePointId,
                  db.select({ id: chargePoint.id }).from(chargePoint).where(inArray(chargePoint.stationId, stationIds)),
                ),
          ),
        )
        .returning({ id: firmwareUpgradePoint.chargePointId });
      return rows.length;
    },
    /**
     * The point's part in its latest upgrade that is not over (nor waiting for its wave), with the package's
     * version. Points asked for together (chargers booting in a storm) share one query.
     */
    current: currentOf,
  };
}

export type RolloutRepo = ReturnType<typeof createRolloutRepo>;
