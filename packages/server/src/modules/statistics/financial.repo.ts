import type { FinancialFigures, FinancialRow, FinancialStats, FinancialStatsFilter } from '@csms/contract';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { invoice, ledgerDay, provider, settlementDay, station } from '../../db/schema.js';
import type { Principal } from '../../http/context.js';
import { notFound } from '../../http/errors.js';
import { canSeeProvider, providerScope, stationScope } from '../../lib/scope.js';
import { daysOf, periodDays } from './period.js';

const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;

interface Bills {
  billCount: number;
  elecFeeCents: number;
  serviceFeeCents: number;
  reserveFeeCents: number;
  discountCents: number;
  adjustmentCents: number;
  incomeCents: number;
}
interface Ledger {
  rechargeCents: number;
  refundCents: number;
  transferCents: number;
  invoicedCents: number;
  outstandingCents: number;
}
const noBills = (): Bills => ({
  billCount: 0,
  elecFeeCents: 0,
  serviceFeeCents: 0,
  reserveFeeCents: 0,
  discountCents: 0,
  adjustmentCents: 0,
  incomeCents: 0,
});
const noLedger = (): Ledger => ({ rechargeCents: 0, refundCents: 0, transferCents: 0, invoicedCents: 0, outstandingCents: 0 });
const addInto = <T extends object>(into: T, x: Partial<Record<keyof T, unknown>>) => {
  for (const k of Object.keys(x) as (keyof T)[]) (into[k] as number) += Number(x[k] ?? 0);
};

/**
 * Financial statistics (issue 20 item 4), in `CSMS_TIME_ZONE` (the zone the day totals are cut in):
 * settled bills from `settlement_day`, the ledger from `ledger_day`, both kept by triggers in the
 * transaction that writes the bill or the ledger row, so a period costs a few rows per station and day
 * instead of its records. Recharges, refunds, transfers, balances and invoices belong to a provider:
 * they are shown for providers only (null for a station, or for a user bound to stations).
 */
export function createFinancialStatsRepo({ db, timeZone: tz }: { db: Db; timeZone: string }) {
  const all = async <T>(q: SQL) => ((await db.execute(q)) as unknown as { rows: T[] }).rows;

  async function report(p: Principal, f: FinancialStatsFilter, now: Date): Promise<FinancialStats> {
    if (f.providerId !== undefined && !canSeeProvider(p, f.providerId)) throw notFound();
    if (f.stationId !== undefined) {
      const [st] = await db
        .select({ id: station.id })
        .from(station)
        .where(
          and(
            eq(station.id, f.stationId),
            providerScope(p, station.providerId),
            stationScope(p, station.id),
            f.providerId !== undefined ? eq(station.providerId, f.providerId) : undefined,
          ),
        );
      if (!st) throw notFound();
    }
    const [today] = await all<{ v: string }>(sql`select to_char(${ts(now)} at time zone ${tz}::text, 'YYYY-MM-DD') as v`);
    const { startDate, endDate } = periodDays(f, today!.v);
    const [bounds] = await all<{ a: string; b: string }>(
      sql`select (${startDate}::date::timestamp at time zone ${tz}::text) as a, ((${endDate}::date + 1)::timestamp at time zone ${tz}::text) as b`,
    );
    const withLedger = f.stationId === undefined && p.stationIds === null;
    const byProvider = (col: typeof settlementDay.providerId | typeof ledgerDay.providerId | typeof invoice.providerId) =>
      and(providerScope(p, col), f.providerId !== undefined ? eq(col, f.providerId) : undefined);
    const days = sql`between ${startDate}::date and ${endDate}::date`;
    const keyCol = f.groupBy === 'station' ? settlementDay.stationId : settlementDay.providerId;

    const [bills, ledgerRows, balances, invoiced, providers, stations] = await Promise.all([
      // Summed in the database, once per row of the table and once per day (a year is ≈ 110,000 station days).
      all<Bills & { key: number | null; day: string | null }>(
        sql`select ${keyCol} as key, to_char(${settlementDay.day}, 'YYYY-MM-DD') as day,
                   sum(${settlementDay.billCount})::int as "billCount", sum(${settlementDay.elecFeeCents})::float8 as "elecFeeCents",
                   sum(${settlementDay.serviceFeeCents})::float8 as "serviceFeeCents", sum(${settlementDay.reserveFeeCents})::float8 as "reserveFeeCents",
                   sum(${settlementDay.discountCents})::float8 as "discountCents", sum(${settlementDay.adjustmentCents})::float8 as "adjustmentCents",
                   sum(${settlementDay.incomeCents})::float8 as "incomeCents"
            from ${settlementDay}
            where ${and(
              byProvider(settlementDay.providerId),
              stationScope(p, settlementDay.stationId),
              f.stationId !== undefined ? eq(settlementDay.stationId, f.stationId) : undefined,
              sql`${settlementDay.day} ${days}`,
            )}
            group by grouping sets ((${keyCol}), (${settlementDay.day}))`,
      ),
      withLedger
        ? all<{ provider: number; day: string; kind: string; cents: number }>(
            sql`select ${ledgerDay.providerId} as provider, to_char(${ledgerDay.day}, 'YYYY-MM-DD') as day, ${ledgerDay.tradeType} as kind,
                       ${ledgerDay.amountCents}::float8 as cents
                from ${ledgerDay}
                where ${and(byProvider(ledgerDay.providerId), sql`${ledgerDay.day} ${days}`, sql`${ledgerDay.tradeType} in ('recharge', 'refund', 'transfer')`)}`,
          )
        : Promise.resolve([]),
      // What the accounts held at the period's end, by the ledger: every row up to its last day.
      withLedger
        ? all<{ provider: number; cents: number }>(
            sql`select ${ledgerDay.providerId} as provider, coalesce(sum(${ledgerDay.amountCents}), 0)::float8 as cents from ${ledgerDay}
                where ${and(byProvider(ledgerDay.providerId), sql`${ledgerDay.day} <= ${endDate}::date`)} group by 1`,
          )
        : Promise.resolve([]),
      withLedger
        ? all<{ provider: number; day: string; cents: number }>(
            sql`select ${invoice.providerId} as provider, to_char((${invoice.finishedAt} at time zone ${tz}::text)::date, 'YYYY-MM-DD') as day,
                       sum(${invoice.amountCents})::float8 as cents
                from ${invoice}
                where ${and(
                  byProvider(invoice.providerId),
                  eq(invoice.status, 'issued'),
                  sql`${invoice.finishedAt} >= ${ts(new Date(bounds!.a))}`,
                  sql`${invoice.finishedAt} < ${ts(new Date(bounds!.b))}`,
                )}
                group by 1, 2`,
          )
        : Promise.resolve([]),
      all<{ id: number; name: string }>(
        sql`select ${provider.id} as id, ${provider.name} as name from ${provider}
            where ${and(providerScope(p, provider.id), f.providerId !== undefined ? eq(provider.id, f.providerId) : undefined) ?? sql`true`}
            order by ${provider.name}`,
      ),
      f.groupBy === 'station'
        ? all<{ id: number; name: string }>(
            sql`select ${station.id} as id, ${station.name} as name from ${station}
                where ${
                  and(
                    providerScope(p, station.providerId),
                    stationScope(p, station.id),
                    f.providerId !== undefined ? eq(station.providerId, f.providerId) : undefined,
                    f.stationId !== undefined ? eq(station.id, f.stationId) : undefined,
                  ) ?? sql`true`
                } order by ${station.name}`,
          )
        : Promise.resolve([]),
    ]);

    const kindKey = { recharge: 'rechargeCents', refund: 'refundCents', transfer: 'transferCents' } as const;
    const totalBills = noBills();
    const totalLedger = noLedger();
    const series = new Map(
      daysOf(startDate, endDate).map((d) => [d, { incomeCents: 0, discountCents: 0, rechargeCents: 0, refundCents: 0 }]),
    );
    const rowBills = new Map<number, Bills>();
    const rowLedger = new Map<number, Ledger>();
    const billsOf = (id: number) => rowBills.get(id) ?? rowBills.set(id, noBills()).get(id)!;
    const ledgerOf = (id: number) => rowLedger.get(id) ?? rowLedger.set(id, noLedger()).get(id)!;
    for (const b of bills) {
      const { key, day, ...sums } = b;
      if (day === null) {
        addInto(totalBills, sums);
        addInto(billsOf(key!), sums);
      } else {
        const s = series.get(day);
        if (s) addInto(s, { incomeCents: sums.incomeCents, discountCents: sums.discountCents });
      }
    }
    for (const l of ledgerRows) {
      const key = kindKey[l.kind as keyof typeof kindKey];
      addInto(totalLedger, { [key]: l.cents });
      addInto(ledgerOf(l.provider), { [key]: l.cents });
      const s = series.get(l.day);
      if (s && (key === 'rechargeCents' || key === 'refundCents')) addInto(s, { [key]: l.cents });
    }
    for (const b of balances) {
      addInto(totalLedger, { outstandingCents: b.cents });
      addInto(ledgerOf(b.provider), { outstandingCents: b.cents });
    }
    for (const i of invoiced) {
      addInto(totalLedger, { invoicedCents: i.cents });
      addInto(ledgerOf(i.provider), { invoicedCents: i.cents });
    }

    const ledgerFigures = (l: Ledger | undefined): Pick<FinancialFigures, keyof Ledger> =>
      withLedger
        ? { ...noLedger(), ...l }
        : { rechargeCents: null, refundCents: null, transferCents: null, invoicedCents: null, outstandingCents: null };
    const rows: FinancialRow[] =
      f.groupBy === 'station'
        ? stations.map((s) => ({
            id: s.id,
            name: s.name,
            ...(rowBills.get(s.id) ?? noBills()),
            rechargeCents: null,
            refundCents: null,
            transferCents: null,
            invoicedCents: null,
            outstandingCents: null,
          }))
        : providers.map((x) => ({ id: x.id, name: x.name, ...(rowBills.get(x.id) ?? noBills()), ...ledgerFigures(rowLedger.get(x.id)) }));
    return {
      timeZone: tz,
      startDate,
      endDate,
      totals: { ...totalBills, ...ledgerFigures(totalLedger) },
      series: [...series].map(([date, s]) => ({
        date,
        incomeCents: s.incomeCents,
        discountCents: s.discountCents,
        rechargeCents: withLedger ? s.rechargeCents : null,
        refundCents: withLedger ? s.refundCents : null,
      })),
      rowKind: f.groupBy,
      rows,
    };
  }

  return { report };
}

export type FinancialStatsRepo = ReturnType<typeof createFinancialStatsRepo>;
