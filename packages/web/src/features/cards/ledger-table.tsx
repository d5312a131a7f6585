import type { LedgerRow } from '@csms/contract';
import { Table } from 'antd';
import type { ReactNode } from 'react';
import { DictTag } from '../../shared/dict/DictTag';
import { formatDateTime } from '../../shared/resource/cells';
import { useResourceText } from '../../shared/resource/labels';
import { formatMoney } from '../../shared/format/units';

/** A card's latest balance changes (the detail view): every row says before, amount and after. */
export function LedgerTable({ rows }: { rows: LedgerRow[] | undefined }) {
  const text = useResourceText('rechargeRecord');
  const col = (key: keyof LedgerRow, render?: (row: LedgerRow) => ReactNode) => ({
    key,
    dataIndex: key,
    title: text.label(key),
    render: render ? (_: unknown, row: LedgerRow) => render(row) : undefined,
  });
  // Width 0 with min-width 100%: the table takes the cell's width instead of widening the cell,
  // which squeezed the detail's label column to one character a line (zh).
  return (
    <div style={{ width: 0, minWidth: '100%' }}>
      <Table<LedgerRow>
        size="small"
        rowKey="id"
        pagination={false}
        scroll={{ x: 'max-content', y: 300 }}
        locale={{ emptyText: text.t('card.noLedger') }}
        dataSource={rows ?? []}
        columns={[
          col('createTime', (r) => formatDateTime(r.createTime)),
          col('tradeType', (r) => <DictTag type="tradeType" value={r.tradeType} />),
          col('amountCents', (r) => formatMoney(r.amountCents)),
          col('balanceBeforeCents', (r) => formatMoney(r.balanceBeforeCents)),
          col('balanceAfterCents', (r) => formatMoney(r.balanceAfterCents)),
          col('operatorName'),
          col('thirdPartyTxnId'),
        ]}
      />
    </div>
  );
}
