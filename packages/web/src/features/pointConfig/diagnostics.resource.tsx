import { DownloadOutlined } from '@ant-design/icons';
import { diagnosticsCreate, diagnosticsStates, type DiagnosticsDto, type DiagnosticsState, diagnosticsApi } from '@csms/contract';
import { Tag, Tooltip, Typography } from 'antd';
import i18n from 'i18next';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { downloadGet } from '../../shared/api/download';
import { feedback } from '../../shared/feedback';
import { stationOptions } from '../../shared/options/station-point-options';
import { formatBytes, formatDateTime } from '../../shared/resource/cells';
import { defineResource } from '../../shared/resource/types';
import {
  DiagnosticsPointsField,
  LocationField,
  TargetField,
  WindowField,
  type DiagnosticsTarget,
  type DiagnosticsWindow,
} from './diagnostics-inputs';

const stateColor: Record<DiagnosticsState, string> = {
  received: 'success',
  Uploaded: 'success',
  sent: 'processing',
  Uploading: 'processing',
  rejected: 'error',
  UploadFailed: 'error',
  offline: 'error',
};

/** Requests whose file may still come: the list refreshes itself while it shows one. */
export const inProgress = (r: Pick<DiagnosticsDto, 'state'>) => r.state === 'sent' || r.state === 'Uploading' || r.state === 'Uploaded';

export function DiagnosticsStateTag({ state }: { state: DiagnosticsState }) {
  const { t } = useTranslation();
  return (
    <Tag color={stateColor[state]} data-state={state}>
      {t(`enums.diagnosticsState.${state}`)}
    </Tag>
  );
}

const MINUTE = 'YYYY-MM-DD HH:mm';

/** "from ~ to" to the minute; an open end stays empty. */
const windowText = (r: Pick<DiagnosticsDto, 'startTime' | 'stopTime'>) =>
  r.startTime || r.stopTime ? `${formatDateTime(r.startTime, MINUTE)} ~ ${formatDateTime(r.stopTime, MINUTE)}`.trim() : '';

/**
 * The dialog's schema: the contract's body plus the station (it only narrows the point picker).
 * Choosing "another location" sends the address instead of a transport, which must then be typed:
 * the contract alone would take an empty one as the platform over HTTP.
 */
const requestForm = diagnosticsCreate.safeExtend({ stationId: z.number().int().positive().optional() }).superRefine((body, ctx) => {
  if (body.transport === undefined && !body.location?.trim())
    ctx.addIssue({ code: 'custom', path: ['location'], message: 'validation.required' });
});

/** The form's values as the request: the target as `transport` or `location`, the window as two instants. */
export function diagnosticsBody(values: Record<string, unknown>): Record<string, unknown> {
  const { stationId: _station, transport, location, stopTime: window, ...rest } = values;
  const body: Record<string, unknown> = { ...rest };
  if ((transport as DiagnosticsTarget | undefined) === 'location') body.location = typeof location === 'string' ? location.trim() : '';
  else body.transport = transport ?? 'http';
  const [from, to] = (window as DiagnosticsWindow) ?? [null, null];
  if (from) body.startTime = from.second(0).millisecond(0).toISOString();
  if (to) body.stopTime = to.second(0).millisecond(0).toISOString();
  return body;
}

/** How the points answered: sent, offline, refused. */
function showSummary(rows: DiagnosticsDto[]) {
  const offline = rows.filter((r) => r.state === 'offline').length;
  const rejected = rows.filter((r) => r.state === 'rejected').length;
  const sent = rows.length - offline - rejected;
  feedback.notification[offline + rejected > 0 ? 'warning' : 'success']({
    title: i18n.t('ocppLog.diagnostics.summaryTitle'),
    description: <span data-testid="diagnostics-summary">{i18n.t('ocppLog.diagnostics.summary', { sent, offline, rejected })}</span>,
  });
}

/**
 * Diagnostics (spec §3 "Diagnosis"; issue 16 item 3): GetDiagnostics to chosen points, each
 * uploading to a target of its own on the platform (HTTP, or FTP when the server's is on) or to an
 * address typed here; the charger's progress is followed and a file received is downloadable.
 */
export const diagnosticsResource = defineResource({
  name: 'diagnostics',
  api: { list: diagnosticsApi.list, get: diagnosticsApi.get, add: diagnosticsApi.add, export: diagnosticsApi.export },
  exportSource: 'diagnostics',
  formSchema: { create: requestForm },
  formWidth: 640,
  texts: { createTitle: 'ocppLog.diagnostics.requestTitle', saved: 'ocppLog.diagnostics.requested' },
  // Every field is a column (some behind the column settings): no detail view.
  hideActions: ['detail'],
  columns: [
    { key: 'id', width: 100, sorter: true, defaultHidden: true },
    { key: 'stationName', width: 150 },
    { key: 'serialNumber', width: 170 },
    { key: 'pointName', width: 130, defaultHidden: true },
    { key: 'state', width: 130, render: (v) => <DiagnosticsStateTag state={v as DiagnosticsState} /> },
    { key: 'fileName', width: 220, ellipsis: true },
    { key: 'sizeBytes', label: 'ocppLog.diagnostics.size', width: 110, render: (v) => formatBytes(v) },
    { key: 'reason', width: 150, ellipsis: true },
    {
      key: 'location',
      width: 220,
      render: (v) =>
        typeof v === 'string' && v ? (
          <Tooltip title={v}>
            <Typography.Text code ellipsis style={{ maxWidth: 200 }}>
              {v}
            </Typography.Text>
          </Tooltip>
        ) : null,
    },
    { key: 'startTime', label: 'ocppLog.diagnostics.window', width: 290, render: (_, r) => windowText(r) },
    { key: 'retries', width: 100 },
    { key: 'retryInterval', width: 150 },
    { key: 'providerName', width: 140, defaultHidden: true },
    { key: 'createdByName', width: 120 },
    { key: 'createTime', kind: 'datetime', width: 170, sorter: true },
    { key: 'reportTime', kind: 'datetime', width: 170 },
  ],
  search: [
    { key: 'serialNumber', kind: 'text' },
    { key: 'state', kind: 'select', options: diagnosticsStates.map((s) => ({ value: s, label: `enums.diagnosticsState.${s}` })) },
    { key: 'stationId', kind: 'select', remote: stationOptions },
  ],
  initialValues: () => ({ transport: 'http' }),
  form: [
    { key: 'stationId', kind: 'select', remote: stationOptions },
    { key: 'serialNumbers', kind: 'custom', render: (ctx) => <DiagnosticsPointsField {...ctx} /> },
    {
      key: 'transport',
      kind: 'custom',
      label: 'ocppLog.diagnostics.target',
      extra: () => 'ocppLog.diagnostics.targetHint',
      render: (ctx) => <TargetField {...ctx} />,
    },
    { key: 'location', kind: 'custom', extra: () => 'ocppLog.diagnostics.locationHint', render: (ctx) => <LocationField {...ctx} /> },
    // One range picker held under `stopTime`, where the contract puts "stop after start".
    {
      key: 'stopTime',
      kind: 'custom',
      label: 'ocppLog.diagnostics.window',
      extra: () => 'ocppLog.diagnostics.windowHint',
      render: (ctx) => <WindowField t={ctx.t} />,
    },
    {
      key: 'retries',
      kind: 'number',
      span: 12,
      props: { min: 0, max: 10, precision: 0 },
      extra: () => 'ocppLog.diagnostics.retriesHint',
    },
    { key: 'retryInterval', kind: 'number', span: 12, props: { min: 0, max: 86_400, precision: 0 } },
  ],
  toBody: diagnosticsBody,
  onSaved: (data) => showSummary(data as DiagnosticsDto[]),
  rowActions: [
    {
      key: 'download',
      label: 'ocppLog.diagnostics.download',
      icon: <DownloadOutlined />,
      permi: ['config:diagnostics:query'],
      hidden: (row) => row.state !== 'received',
      onClick: (row) =>
        // A failure was shown by the download helper.
        downloadGet(diagnosticsApi.download, { id: row.id }, row.fileName ?? `diagnostics-${row.id}.log`).catch(() => undefined),
    },
  ],
});
