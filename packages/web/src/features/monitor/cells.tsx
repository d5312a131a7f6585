import { pointStatuses, type ConnectorState, type ExternalLimitState, type PointStatus, type StationState } from '@csms/contract';
import { Space, Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDuration, formatKw } from '../../shared/format/units';
import { formatDateTime } from '../../shared/resource/cells';
import { useNow } from './clock';

export const statusColor: Record<PointStatus, string> = {
  available: 'success',
  charging: 'processing',
  unavailable: 'warning',
  faulted: 'error',
  offline: 'default',
};

/** A point's or connector's status in the spec's five words. */
export function StatusTag({ status }: { status: PointStatus }) {
  const { t } = useTranslation();
  return <Tag color={statusColor[status]}>{t(`enums.pointStatus.${status}`)}</Tag>;
}

/** A station's connectors counted by status, as tags. */
export function StationConnectors({ counts }: { counts: StationState }) {
  const { t } = useTranslation();
  return (
    <Space size={4} wrap>
      {pointStatuses.map((status) => (
        <Tag
          key={status}
          color={counts[status] > 0 ? statusColor[status] : undefined}
          data-testid={`station-${counts.stationId}-${status}`}
        >
          {t(`enums.pointStatus.${status}`)} {counts[status]}
        </Tag>
      ))}
    </Space>
  );
}

/** Connectors as status tags; the tooltip shows what the charger said (OCPP status and error code). */
export function ConnectorTags({ serialNumber, connectors }: { serialNumber: string; connectors: ConnectorState[] }) {
  const { t } = useTranslation();
  if (connectors.length === 0) return <span>{t('monitor.noConnectors')}</span>;
  return (
    <Space size={2} orientation="vertical">
      {connectors.map((c) => {
        const said = [
          c.ocppStatus && t(`enums.ocppStatus.${c.ocppStatus}`),
          c.errorCode && c.errorCode !== 'NoError' ? c.errorCode : null,
          c.info,
          c.reservation &&
            t('monitor.reservedFor', {
              id: c.reservation.id,
              account: c.reservation.chargeUserAccount,
              expiry: formatDateTime(c.reservation.expiryTime),
            }),
        ]
          .filter(Boolean)
          .join(' · ');
        const tag = (
          <Tooltip title={said || undefined}>
            <Tag
              color={statusColor[c.status]}
              data-testid={`connector-${serialNumber}-${c.connectorNo}`}
              data-status={c.status}
              data-reservation={c.reservation?.id}
            >
              {t('monitor.connectorShort', { n: c.connectorNo })} {t(`enums.pointStatus.${c.status}`)}
            </Tag>
          </Tooltip>
        );
        if (!c.externalLimit) return <span key={c.connectorNo}>{tag}</span>;
        return (
          <Space key={c.connectorNo} size={2}>
            {tag}
            <ExternalLimitTag limit={c.externalLimit} testId={`limit-${serialNumber}-${c.connectorNo}`} />
          </Space>
        );
      })}
    </Space>
  );
}

/** A limit an outside system (energy manager, grid operator) put on the connector, as its charger reported it. */
function ExternalLimitTag({ limit, testId }: { limit: ExternalLimitState; testId: string }) {
  const { t } = useTranslation();
  const source = t(`enums.chargingLimitSource.${limit.source}`);
  const detail =
    t('monitor.externalLimitDetail', {
      source,
      power: limit.limitW === null ? t('monitor.externalLimitAny') : t('monitor.kw', { value: formatKw(limit.limitW) }),
      since: formatDateTime(limit.reportedAt),
    }) + (limit.gridCritical ? t('monitor.gridCritical') : '');
  return (
    <Tooltip title={detail}>
      <Tag color={limit.gridCritical ? 'error' : 'warning'} data-testid={testId}>
        {limit.limitW === null ? t('monitor.externalLimitNoPower') : t('monitor.externalLimit', { power: formatKw(limit.limitW) })}
      </Tag>
    </Tooltip>
  );
}

/** Online or offline. */
export function OnlineTag({ online }: { online: boolean }) {
  const { t } = useTranslation();
  return <Tag color={online ? 'success' : 'default'}>{t(online ? 'enums.statusCount.connected' : 'enums.statusCount.offline')}</Tag>;
}

/** Time since `since` as H:MM:SS (as the records show durations), ticking every second. */
export function Elapsed({ since }: { since: string }) {
  const now = useNow();
  return <span>{formatDuration((now - Date.parse(since)) / 1000)}</span>;
}
