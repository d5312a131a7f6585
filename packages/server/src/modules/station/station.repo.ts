import type { StationDto, StationStatus } from '@csms/contract';
import { and, asc, count, desc, eq, gt, ilike, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { provider, station } from '../../db/schema.js';
import type { Principal } from '../../http/context.js';
import { providerScope, stationScope } from '../../lib/scope.js';
import { contains } from '../../lib/text-search.js';

export interface StationFilter {
  stationName?: string | undefined;
  providerId?: number | undefined;
  status?: StationStatus | undefined;
  country?: string | undefined;
}

// Derived from the station's points, never stored. Spelled out: a correlated subquery needs the qualified outer column.
const pointCount = sql<number>`(select count(*)::int from "charge_point" cp where cp.station_id = "station"."id")`;
// Through the station's points, then each point's connectors by index (a join let the planner read every connector per station).
const connectorCount = sql<number>`(select count(*)::int from "connector" c where c.charge_point_id in (select cp.id from "charge_point" cp where cp.station_id = "station"."id"))`;
const totalPowerW = sql<number>`(select coalesce(sum(cp.rated_power_w), 0)::bigint from "charge_point" cp where cp.station_id = "station"."id")`;

const columns = {
  id: station.id,
  stationName: station.name,
  providerId: station.providerId,
  providerName: provider.name,
  country: station.country,
  address: station.address,
  longitude: station.longitude,
  latitude: station.latitude,
  timeZone: station.timeZone,
  openingStart: station.openingStart,
  openingEnd: station.openingEnd,
  isPublic: station.isPublic,
  servicePhone: station.servicePhone,
  description: station.description,
  amenities: station.amenities,
  picture: station.picture,
  guide: station.guide,
  status: station.status,
  isUnassigned: station.isUnassigned,
  pointCount,
  connectorCount,
  totalPowerW,
  createdAt: station.createdAt,
};

export type StationRow = Omit<StationDto, 'createTime' | 'amenities'> & { amenities: string[]; createdAt: Date };

export const toDto = (r: StationRow): StationDto => {
  const { createdAt, ...rest } = r;
  return {
    ...rest,
    amenities: r.amenities as StationDto['amenities'],
    pointCount: Number(r.pointCount),
    connectorCount: Number(r.connectorCount),
    totalPowerW: Number(r.totalPowerW),
    createTime: createdAt.toISOString(),
  };
};

export type StationValues = Omit<typeof station.$inferInsert, 'id' | 'createdAt' | 'isUnassigned'>;

/** Stations, scoped to the caller's providers and, for a station-bound user, to its stations. */
export function createStationRepo({ db }: { db: Db }) {
  const where = (p: Principal, ...more: (SQL | undefined)[]) =>
    and(providerScope(p, station.providerId), stationScope(p, station.id), ...more);
  const filterSql = (f: StationFilter) =>
    and(
      f.stationName ? ilike(station.name, contains(f.stationName)) : undefined,
      f.providerId ? eq(station.providerId, f.providerId) : undefined,
      f.status ? eq(station.status, f.status) : undefined,
      f.country ? eq(station.country, f.country) : undefined,
    );
  const base = () => db.select(columns).from(station).innerJoin(provider, eq(provider.id, station.providerId));

  return {
    async list(p: Principal, f: StationFilter, page: number, limit: number) {
      const cond = where(p, filterSql(f));
      // The page's ids first, then the derived counts for those rows only: selected with the
      // counts, an offset computed them for every row it skipped.
      const [ids, [total]] = await Promise.all([
        db
          .select({ id: station.id })
          .from(station)
          .where(cond)
          .orderBy(desc(station.id))
          .limit(limit)
          .offset((page - 1) * limit),
        db.select({ n: count() }).from(station).where(cond),
      ]);
      const rows =
        ids.length === 0
          ? []
          : await base()
              .where(
                and(
                  cond,
                  inArray(
                    station.id,
                    ids.map((r) => r.id),
                  ),
                ),
              )
              .orderBy(desc(station.id));
      return { list: (rows as StationRow[]).map(toDto), total: total?.n ?? 0 };
    },
    async count(p: Principal, f: StationFilter) {
      const [row] = await db
        .select({ n: count() })
        .from(station)
        .where(where(p, filterSql(f)));
      return row?.n ?? 0;
    },
    /** One keyset page for the export engine. */
    async page(p: Principal, f: StationFilter, afterId: number, size: number) {
      const rows = await base()
        .where(where(p, filterSql(f), gt(station.id, afterId)))
        .orderBy(asc(station.id))
        .limit(size);
      return rows as StationRow[];
    },
    async get(p: Principal, id: number): Promise<StationRow | undefined> {
      const [row] = await base()
        .where(where(p, eq(station.id, id)))
        .limit(1);
      return row as StationRow | undefined;
    },
    /** For pickers: id and name, ordered by name. */
    async options(p: Principal, f: { stationName?: string | undefined; providerId?: number | undefined }) {
      return db
        .select({ id: station.id, stationName: station.name, providerId: station.providerId, providerName: provider.name })
        .from(station)
        .innerJoin(provider, eq(provider.id, station.providerId))
        .where(where(p, filterSql(f)))
        .orderBy(asc(station.name), asc(station.id))
        .limit(1000);
    },
    /** The ids among `ids` of stations the caller can see (binding users to stations). */
    async visibleIds(p: Principal, ids: number[]) {
      if (ids.length === 0) return [];
      const rows = await db
        .select({ id: station.id })
        .from(station)
        .where(where(p, inArray(station.id, ids)));
      return rows.map((r) => r.id);
    },
    /** Names are unique per provider, case-insensitively (DESIGN.md §9). */
    async nameTaken(providerId: number, name: string, exceptId?: number) {
      const [row] = await db
        .select({ id: station.id })
        .from(station)
        .where(
          and(
            eq(station.providerId, providerId),
            sql`lower(${station.name}) = lower(${name})`,
            exceptId ? ne(station.id, exceptId) : undefined,
          ),
        )
        .limit(1);
      return row !== undefined;
    },
    /** A provider the caller can see and that exists. */
    async providerVisible(p: Principal, providerId: number) {
      const [row] = await db
        .select({ id: provider.id })
        .from(provider)
        .where(and(providerScope(p, provider.id), eq(provider.id, providerId)))
        .limit(1);
      return row !== undefined;
    },
    /** An uploaded file by its stored name, with its owner and size. */
    async insert(values: StationValues) {
      const [row] = await db.insert(station).values(values).returning({ id: station.id });
      return row!.id;
    },
    async update(p: Principal, id: number, values: Partial<StationValues>) {
      const rows = await db
        .update(station)
        .set(values)
        .where(where(p, eq(station.id, id)))
        .returning({ id: station.id });
      return rows.length;
    },
    /**
     * Whether anything of the station's provider hangs on it: a row of any table that refers to the
     * station (points, prices with the provider's user groups, service areas, controllers, profiles,
     * weather rules, and whatever refers to it later), or an activity or voucher template that names it.
     * Such a station keeps its provider: moved, it would carry them into another provider's hands.
     */
    async anchored(id: number): Promise<boolean> {
      const refs = (await db.execute(sql`select c.conrelid::regclass::text as "table", quote_ident(a.attname) as "column"
          from pg_constraint c join pg_attribute a on a.attrelid = c.conrelid and a.attnum = any (c.conkey)
          where c.contype = 'f' and c.confrelid = 'station'::regclass and c.conrelid <> 'station'::regclass`)) as unknown as {
        rows: { table: string; column: string }[];
      };
      // `id` is the station's integer id, so the text below is built from catalogue names and a number only.
      const named = ['activity', 'voucher_template'].map((t) => `exists (select 1 from ${t} where station_ids @> '[${id}]'::jsonb)`);
      const any = [...refs.rows.map((r) => `exists (select 1 from ${r.table} where ${r.column} = ${id})`), ...named].join(' or ');
      const res = (await db.execute(sql.raw(`select (${any}) as "anchored"`))) as unknown as { rows: { anchored: boolean }[] };
      return res.rows[0]!.anchored;
    },
    /** Ids among `ids` the caller can see, with what decides whether they may go. */
    async visible(p: Principal, ids: number[]) {
      return db
        .select({ id: station.id, stationName: station.name, isUnassigned: station.isUnassigned, pointCount })
        .from(station)
        .where(where(p, inArray(station.id, ids)));
    },
    async remove(ids: number[]) {
      return db.transaction(async (tx) => {
        const rows = await tx.delete(station).where(inArray(station.id, ids)).returning({ id: station.id });
        return rows.length;
      });
    },
  };
}

export type StationRepo = ReturnType<typeof createStationRepo>;
