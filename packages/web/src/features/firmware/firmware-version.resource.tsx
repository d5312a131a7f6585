import { CopyOutlined, DownloadOutlined } from '@ant-design/icons';
import { type FirmwareVersionDto, firmwareVersionApi } from '@csms/contract';
import { Tooltip, Typography } from 'antd';
import i18n from 'i18next';
import { downloadGet } from '../../shared/api/download';
import { feedback } from '../../shared/feedback';
import { formatBytes } from '../../shared/resource/cells';
import { defineResource } from '../../shared/resource/types';

/** The first hex digits, the whole digest in the tooltip and on the copy button. */
function Sha256({ value }: { value: string }) {
  return (
    <Tooltip title={value}>
      <Typography.Text code copyable={{ text: value }} data-testid="sha256">
        {value.slice(0, 12)}
      </Typography.Text>
    </Tooltip>
  );
}

/** The URL chargers are sent: to the clipboard, or shown to copy by hand where the browser keeps the clipboard closed (plain http). */
export async function copyLocation(location: string) {
  try {
    await navigator.clipboard.writeText(location);
    feedback.message.success(i18n.t('firmware.urlCopied'));
  } catch {
    feedback.modal.info({
      title: i18n.t('firmware.urlTitle'),
      width: 640,
      okText: i18n.t('common.close'),
      content: (
        <>
          <Typography.Paragraph copyable code style={{ wordBreak: 'break-all' }} data-testid="firmware-location">
            {location}
          </Typography.Paragraph>
          <Typography.Text type="secondary">{i18n.t('firmware.urlHint')}</Typography.Text>
        </>
      ),
    });
  }
}

/**
 * Version management (spec §3 "Version: version, upload time, uploader, note, application type,
 * communication type"; issue 16 item 1): the firmware packages chargers are upgraded with. A package
 * is uploaded in its own dialog (multipart, with progress: `UploadDialog`); here it is listed,
 * edited (its words only), removed, downloaded, and its charger URL copied.
 */
export const firmwareVersionResource = defineResource({
  name: 'firmwareVersion',
  api: {
    list: firmwareVersionApi.list,
    get: firmwareVersionApi.get,
    edit: firmwareVersionApi.edit,
    remove: firmwareVersionApi.remove,
  },
  columns: [
    { key: 'id', width: 100, sorter: true, defaultHidden: true },
    { key: 'version', width: 120, sorter: true },
    { key: 'applicationType', width: 130 },
    { key: 'communicationType', width: 130 },
    { key: 'fileName', width: 180, ellipsis: true },
    { key: 'sizeBytes', label: 'firmware.size', width: 110, sorter: true, render: (v) => formatBytes(v) },
    { key: 'sha256', width: 160, render: (v) => (typeof v === 'string' && v ? <Sha256 value={v} /> : null) },
    { key: 'note', width: 160, ellipsis: true },
    { key: 'uploaderName', width: 120 },
    { key: 'uploadTime', kind: 'datetime', width: 170, sorter: true },
    { key: 'providerName', width: 140, defaultHidden: true },
  ],
  search: [
    { key: 'version', kind: 'text' },
    { key: 'applicationType', kind: 'text' },
    { key: 'communicationType', kind: 'text' },
  ],
  form: [
    { key: 'version', kind: 'text' },
    { key: 'applicationType', kind: 'text' },
    { key: 'communicationType', kind: 'text' },
    { key: 'note', kind: 'textarea' },
  ],
  // Everything worth seeing is a column; the URL has its own action.
  hideActions: ['detail'],
  rowActions: [
    {
      key: 'download',
      label: 'firmware.download',
      icon: <DownloadOutlined />,
      permi: ['config:firmwareVersion:query'],
      onClick: (row) => downloadGet(firmwareVersionApi.download, { id: row.id }, row.fileName).catch(() => undefined),
    },
    {
      key: 'copyUrl',
      label: 'firmware.copyUrl',
      icon: <CopyOutlined />,
      onClick: (row: FirmwareVersionDto) => copyLocation(row.location),
    },
  ],
});
