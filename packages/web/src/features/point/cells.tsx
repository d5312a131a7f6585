import type { ConnectorDto, PointStatus } from '@csms/contract';
import { InputNumber, Space, Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { ConnectorIcon } from '../../shared/icons/connectors';

const statusColor: Record<PointStatus, string> = {
  available: 'success',
  charging: 'processing',
  faulted: 'error',
  unavailable: 'warning',
  offline: 'default',
};
/** Icon colours of the same statuses (antd's palette). */
const statusInk: Record<PointStatus, string> = {
  available: '#52c41a',
  charging: '#1677ff',
  faulted: '#ff4d4f',
  unavailable: '#faad14',
  offline: '#8c8c8c',
};

/** A point's or connector's status (spec §4) as a coloured tag. */
export function PointStatusTag({ status }: { status: PointStatus }) {
  const { t } = useTranslation();
  return <Tag color={statusColor[status]}>{t(`enums.pointStatus.${status}`)}</Tag>;
}

/** The serial number; an auto-registered point waiting for placement carries a tag. */
export function SerialNumber({ serial, needsPlacement }: { serial: string; needsPlacement: boolean }) {
  const { t } = useTranslation();
  return (
    <Space size={4}>
      {serial}
      {needsPlacement && <Tag color="orange">{t('point.needsPlacement')}</Tag>}
    </Space>
  );
}

/** The connectors as their type icons, coloured by status, each with its number; details on hover. */
export function ConnectorList({ connectors }: { connectors: ConnectorDto[] }) {
  const { t } = useTranslation();
  return (
    <Space size={10} wrap>
      {connectors.map((c) => {
        const typeLabel = t(`enums.connectorType.${c.type}`);
        const details = [
          `#${c.connectorNo}${c.connectorName ? ` ${c.connectorName}` : ''}`,
          typeLabel,
          t(`enums.connectorStandard.${c.standard}`),
          t(`enums.pointStatus.${c.status}`),
        ].join(' · ');
        return (
          <Tooltip key={c.connectorNo} title={details}>
            <span data-testid={`connector-${c.connectorNo}`} style={{ color: statusInk[c.status], whiteSpace: 'nowrap' }}>
              <ConnectorIcon type={c.type} title={typeLabel} size={22} />
              <sub style={{ marginLeft: 1 }}>{c.connectorNo}</sub>
            </span>
          </Tooltip>
        );
      })}
    </Space>
  );
}

/** Watts shown as kilowatts (the column's label names the unit). */
export function Kw({ w }: { w: number | null | undefined }) {
  const { i18n } = useTranslation();
  if (w === null || w === undefined) return null;
  return <>{(w / 1000).toLocaleString(i18n.language, { maximumFractionDigits: 3 })}</>;
}

/** Rated power typed in kW, kept in W (the contract's unit). Form.Item injects value and onChange. */
export function KwInput({
  id,
  value,
  onChange,
  placeholder,
}: {
  id?: string;
  value?: number;
  onChange?: (w: number | undefined) => void;
  placeholder?: string;
}) {
  const { t } = useTranslation();
  return (
    <InputNumber<number>
      id={id}
      style={{ width: '100%' }}
      min={0.001}
      max={5000}
      precision={3}
      placeholder={placeholder}
      suffix={t('point.ratedPowerUnit')}
      value={value === undefined || value === null ? null : value / 1000}
      onChange={(kw) => onChange?.(kw === null || kw === undefined ? undefined : Math.round(kw * 1000))}
    />
  );
}
