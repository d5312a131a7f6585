import type { DayZone } from '../../lib/day-zone.js';
import { type AlarmRecordDto, type alarmRecordApi, type Lang } from '@csms/contract';
import type { Config } from '../../config.js';
import { notFound } from '../../http/errors.js';
import type { Handlers } from '../../http/mount.js';
import type { EventHub } from '../../lib/events.js';
import type { ExportColumns } from '../../lib/export-config.js';
import { keysetBatches, streamExport, type ExportColumn } from '../../lib/export.js';
import { enumLabel, hms } from '../../lib/units.js';
import type { AlarmRecordRepo } from './alarmRecord.repo.js';

interface Deps {
  repo: AlarmRecordRepo;
  events: EventHub;
  config: Pick<Config, 'exportMaxRows'>;
  columns: ExportColumns;
  dayZone: DayZone;
}

/** Export cells with enum values in the caller's words; an unknown error code stays as the charger sent it. */
export function alarmExportColumns(lang: Lang): ExportColumn<AlarmRecordDto>[] {
  const label = (kind: string, v: string) => enumLabel(lang, kind, v);
  return [
    { key: 'id' },
    { key: 'occurTime' },
    { key: 'clearTime' },
    { key: 'state', value: (r) => label('alarmState', r.state) },
    { key: 'durationSec', value: (r) => hms(r.durationSec) },
    { key: 'level', value: (r) => label('alarmLevel', r.level) },
    { key: 'errorCode', value: (r) => label('chargePointErrorCode', r.errorCode) },
    { key: 'info' },
    { key: 'vendorErrorCode' },
    { key: 'status' },
    { key: 'stationName' },
    { key: 'serialNumber' },
    { key: 'pointName' },
    { key: 'connectorNo' },
    { key: 'providerName' },
  ];
}

export function alarmRecordRoutes({ repo, events, config, columns, dayZone }: Deps): Handlers<typeof alarmRecordApi> {
  return {
    async list({ query, ctx }) {
      const { page, limit, ...filter } = query;
      return repo.list(ctx.principal, await dayZone.bound(ctx.principal, filter), page, limit);
    },
    async get({ query, ctx }) {
      return (await repo.get(ctx.principal, query.id)) ?? Promise.reject(notFound());
    },
    async export({ body, ctx, reply }) {
      const p = ctx.principal;
      const { format, exportId, ...days } = body;
      const filter = await dayZone.bound(p, days);
      await streamExport(reply, {
        lang: ctx.lang,
        resource: 'alarmRecord',
        fileBase: 'alarm_record',
        format,
        columns: await columns.columnsFor('alarmRecord', alarmExportColumns(ctx.lang), ctx),
        total: await repo.count(p, filter),
        batches: keysetBatches((after, size) => repo.page(p, filter, after, size)),
        maxRows: config.exportMaxRows,
        progress: { hub: events, userId: p.userId, exportId },
      });
    },
  };
}
