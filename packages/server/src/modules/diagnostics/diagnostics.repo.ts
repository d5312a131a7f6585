import type { DiagnosticsDto, DiagnosticsState } from '@csms/contract';
import { and, asc, desc, eq, gt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { chargePoint, diagnosticsRequest, provider, station, systemUser } from '../../db/schema.js';
import type { Principal } from '../../http/context.js';
import { pageTotal } from '../../lib/bounded-count.js';
import { contains, lowerLike } from '../../lib/text-search.js';
import { stationScope } from '../monitor/scope.js';
import { maskLocation } from '../../lib/secret-location.js';

export interface DiagnosticsFilter {
  serialNumber?: string | undefined;
  state?: DiagnosticsState | undefined;
  stationId?: number | undefined;
  providerId?: number | undefined;
}

export type DiagnosticsRow = typeof diagnosticsRequest.$inferSelect;

/** A location as the console shows it: an FTP password or an upload token never leaves the server. */
const shown = maskLocation;

/** Diagnostics requests, scoped to the caller's providers and bound stations. */
export function createDiagnosticsRepo({ db }: { db: Db }) {
  const where = (p: Principal, ...more: (SQL | undefined)[]) =>
    and(stationScope(p, diagnosticsRequest.providerId, diagnosticsRequest.stationId), ...more);
  const filterSql = (f: DiagnosticsFilter) =>
    and(
      f.serialNumber ? lowerLike(chargePoint.serialNumber, contains(f.serialNumber)) : undefined,
      f.state ? eq(diagnosticsRequest.state, f.state) : undefined,
      f.stationId ? eq(diagnosticsRequest.stationId, f.stationId) : undefined,
      f.providerId ? eq(diagnosticsRequest.providerId, f.providerId) : undefined,
    );
  const head = () =>
    db
      .select({
        d: diagnosticsRequest,
        providerName: provider.name,
        stationName: station.name,
        serialNumber: chargePoint.serialNumber,
        pointName: chargePoint.name,
        createdByName: systemUser.username,
      })
      .from(diagnosticsRequest)
      .innerJoin(provider, eq(provider.id, diagnosticsRequest.providerId))
      .innerJoin(station, eq(station.id, diagnosticsRequest.stationId))
      .innerJoin(chargePoint, eq(chargePoint.id, diagnosticsRequest.chargePointId))
      .leftJoin(systemUser, eq(systemUser.id, diagnosticsRequest.createdBy));
  type Head = Awaited<ReturnType<ReturnType<typeof head>['where']>>[number];
  const dto = ({ d, ...j }: Head): DiagnosticsDto => ({
    id: d.id,
    providerId: d.providerId,
    providerName: j.providerName,
    stationId: d.stationId,
    stationName: j.stationName,
    serialNumber: j.serialNumber,
    pointName: j.pointName,
    location: shown(d.location),
    startTime: d.startTime?.toISOString() ?? null,
    stopTime: d.stopTime?.toISOString() ?? null,
    retries: d.retries,
    retryInterval: d.retryInterval,
    state: d.state,
    fileName: d.fileName,
    reason: d.reason,
    sizeBytes: d.sizeBytes,
    createdByName: j.createdByName,
    createTime: d.createdAt.toISOString(),
    reportTime: d.reportedAt?.toISOString() ?? null,
  });

  return {
    async list(p: Principal, f: DiagnosticsFilter, page: number, limit: number) {
      const cond = where(p, filterSql(f));
      const offset = (page - 1) * limit;
      const rows = await head().where(cond).orderBy(desc(diagnosticsRequest.id)).limit(limit).offset(offset);
      const total = await pageTotal(
        db,
        { offset, size: limit, rows: rows.length },
        db
          .select({ id: diagnosticsRequest.id })
          .from(diagnosticsRequest)
          .innerJoin(chargePoint, eq(chargePoint.id, diagnosticsRequest.chargePointId))
          .where(cond),
      );
      return { list: rows.map(dto), ...total };
    },
    async count(p: Principal, f: DiagnosticsFilter) {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(diagnosticsRequest)
        .innerJoin(chargePoint, eq(chargePoint.id, diagnosticsRequest.chargePointId))
        .where(where(p, filterSql(f)));
      return Number(row?.n ?? 0);
    },
    /** One keyset page for the export engine. */
    async page(p: Principal, f: DiagnosticsFilter, afterId: number, size: number) {
      const rows = await head()
        .where(where(p, filterSql(f), gt(diagnosticsRequest.id, afterId)))
        .orderBy(asc(diagnosticsRequest.id))
        .limit(size);
      return rows.map(dto);
    },
    async get(p: Principal, id: number) {
      const [row] = await head()
        .where(where(p, eq(diagnosticsRequest.id, id)))
        .limit(1);
      return row ? { dto: dto(row), row: row.d } : undefined;
    },
    /** Reserves ids for requests about to be sent: each one's upload target names its id. */
    async insert(values: (typeof diagnosticsRequest.$inferInsert)[]) {
      return db.insert(diagnosticsRequest).values(values).returning();
    },
    async update(id: number, values: Partial<typeof diagnosticsRequest.$inferInsert>) {
      await db.update(diagnosticsRequest).set(values).where(eq(diagnosticsRequest.id, id));
    },
    async byToken(token: string) {
      const [row] = await db.select().from(diagnosticsRequest).where(eq(diagnosticsRequest.token, token)).limit(1);
      return row;
    },
    async byId(id: number) {
      const [row] = await db.select().from(diagnosticsRequest).where(eq(diagnosticsRequest.id, id)).limit(1);
      return row;
    },
    /** The point's latest request still waiting for its upload (a status notification names no request). */
    async latestOpen(chargePointId: number) {
      const [row] = await db
        .select()
        .from(diagnosticsRequest)
        .where(eq(diagnosticsRequest.chargePointId, chargePointId))
        .orderBy(desc(diagnosticsRequest.id))
        .limit(1);
      return row && ['sent', 'Uploading', 'Uploaded', 'UploadFailed'].includes(row.state) ? row : undefined;
    },
  };
}

export type DiagnosticsRepo = ReturnType<typeof createDiagnosticsRepo>;
