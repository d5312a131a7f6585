import { EditOutlined, TeamOutlined } from '@ant-design/icons';
import { priceTiers, type PriceRowDto, type PriceTier, priceApi } from '@csms/contract';
import { Tag, Typography } from 'antd';
import { formatMoney, formatUnitPrice } from '../../shared/format/units';
import { defineResource } from '../../shared/resource/types';
import type { ColumnDef } from '../../shared/resource/types';
import { TIER_COLORS } from './slots';
import { TierBar } from './TierBar';

type Go = (path: string) => void;
type T = (key: string) => string;

export const STATION_PRICE_EDIT = '/financialManagement/electricityPriceEdit';
export const GROUP_PRICE_EDIT = '/financialManagement/groupElectricityPriceEdit';

/** One tier's electricity and service fee in $/kWh, 4 decimals; nothing before the first version. */
function tierColumn(tier: PriceTier, t: T): ColumnDef<PriceRowDto> {
  return {
    key: `${tier}Elec`,
    label: `price.columns.${tier}`,
    width: 120,
    render: (_, row) =>
      row.currentId === null ? (
        ''
      ) : (
        <div
          style={{ borderInlineStart: `3px solid ${TIER_COLORS[tier]}`, paddingInlineStart: 6, textAlign: 'start', whiteSpace: 'nowrap' }}
        >
          <Typography.Text>{`${t('price.elecShort')} ${formatUnitPrice(row[`${tier}Elec`])}`}</Typography.Text>
          <br />
          <Typography.Text type="secondary">{`${t('price.serviceShort')} ${formatUnitPrice(row[`${tier}Service`])}`}</Typography.Text>
        </div>
      ),
  };
}

function columns(t: T, group: boolean): ColumnDef<PriceRowDto>[] {
  return [
    { key: 'stationName', width: 170, fixed: 'left', ellipsis: true },
    ...(group ? [{ key: 'groupName', width: 140, ellipsis: true } as ColumnDef<PriceRowDto>] : []),
    {
      key: 'slots',
      label: 'price.columns.slots',
      width: 220,
      render: (_, row) => (row.slots ? <TierBar slots={row.slots} /> : <Tag>{t('price.notSet')}</Tag>),
    },
    ...priceTiers.map((tier) => tierColumn(tier, t)),
    {
      key: 'reserveFeeCents',
      label: 'price.columns.reserve',
      width: 150,
      render: (v) => formatMoney(v),
    },
    { key: 'effectiveFrom', kind: 'datetime', width: 170 },
    { key: 'upcomingFrom', kind: 'datetime', width: 170 },
    { key: 'versionCount', width: 90 },
    { key: 'providerName', width: 140, ellipsis: true },
    { key: 'timeZone', width: 140, defaultHidden: true },
  ];
}

const editQuery = (row: PriceRowDto) => `stationId=${row.stationId}${row.groupId === null ? '' : `&groupId=${row.groupId}`}`;

/** The station prices tab: every station in the caller's scope, priced or not. */
export function stationPriceResource(go: Go, t: T) {
  return defineResource({
    name: 'price',
    api: { list: priceApi.list },
    rowKey: 'stationId',
    columns: columns(t, false),
    search: [{ key: 'stationName', kind: 'text' }],
    hideActions: ['detail'],
    rowActions: [
      {
        key: 'setPrice',
        label: 'price.setPrice',
        icon: <EditOutlined />,
        permi: ['finance:price:query'],
        onClick: (row) => go(`${STATION_PRICE_EDIT}?${editQuery(row)}`),
      },
      {
        key: 'groupPrice',
        label: 'price.groupPrice',
        icon: <TeamOutlined />,
        permi: ['finance:price:query'],
        onClick: (row) => go(`${GROUP_PRICE_EDIT}?stationId=${row.stationId}`),
      },
    ],
  });
}

/** The group prices tab: station × user group pairs that have a group electricity price. */
export function groupPriceResource(go: Go, t: T) {
  return defineResource({
    name: 'price',
    api: { list: priceApi.groupList },
    rowId: (row) => `${row.stationId}:${row.groupId}`,
    columns: columns(t, true),
    search: [
      { key: 'stationName', kind: 'text' },
      { key: 'groupName', kind: 'text' },
    ],
    hideActions: ['detail'],
    rowActions: [
      {
        key: 'setPrice',
        label: 'common.edit',
        icon: <EditOutlined />,
        permi: ['finance:price:query'],
        onClick: (row) => go(`${GROUP_PRICE_EDIT}?${editQuery(row)}`),
      },
    ],
  });
}
