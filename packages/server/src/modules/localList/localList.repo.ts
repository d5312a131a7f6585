import type { LocalListUpdateType } from '@csms/contract';
import { and, eq, inArray, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { chargePoint, localListVersion, pointLocalList, provider } from '../../db/schema.js';
import type { IdTagInfo } from '../cards/authorize.js';

/** An entry as the point holds it (a row of `point_local_list`). */
export interface HeldEntry {
  idTag: string;
  status: string;
  expiryDate: Date | null;
  parentIdTag: string | null;
}

export interface LocalListEntry {
  idTag: string;
  /** Absent in a Differential update: remove the entry. */
  idTagInfo?: IdTagInfo;
}

const stateColumns = {
  id: chargePoint.id,
  providerId: chargePoint.providerId,
  serialNumber: chargePoint.serialNumber,
  version: chargePoint.localListVersion,
  inStep: chargePoint.localListInStep,
  lastStatus: chargePoint.localListStatus,
  chargerVersion: chargePoint.localListChargerVersion,
};

/** The server's record of each point's local authorization list: version, step, last answers and the entries held. */
export function createLocalListRepo({ db }: { db: Db }) {
  return {
    /** The global change counter (bumped by triggers on every card change that can alter a list). */
    async counter(): Promise<number> {
      const [v] = await db.select({ version: localListVersion.version }).from(localListVersion).where(eq(localListVersion.id, 1));
      return v?.version ?? 0;
    },

    async point(pointId: number) {
      const [row] = await db.select(stateColumns).from(chargePoint).where(eq(chargePoint.id, pointId));
      return row;
    },

    async held(pointId: number): Promise<HeldEntry[]> {
      return db
        .select({
          idTag: pointLocalList.idTag,
          status: pointLocalList.status,
          expiryDate: pointLocalList.expiryDate,
          parentIdTag: pointLocalList.parentIdTag,
        })
        .from(pointLocalList)
        .where(eq(pointLocalList.pointId, pointId));
    },

    async heldCount(pointId: number): Promise<number> {
      const [r] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(pointLocalList)
        .where(eq(pointLocalList.pointId, pointId));
      return r?.n ?? 0;
    },

    /**
     * The point Accepted `update` on top of `base`: its record becomes that list. A Differential
     * applies only on the base it was computed from; had another update landed meanwhile, the record
     * is marked out of step instead (the next update is then Full).
     */
    async accepted(
      pointId: number,
      base: number | null,
      update: { listVersion: number; updateType: LocalListUpdateType; entries: LocalListEntry[] },
      seen: number,
    ) {
      await db.transaction(async (tx) => {
        const guard: SQL | undefined =
          update.updateType === 'Full'
            ? undefined
            : base === null
              ? isNull(chargePoint.localListVersion)
              : eq(chargePoint.localListVersion, base);
        const moved = await tx
          .update(chargePoint)
          .set({
            localListVersion: update.listVersion,
            localListInStep: true,
            localListStatus: 'Accepted',
            localListChargerVersion: update.listVersion,
            localListSeen: sql`greatest(${chargePoint.localListSeen}, ${seen})`,
            localListSentAt: new Date(),
          })
          .where(and(eq(chargePoint.id, pointId), guard))
          .returning({ id: chargePoint.id });
        if (moved.length === 0) {
          await tx
            .update(chargePoint)
            .set({ localListInStep: false, localListStatus: 'Accepted', localListSentAt: new Date() })
            .where(eq(chargePoint.id, pointId));
          return;
        }
        if (update.updateType === 'Full') await tx.delete(pointLocalList).where(eq(pointLocalList.pointId, pointId));
        const gone = update.entries.filter((e) => !e.idTagInfo).map((e) => e.idTag);
        if (gone.length > 0)
          await tx.delete(pointLocalList).where(and(eq(pointLocalList.pointId, pointId), inArray(pointLocalList.idTag, gone)));
        const kept = update.entries.flatMap((e) =>
          e.idTagInfo
            ? [
                {
                  pointId,
                  idTag: e.idTag,
                  status: e.idTagInfo.status,
                  expiryDate: e.idTagInfo.expiryDate ? new Date(e.idTagInfo.expiryDate) : null,
                  parentIdTag: e.idTagInfo.parentIdTag ?? null,
                },
              ]
            : [],
        );
        for (let i = 0; i < kept.length; i += 1000) {
          await tx
            .insert(pointLocalList)
            .values(kept.slice(i, i + 1000))
            .onConflictDoUpdate({
              target: [pointLocalList.pointId, pointLocalList.idTag],
              set: {
                status: sql`excluded.status`,
                expiryDate: sql`excluded.expiry_date`,
                parentIdTag: sql`excluded.parent_id_tag`,
              },
            });
        }
      });
    },

    /** The charger refused or could not take an update: the record stays, out of step (VersionMismatch, Failed) or unsupported. */
    async refused(pointId: number, chargerStatus: string) {
      await db
        .update(chargePoint)
        .set({
          localListStatus: chargerStatus,
          ...(chargerStatus === 'NotSupported' ? {} : { localListInStep: false }),
          localListSentAt: new Date(),
        })
        .where(eq(chargePoint.id, pointId));
    },

    /** The charger's answer to GetLocalListVersion, compared with the record: in step only when they agree. */
    async chargerVersion(pointId: number, version: number) {
      await db
        .update(chargePoint)
        .set({
          localListChargerVersion: version,
          localListInStep: sql`${chargePoint.localListVersion} is not null and ${chargePoint.localListVersion} = ${version}`,
        })
        .where(eq(chargePoint.id, pointId));
    },

    /** Nothing to send, yet the counter moved (another provider's change): remember that this point has seen it. */
    async seen(pointId: number, seen: number) {
      await db
        .update(chargePoint)
        .set({ localListSeen: sql`greatest(${chargePoint.localListSeen}, ${seen})` })
        .where(eq(chargePoint.id, pointId));
    },

    /**
     * Points this node should bring up to date: online on this node, of a provider with automatic
     * sync, whose list may be stale (never sent, out of step, cards changed since, or an Accepted
     * entry's expiry passed). Points that refused are retried after `retryAfter`; points that do not
     * support local lists are left alone. Derived from the database alone, so a restart loses nothing.
     */
    async due(nodeId: string, now: Date, counter: number, retryBefore: Date) {
      const expired = sql`exists (select 1 from ${pointLocalList} where ${pointLocalList.pointId} = ${chargePoint.id} and ${pointLocalList.status} = 'Accepted' and ${pointLocalList.expiryDate} <= ${now.toISOString()})`;
      return db
        .select({
          id: chargePoint.id,
          providerId: chargePoint.providerId,
          serialNumber: chargePoint.serialNumber,
          ocppVersion: chargePoint.ocppVersion,
        })
        .from(chargePoint)
        .innerJoin(provider, eq(provider.id, chargePoint.providerId))
        .where(
          and(
            eq(provider.autoLocalListSync, true),
            eq(chargePoint.online, true),
            eq(chargePoint.enabled, true),
            eq(chargePoint.connectedNode, nodeId),
            or(isNull(chargePoint.localListStatus), sql`${chargePoint.localListStatus} <> 'NotSupported'`),
            or(isNull(chargePoint.localListSentAt), lte(chargePoint.localListSentAt, retryBefore), eq(chargePoint.localListInStep, true)),
            or(
              isNull(chargePoint.localListVersion),
              eq(chargePoint.localListInStep, false),
              sql`${chargePoint.localListSeen} < ${counter}`,
              expired,
            ),
          ),
        )
        .orderBy(chargePoint.id)
        .limit(500);
    },
  };
}

export type LocalListRepo = ReturnType<typeof createLocalListRepo>;
