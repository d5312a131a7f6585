import { UnorderedListOutlined } from '@ant-design/icons';
import { firmwareUpgradeCreate, type FirmwareUpgradeDto, firmwareUpgradeApi } from '@csms/contract';
import { Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { z } from 'zod';
import { stationOptions } from '../../shared/options/station-point-options';
import { defineResource } from '../../shared/resource/types';
import { StateCounts } from './state-tags';
import {
  LocationField,
  PointFilterField,
  SourceField,
  UpgradePointsField,
  VersionField,
  WaveTimeoutField,
  type Source,
} from './upgrade-inputs';

/**
 * The dialog's schema: the contract's fields, the station, model and current version (they only
 * narrow the point picker) and the choice of source. The contract's rules between fields run on the body even before points
 * are chosen (zod skips an object's refinements while a required key is missing), and in the URL
 * mode its "choose a package or a URL" lands on the URL, the field there is to fill.
 */
const { serialNumbers } = firmwareUpgradeCreate.shape;
const upgradeForm = z
  .object({
    ...firmwareUpgradeCreate.shape,
    serialNumbers: serialNumbers.optional(),
    stationId: z.number().int().positive().optional(),
    pointModel: z.string().optional(),
    pointFirmware: z.string().optional(),
    source: z.enum(['version', 'location']).optional(),
  })
  .superRefine((body, ctx) => {
    const points = serialNumbers.safeParse(body.serialNumbers);
    if (!points.success) for (const issue of points.error.issues) ctx.addIssue({ ...issue, path: ['serialNumbers', ...issue.path] });
    const result = firmwareUpgradeCreate.safeParse({ ...body, serialNumbers: points.success ? points.data : ['-'] });
    if (result.success) return;
    const byUrl = 'location' in body;
    for (const issue of result.error.issues) {
      if (issue.code !== 'custom') continue;
      // "More than the points chosen" waits for the points.
      if (!points.success && issue.message === 'validation.waveSizeTooBig') continue;
      ctx.addIssue({ ...issue, path: byUrl && issue.path[0] === 'versionId' ? ['location'] : issue.path });
    }
  });

/** Nothing before today; today's past hours the server refuses with its own message. */
const beforeToday = (d: Dayjs) => d.isBefore(dayjs().startOf('day'));

const retriesText = (r: Pick<FirmwareUpgradeDto, 'retries' | 'retryInterval'>) =>
  r.retries === null && r.retryInterval === null ? '' : `${r.retries ?? '-'} / ${r.retryInterval ?? '-'}`;

export interface FirmwareUpgradeActions {
  points: (row: FirmwareUpgradeDto) => void;
}

/**
 * Firmware upgrades (spec §3 "Firmware"; issue 16 item 2): UpdateFirmware to chosen points with a
 * package of version management or a typed URL, each point followed to the version it reports at
 * its next boot. The row counts its points per state; its points open in `UpgradePointsDrawer`.
 */
export function firmwareUpgradeResource(actions: FirmwareUpgradeActions) {
  return defineResource({
    name: 'firmwareUpgrade',
    api: { list: firmwareUpgradeApi.list, get: firmwareUpgradeApi.get, add: firmwareUpgradeApi.add, export: firmwareUpgradeApi.export },
    exportSource: 'firmwareUpgrade',
    formSchema: { create: upgradeForm },
    formWidth: 640,
    texts: { createTitle: 'firmware.newUpgradeTitle', saved: 'firmware.created' },
    columns: [
      { key: 'id', width: 90, sorter: true },
      {
        key: 'version',
        width: 160,
        render: (v, r) =>
          typeof v === 'string' && v ? (
            v
          ) : (
            <Typography.Text code ellipsis={{ tooltip: r.location }} style={{ maxWidth: 140 }}>
              {r.location}
            </Typography.Text>
          ),
      },
      { key: 'counts', width: 260, render: (v) => <StateCounts counts={(v ?? {}) as Record<string, number>} /> },
      { key: 'total', width: 80 },
      { key: 'currentWave', width: 110, render: (_, r) => (r.currentWave === null ? '' : `${r.currentWave} / ${r.waveCount}`) },
      { key: 'waveSize', width: 130, defaultHidden: true },
      { key: 'communicationType', width: 150, defaultHidden: true },
      { key: 'retrieveDate', kind: 'datetime', width: 170, sorter: true },
      { key: 'retries', label: 'firmware.retriesInterval', width: 130, render: (_, r) => retriesText(r) },
      { key: 'description', width: 150, ellipsis: true },
      { key: 'uploaderName', width: 120 },
      { key: 'createTime', kind: 'datetime', width: 170, sorter: true },
      { key: 'reportTime', kind: 'datetime', width: 170 },
      { key: 'providerName', width: 140, defaultHidden: true },
      { key: 'location', hideInTable: true, wide: true },
    ],
    search: [{ key: 'version', kind: 'text' }],
    initialValues: () => ({ source: 'version' }),
    form: [
      { key: 'stationId', kind: 'select', remote: stationOptions },
      {
        key: 'pointModel',
        kind: 'custom',
        label: 'firmware.pointModel',
        span: 12,
        render: (ctx) => <PointFilterField {...ctx} of="pointModel" />,
      },
      {
        key: 'pointFirmware',
        kind: 'custom',
        label: 'firmware.pointFirmware',
        span: 12,
        render: (ctx) => <PointFilterField {...ctx} of="pointFirmware" />,
      },
      { key: 'serialNumbers', kind: 'custom', required: true, render: (ctx) => <UpgradePointsField {...ctx} /> },
      { key: 'source', kind: 'custom', label: 'firmware.source', render: (ctx) => <SourceField {...ctx} /> },
      { key: 'versionId', kind: 'custom', render: (ctx) => <VersionField {...ctx} /> },
      { key: 'location', kind: 'custom', extra: () => 'firmware.locationHint', render: (ctx) => <LocationField {...ctx} /> },
      {
        key: 'retrieveDate',
        kind: 'datetime',
        extra: () => 'firmware.retrieveHint',
        props: { format: 'YYYY-MM-DD HH:mm', showTime: { format: 'HH:mm' }, disabledDate: beforeToday },
      },
      { key: 'retries', kind: 'number', props: { min: 0, max: 10, precision: 0 }, extra: () => 'firmware.retriesHint' },
      { key: 'retryInterval', kind: 'number', props: { min: 0, max: 86_400, precision: 0 } },
      { key: 'description', kind: 'textarea' },
      // No bounds on the input: a size out of range gets the contract's message, not a silent correction.
      { key: 'waveSize', kind: 'number', section: 'firmware.waves', extra: () => 'firmware.wavesHint', props: { precision: 0 } },
      {
        key: 'waveTimeoutMinutes',
        kind: 'custom',
        extra: () => 'firmware.waveTimeoutHint',
        render: (ctx) => <WaveTimeoutField {...ctx} />,
      },
    ],
    // The package or the URL, as chosen; the station and the picker's filters stay here, and a time limit without waves too.
    toBody: (values) => {
      const { stationId: _station, pointModel: _model, pointFirmware: _firmware, source, versionId, location, ...rest } = values;
      if (rest.waveSize === undefined) delete rest.waveTimeoutMinutes;
      return (source as Source | undefined) === 'location' ? { ...rest, location: location ?? '' } : { ...rest, versionId };
    },
    rowActions: [
      {
        key: 'points',
        label: 'firmware.points',
        icon: <UnorderedListOutlined />,
        permi: ['config:firmwareUpgrade:query'],
        onClick: (row) => actions.points(row),
      },
    ],
  });
}
