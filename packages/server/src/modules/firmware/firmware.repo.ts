import {
  FIRMWARE_WAVE_TIMEOUT_MINUTES,
  type FirmwareUpgradeDto,
  type FirmwareUpgradePointDto,
  type FirmwareVersionDto,
} from '@csms/contract';
import { and, asc, desc, eq, gt, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { chargePoint, firmwareUpgrade, firmwareUpgradePoint, firmwareVersion, provider, station, systemUser } from '../../db/schema.js';
import type { Principal } from '../../http/context.js';
import { pageTotal } from '../../lib/bounded-count.js';
import { providerScope } from '../../lib/scope.js';
import { contains, lowerLike } from '../../lib/text-search.js';
import { stationScope } from '../monitor/scope.js';
import { createRolloutRepo } from './firmware-rollout.repo.js';

export type FirmwareVersionRow = typeof firmwareVersion.$inferSelect;
export type UpgradeRow = typeof firmwareUpgrade.$inferSelect;

export interface VersionFilter {
  version?: string | undefined;
  applicationType?: string | undefined;
  communicationType?: string | undefined;
  providerId?: number | undefined;
}

export interface UpgradeFilter {
  version?: string | undefined;
  providerId?: number | undefined;
}

/** The path chargers fetch a package from, under the server's public address. */
export const firmwarePath = (v: Pick<FirmwareVersionRow, 'token' | 'fileName'>) =>
  `/files/firmware/${v.token}/${encodeURIComponent(v.fileName)}`;

/** Firmware packages and upgrades, scoped to the caller's providers; the rollout's own queries in `firmware-rollout.repo.ts`. */
export function createFirmwareRepo({ db }: { db: Db }) {
  const versionFilter = (f: VersionFilter) =>
    and(
      f.version ? lowerLike(firmwareVersion.version, contains(f.version)) : undefined,
      f.applicationType ? lowerLike(firmwareVersion.applicationType, contains(f.applicationType)) : undefined,
      f.communicationType ? lowerLike(firmwareVersion.communicationType, contains(f.communicationType)) : undefined,
      f.providerId ? eq(firmwareVersion.providerId, f.providerId) : undefined,
    );
  const versionHead = () =>
    db
      .select({ v: firmwareVersion, providerName: provider.name, uploaderName: systemUser.username })
      .from(firmwareVersion)
      .innerJoin(provider, eq(provider.id, firmwareVersion.providerId))
      .leftJoin(systemUser, eq(systemUser.id, firmwareVersion.uploadedBy));
  type VersionHead = Awaited<ReturnType<ReturnType<typeof versionHead>['where']>>[number];
  const versionDto = ({ v, providerName, uploaderName }: VersionHead, base: string): FirmwareVersionDto => ({
    id: v.id,
    providerId: v.providerId,
    providerName,
    version: v.version,
    applicationType: v.applicationType,
    communicationType: v.communicationType,
    note: v.note,
    fileName: v.fileName,
    sizeBytes: v.sizeBytes,
    sha256: v.sha256,
    location: `${base}${firmwarePath(v)}`,
    uploaderName,
    uploadTime: v.createdAt.toISOString(),
  });

  const upgradeCond = (p: Principal, f: UpgradeFilter) =>
    and(
      providerScope(p, firmwareUpgrade.providerId),
      f.providerId ? eq(firmwareUpgrade.providerId, f.providerId) : undefined,
      f.version
        ? sql`${firmwareUpgrade.versionId} in (select id from firmware_version where lower(version) like lower(${contains(f.version)}))`
        : undefined,
    );

  async function upgradeDtos(where: SQL | undefined, order: SQL, limit: number, offset = 0): Promise<FirmwareUpgradeDto[]> {
    const rows = await db
      .select({
        u: firmwareUpgrade,
        providerName: provider.name,
        uploaderName: systemUser.username,
        version: firmwareVersion.version,
        communicationType: firmwareVersion.communicationType,
      })
      .from(firmwareUpgrade)
      .innerJoin(provider, eq(provider.id, firmwareUpgrade.providerId))
      .leftJoin(firmwareVersion, eq(firmwareVersion.id, firmwareUpgrade.versionId))
      .leftJoin(systemUser, eq(systemUser.id, firmwareUpgrade.createdBy))
      .where(where)
      .orderBy(order)
      .limit(limit)
      .offset(offset);
    if (rows.length === 0) return [];
    const counts = await db
      .select({
        upgradeId: firmwareUpgradePoint.upgradeId,
        state: firmwareUpgradePoint.state,
        n: sql<number>`count(*)::int`,
        reported: sql<Date | null>`max(${firmwareUpgradePoint.reportedAt})`,
        wave: sql<number>`max(${firmwareUpgradePoint.wave})::int`,
      })
      .from(firmwareUpgradePoint)
      .where(
        inArray(
          firmwareUpgradePoint.upgradeId,
          rows.map((r) => r.u.id),
        ),
      )
      .groupBy(firmwareUpgradePoint.upgradeId, firmwareUpgradePoint.state);
    return rows.map(({ u, ...j }) => {
      const mine = counts.filter((c) => c.upgradeId === u.id);
      const reported = mine.map((c) => (c.reported ? new Date(c.reported).getTime() : 0)).reduce((a, b) => Math.max(a, b), 0);
      const waves = u.waveSize !== null;
      const lastWave = (of: typeof mine) => of.reduce((a, c) => Math.max(a, Number(c.wave)), 0);
      return {
        id: u.id,
        providerId: u.providerId,
        providerName: j.providerName,
        versionId: u.versionId,
        version: j.version,
        communicationType: j.communicationType,
        location: u.location,
        retrieveDate: u.retrieveAt.toISOString(),
        retries: u.retries,
        retryInterval: u.retryInterval,
        description: u.description,
        waveSize: u.waveSize,
        waveTimeoutMinutes: waves ? (u.waveTimeoutMinutes ?? FIRMWARE_WAVE_TIMEOUT_MINUTES) : null,
        // The current wave is the last one released: the highest holding a point that is not waiting.
        currentWave: waves ? lastWave(mine.filter((c) => c.state !== 'queued')) || null : null,
        waveCount: waves ? lastWave(mine) : null,
        counts: Object.fromEntries(mine.map((c) => [c.state, Number(c.n)])),
        total: mine.reduce((a, c) => a + Number(c.n), 0),
        uploaderName: j.uploaderName,
        createTime: u.createdAt.toISOString(),
        reportTime: reported ? new Date(reported).toISOString() : null,
      };
    });
  }

  return {
    ...createRolloutRepo({ db }),
    /** Whether `ancestorId` is `providerId` or a provider above it: a package serves its provider's points and those below. */
    async isAbove(ancestorId: number, providerId: number) {
      const res = (await db.execute(sql`with recursive up(id) as (
          select ${providerId}::int
          union select p.parent_id from ${provider} p join up on p.id = up.id where p.parent_id is not null)
        select 1 as hit from up where id = ${ancestorId} limit 1`)) as unknown as { rows: unknown[] };
      return res.rows.length > 0;
    },
    /** `base`: the server's address as chargers reach it, which package URLs start with. */
    async versions(p: Principal, f: VersionFilter, page: number, limit: number, base: string) {
      const cond = and(providerScope(p, firmwareVersion.providerId), versionFilter(f));
      const offset = (page - 1) * limit;
      const rows = await versionHead().where(cond).orderBy(desc(firmwareVersion.id)).limit(limit).offset(offset);
      const total = await pageTotal(
        db,
        { offset, size: limit, rows: rows.length },
        db.select({ id: firmwareVersion.id }).from(firmwareVersion).where(cond),
      );
      return { list: rows.map((r) => versionDto(r, base)), ...total };
    },
    async version(p: Principal, id: number, base: string) {
      const [row] = await versionHead()
        .where(and(providerScope(p, firmwareVersion.providerId), eq(firmwareVersion.id, id)))
        .limit(1);
      return row ? { dto: versionDto(row, base), row: row.v } : undefined;
    },
    async versionByToken(token: string) {
      const [row] = await db.select().from(firmwareVersion).where(eq(firmwareVersion.token, token)).limit(1);
      return row;
    },
    async versionNamed(providerId: number, version: string, exceptId?: number) {
      const [row] = await db
        .select({ id: firmwareVersion.id })
        .from(firmwareVersion)
        .where(
          and(
            eq(firmwareVersion.providerId, providerId),
            sql`lower(${firmwareVersion.version}) = lower(${version})`,
            exceptId ? sql`${firmwareVersion.id} <> ${exceptId}` : undefined,
          ),
        )
        .limit(1);
      return row;
    },
    async insertVersion(values: typeof firmwareVersion.$inferInsert) {
      const [row] = await db.insert(firmwareVersion).values(values).returning({ id: firmwareVersion.id });
      return row!.id;
    },
    async updateVersion(id: number, values: Partial<typeof firmwareVersion.$inferInsert>) {
      await db.update(firmwareVersion).set(values).where(eq(firmwareVersion.id, id));
    },
    async visibleVersions(p: Principal, ids: number[]) {
      return db
        .select()
        .from(firmwareVersion)
        .where(and(providerScope(p, firmwareVersion.providerId), inArray(firmwareVersion.id, ids)));
    },
    /** The first upgrade that uses one of these packages. */
    async upgradeUsing(versionIds: number[]) {
      const [row] = await db
        .select({ id: firmwareUpgrade.id, versionId: firmwareUpgrade.versionId })
        .from(firmwareUpgrade)
        .where(inArray(firmwareUpgrade.versionId, versionIds))
        .orderBy(asc(firmwareUpgrade.id))
        .limit(1);
      return row;
    },
    async removeVersions(ids: number[]) {
      const rows = await db.delete(firmwareVersion).where(inArray(firmwareVersion.id, ids)).returning();
      return rows;
    },

    async upgrades(p: Principal, f: UpgradeFilter, page: number, limit: number) {
      const cond = upgradeCond(p, f);
      const offset = (page - 1) * limit;
      const list = await upgradeDtos(cond, desc(firmwareUpgrade.id), limit, offset);
      const total = await pageTotal(
        db,
        { offset, size: limit, rows: list.length },
        db.select({ id: firmwareUpgrade.id }).from(firmwareUpgrade).where(cond),
      );
      return { list, ...total };
    },
    async countUpgrades(p: Principal, f: UpgradeFilter) {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(firmwareUpgrade)
        .where(upgradeCond(p, f));
      return Number(row?.n ?? 0);
    },
    /** One keyset page for the export engine. */
    async upgradePage(p: Principal, f: UpgradeFilter, afterId: number, size: number) {
      return upgradeDtos(and(upgradeCond(p, f), gt(firmwareUpgrade.id, afterId)), asc(firmwareUpgrade.id), size);
    },
    async upgrade(p: Principal, id: number) {
      return (
        await upgradeDtos(and(providerScope(p, firmwareUpgrade.providerId), eq(firmwareUpgrade.id, id)), asc(firmwareUpgrade.id), 1)
      )[0];
    },
    /** The points in the order given: with a wave size, the first wave is released at once, the others wait as `queued`. */
    async insertUpgrade(values: typeof firmwareUpgrade.$inferInsert, points: { id: number; firmwareVersion: string | null }[], at: Date) {
      const size = values.waveSize ?? points.length;
      return db.transaction(async (tx) => {
        const [u] = await tx.insert(firmwareUpgrade).values(values).returning({ id: firmwareUpgrade.id });
        await tx.insert(firmwareUpgradePoint).values(
          points.map((x, i) => {
            const wave = Math.floor(i / size) + 1;
            return {
              upgradeId: u!.id,
              chargePointId: x.id,
              wave,
              state: wave === 1 ? ('pending' as const) : ('queued' as const),
              releasedAt: wave === 1 ? at : null,
              fromVersion: x.firmwareVersion,
            };
          }),
        );
        return u!.id;
      });
    },
    /** An upgrade's points, those of the caller's stations (a user bound to stations sees only theirs). */
    async upgradePoints(p: Principal, id: number): Promise<FirmwareUpgradePointDto[]> {
      const rows = await db
        .select({
          r: firmwareUpgradePoint,
          serialNumber: chargePoint.serialNumber,
          pointName: chargePoint.name,
          stationName: station.name,
        })
        .from(firmwareUpgradePoint)
        .innerJoin(chargePoint, eq(chargePoint.id, firmwareUpgradePoint.chargePointId))
        .innerJoin(station, eq(station.id, chargePoint.stationId))
        .where(and(eq(firmwareUpgradePoint.upgradeId, id), stationScope(p, chargePoint.providerId, chargePoint.stationId)))
        .orderBy(asc(firmwareUpgradePoint.wave), asc(chargePoint.serialNumber));
      return rows.map(({ r, ...j }) => ({
        ...j,
        wave: r.wave,
        state: r.state,
        reason: r.reason,
        fromVersion: r.fromVersion,
        reportedVersion: r.reportedVersion,
        sentTime: r.sentAt?.toISOString() ?? null,
        reportTime: r.reportedAt?.toISOString() ?? null,
      }));
    },
    /** Points among `serialNumbers` the caller may see, with their current version. */
    async points(p: Principal, serialNumbers: string[]) {
      return db
        .select({
          id: chargePoint.id,
          serialNumber: chargePoint.serialNumber,
          providerId: chargePoint.providerId,
          stationId: chargePoint.stationId,
          firmwareVersion: chargePoint.firmwareVersion,
        })
        .from(chargePoint)
        .where(and(inArray(chargePoint.serialNumber, serialNumbers), stationScope(p, chargePoint.providerId, chargePoint.stationId)));
    },
  };
}

export type FirmwareRepo = ReturnType<typeof createFirmwareRepo>;
