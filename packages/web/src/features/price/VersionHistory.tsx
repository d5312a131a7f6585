import { DeleteOutlined, EditOutlined, LockOutlined } from '@ant-design/icons';
import { priceTiers, type PriceVersionDto } from '@csms/contract';
import { Button, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../shared/auth/useAuth';
import { formatMoney, formatUnitPrice } from '../../shared/format/units';
import { wallClock } from '../../shared/format/zone-time';
import { formatDateTime } from '../../shared/resource/cells';
import { TIER_COLORS } from './slots';
import { TierBar } from './TierBar';

export interface VersionHistoryProps {
  versions: PriceVersionDto[];
  currentId: number | null;
  timeZone: string;
  /** The version in the form, highlighted. */
  editingId: number | null;
  onEdit: (v: PriceVersionDto) => void;
  onRemove: (v: PriceVersionDto) => void;
}

/** Every version of a price, newest first: which is in force, which waits, which bills use (locked). */
export function VersionHistory({ versions, currentId, timeZone, editingId, onEdit, onRemove }: VersionHistoryProps) {
  const { t } = useTranslation();
  const { hasPermi } = useAuth();
  const canEdit = hasPermi(['finance:price:edit', 'finance:price:add']);
  const canRemove = hasPermi('finance:price:remove');
  const now = Date.now();
  return (
    <Table<PriceVersionDto>
      rowKey="id"
      size="small"
      pagination={false}
      dataSource={versions}
      scroll={{ x: 1270 }}
      locale={{ emptyText: t('price.page.noVersions') }}
      rowClassName={(v) => (v.id === editingId ? 'ant-table-row-selected' : '')}
      columns={[
        {
          key: 'effectiveFrom',
          title: t('fields.price.effectiveFrom'),
          width: 210,
          render: (_, v) => (
            <Space size={4} wrap>
              <span>{wallClock(v.effectiveFrom, timeZone).slice(0, 16)}</span>
              {v.id === currentId && <Tag color="green">{t('price.page.current')}</Tag>}
              {new Date(v.effectiveFrom).getTime() > now && <Tag color="blue">{t('price.page.upcoming')}</Tag>}
            </Space>
          ),
        },
        ...priceTiers.map((tier) => ({
          key: tier,
          title: (
            <Space size={4}>
              <span aria-hidden style={{ display: 'inline-block', width: 8, height: 8, borderRadius: 2, background: TIER_COLORS[tier] }} />
              {t(`price.columns.${tier}`)}
            </Space>
          ),
          width: 140,
          render: (_: unknown, v: PriceVersionDto) => (
            <Typography.Text style={{ whiteSpace: 'nowrap' }}>
              {formatUnitPrice(v[`${tier}Elec`])} / {formatUnitPrice(v[`${tier}Service`])}
            </Typography.Text>
          ),
        })),
        { key: 'reserve', title: t('price.columns.reserve'), width: 110, render: (_, v) => formatMoney(v.reserveFeeCents) },
        { key: 'slots', title: t('price.columns.slots'), width: 170, render: (_, v) => <TierBar slots={v.slots} width={144} /> },
        {
          key: 'used',
          title: t('fields.price.billedCount'),
          width: 110,
          render: (_, v) =>
            v.used ? (
              <Tooltip title={t('price.page.locked')}>
                <Space size={4} aria-label={t('price.page.locked')} data-testid="version-locked">
                  <LockOutlined />
                  {v.billedCount}
                </Space>
              </Tooltip>
            ) : (
              v.billedCount
            ),
        },
        {
          key: 'by',
          title: t('fields.price.createdByName'),
          width: 150,
          render: (_, v) => (
            <Tooltip title={formatDateTime(v.createTime)}>
              <span>{v.createdByName ?? ''}</span>
            </Tooltip>
          ),
        },
        {
          key: 'actions',
          title: t('common.actions'),
          width: 150,
          fixed: 'right',
          render: (_, v) => (
            <Space size={0}>
              {canEdit && (
                <Button type="link" size="small" icon={<EditOutlined />} onClick={() => onEdit(v)}>
                  {t('common.edit')}
                </Button>
              )}
              {canRemove && !v.used && (
                <Button type="link" size="small" danger icon={<DeleteOutlined />} onClick={() => onRemove(v)}>
                  {t('common.delete')}
                </Button>
              )}
            </Space>
          ),
        },
      ]}
    />
  );
}
