import { type AlarmRecordDto, alarmRecordApi } from '@csms/contract';
import { StationTime } from '../../shared/format/StationTime';
import { formatDuration } from '../../shared/format/units';
import { defineResource } from '../../shared/resource/types';
import { pointOptions, stationOptions } from '../../shared/options/station-point-options';

/** Times on the alarm's station's clock, whatever the browser's zone. */
const stationTime = (v: unknown, row: AlarmRecordDto) => <StationTime at={v} zone={row.stationTimeZone} />;

/** Alarm records (spec §1 Records): faults from status notifications, serious when the connector went Faulted. */
export const alarmRecordResource = defineResource({
  name: 'alarmRecord',
  api: { list: alarmRecordApi.list, get: alarmRecordApi.get, export: alarmRecordApi.export },
  exportSource: 'alarmRecord',
  columns: [
    { key: 'id', width: 90, defaultHidden: true },
    { key: 'occurTime', kind: 'datetime', width: 170, sorter: true, render: stationTime },
    { key: 'level', dict: 'alarmLevel', width: 100 },
    { key: 'errorCode', dict: 'chargePointErrorCode', width: 170 },
    { key: 'info', width: 160, ellipsis: true },
    { key: 'vendorErrorCode', width: 140, defaultHidden: true },
    { key: 'stationName', width: 150, ellipsis: true },
    { key: 'serialNumber', width: 150 },
    { key: 'pointName', width: 140, defaultHidden: true },
    { key: 'connectorNo', width: 110 },
    { key: 'status', width: 110, defaultHidden: true },
    { key: 'state', dict: 'alarmState', width: 100 },
    { key: 'clearTime', kind: 'datetime', width: 170, render: stationTime },
    { key: 'durationSec', width: 110, render: (v) => formatDuration(v) },
    { key: 'providerName', width: 140, defaultHidden: true },
  ],
  search: [
    { key: 'timeRange', kind: 'dateRange', keys: ['startTime', 'endTime'], zoneDays: true },
    { key: 'stationId', kind: 'select', remote: stationOptions },
    { key: 'pointId', kind: 'select', remote: pointOptions },
    { key: 'level', kind: 'dict', dict: 'alarmLevel' },
    { key: 'errorCode', kind: 'text' },
    { key: 'state', kind: 'dict', dict: 'alarmState' },
  ],
});
