import { DeleteOutlined, FileSearchOutlined, PlusOutlined } from '@ant-design/icons';
import {
  TRANSFER_MAX_ALLOCATIONS,
  type InvoiceItemDto,
  type InvoiceStatus,
  type TransferAllocationDto,
  type TransferState,
  type TransferTargetKind,
  invoiceApi,
} from '@csms/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Flex, Form, Segmented, Table, Tag, Typography } from 'antd';
import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../shared/api/client';
import { formatMoney } from '../../shared/format/units';
import { cardOptions } from '../../shared/options/card-options';
import { chargeUserOptions } from '../../shared/options/charge-user-options';
import { formatDateTime } from '../../shared/resource/cells';
import { RemoteSelect } from '../../shared/resource/inputs';
import { fileUrl } from '../../shared/upload/rules';
import { MoneyInput } from '../../shared/resource/money-input';
import type { FormFieldCtx } from '../../shared/resource/types';

const transferColor: Record<TransferState, string> = { registered: 'processing', confirmed: 'success', rejected: 'error' };
const invoiceColor: Record<InvoiceStatus, string> = { applied: 'processing', issued: 'success', rejected: 'error' };

export function TransferStateTag({ state }: { state: TransferState }) {
  const { t } = useTranslation();
  return (
    <Tag color={transferColor[state]} data-state={state}>
      {t(`enums.transferState.${state}`)}
    </Tag>
  );
}

export function InvoiceStatusTag({ status }: { status: InvoiceStatus }) {
  const { t } = useTranslation();
  return (
    <Tag color={invoiceColor[status]} data-status={status}>
      {t(`enums.invoiceStatus.${status}`)}
    </Tag>
  );
}

/** A transfer's stored receipt (a scanned PDF or a photo): a link that opens it, named by what it is rather than its stored name. */
export function ReceiptLink({ url }: { url: string | null }) {
  const { t } = useTranslation();
  if (!url) return null;
  return (
    <a href={fileUrl(url)} target="_blank" rel="noreferrer" data-testid="receipt-link">
      <FileSearchOutlined /> {t('corporateTransfer.openReceipt')}
    </a>
  );
}

/** A value of one of the finance vocabularies, in the user's language. */
export function EnumText({ group, value }: { group: string; value: string }) {
  const { t } = useTranslation();
  return <>{t(`enums.${group}.${value}`)}</>;
}

/** One allocation as edited: what it credits (a charge user's account balance or a card), which one, and how much. */
type Line = { kind?: TransferTargetKind; chargeUserId?: number; cardId?: number; amountCents?: number | null };
const kindOf = (l: Line): TransferTargetKind => l.kind ?? (l.cardId !== undefined ? 'card' : 'mobile');

/**
 * How a transfer is split: per line a charge user's balance or a card of the chosen provider, and an amount;
 * the sum is shown against the amount. The line's `kind` only steers the form (the contract drops it).
 */
export function AllocationsField({
  form,
  t,
  value,
  onChange,
  id,
}: FormFieldCtx & { value?: Line[]; onChange?: (v: Line[]) => void; id?: string }) {
  const providerId = Form.useWatch('providerId', form) as number | undefined;
  const amount = Form.useWatch('amountCents', form) as number | undefined;
  const remote = useMemo(
    () => (providerId ? { mobile: chargeUserOptions(providerId), card: cardOptions(providerId) } : undefined),
    [providerId],
  );
  const lines = value ?? [];
  const set = (next: Line[]) => onChange?.(next);
  const setLine = (i: number, line: Line) => set(lines.map((l, j) => (j === i ? line : l)));
  // Another provider: the users and cards chosen so far are not its own.
  const previous = useRef(providerId);
  useEffect(() => {
    if (previous.current !== undefined && previous.current !== providerId) onChange?.([{}]);
    previous.current = providerId;
  }, [providerId, onChange]);
  if (!remote) return <Typography.Text type="secondary">{t('corporateTransfer.chooseProviderFirst')}</Typography.Text>;
  const sum = lines.reduce((s, l) => s + (l.amountCents ?? 0), 0);
  return (
    <Flex vertical gap={8} id={id} data-testid="transfer-allocations">
      {lines.map((line, i) => {
        const kind = kindOf(line);
        return (
          <Flex key={i} gap={8} align="center" data-testid={`allocation-${i}`}>
            <Segmented<TransferTargetKind>
              value={kind}
              options={(['mobile', 'card'] as const).map((k) => ({ value: k, label: t(`enums.transferTargetKind.${k}`) }))}
              // Another kind of target: the one chosen before does not apply; the amount stays.
              onChange={(k) => setLine(i, { kind: k, amountCents: line.amountCents })}
              aria-label={t('fields.transferRecord.targetKind')}
              data-testid={`allocation-kind-${i}`}
            />
            {kind === 'card' ? (
              <RemoteSelect
                key="card"
                remote={remote.card}
                value={line.cardId}
                onChange={(v: unknown) => setLine(i, { kind, cardId: v as number | undefined, amountCents: line.amountCents })}
                placeholder={t('corporateTransfer.chooseCard')}
                style={{ flex: 1, minWidth: 0 }}
                aria-label={t('fields.corporateTransfer.cardId')}
              />
            ) : (
              <RemoteSelect
                key="mobile"
                remote={remote.mobile}
                value={line.chargeUserId}
                onChange={(v: unknown) => setLine(i, { kind, chargeUserId: v as number | undefined, amountCents: line.amountCents })}
                placeholder={t('corporateTransfer.chooseUser')}
                style={{ flex: 1, minWidth: 0 }}
                aria-label={t('fields.corporateTransfer.chargeUserId')}
              />
            )}
            <MoneyInput
              min={0.01}
              value={line.amountCents ?? null}
              onChange={(v) => setLine(i, { ...line, amountCents: v })}
              placeholder={t('fields.corporateTransfer.amountCents')}
              aria-label={t('fields.corporateTransfer.amountCents')}
              style={{ width: 160 }}
            />
            <Button
              icon={<DeleteOutlined />}
              aria-label={t('corporateTransfer.removeLine')}
              disabled={lines.length <= 1}
              onClick={() => set(lines.filter((_, j) => j !== i))}
            />
          </Flex>
        );
      })}
      <Flex gap={12} align="center">
        <Button
          type="dashed"
          icon={<PlusOutlined />}
          disabled={lines.length >= TRANSFER_MAX_ALLOCATIONS}
          onClick={() => set([...lines, {}])}
          data-testid="allocation-add"
        >
          {t('corporateTransfer.addLine')}
        </Button>
        <Typography.Text type={amount !== undefined && sum !== amount ? 'danger' : 'secondary'} data-testid="allocation-sum">
          {t('corporateTransfer.allocated', { sum: formatMoney(sum), amount: formatMoney(amount ?? 0) })}
        </Typography.Text>
      </Flex>
    </Flex>
  );
}

/** A transfer's allocations with the ledger rows that credited them (the transfer record). */
export function AllocationsTable({ rows }: { rows: TransferAllocationDto[] }) {
  const { t } = useTranslation();
  const label = (k: string) => t(`fields.transferRecord.${k}`);
  const money = (v: number | null) => (v === null ? '-' : formatMoney(v));
  return (
    <Table<TransferAllocationDto>
      size="small"
      rowKey="id"
      pagination={false}
      dataSource={rows}
      data-testid="allocations-table"
      columns={[
        { key: 'targetKind', title: label('targetKind'), render: (_, r) => t(`enums.transferTargetKind.${r.targetKind}`) },
        { key: 'account', title: label('account'), dataIndex: 'account' },
        { key: 'cardNumber', title: label('cardNumber'), dataIndex: 'cardNumber' },
        { key: 'amountCents', title: label('allocationCents'), render: (_, r) => money(r.amountCents) },
        { key: 'ledgerId', title: label('ledgerId'), dataIndex: 'ledgerId' },
        { key: 'before', title: label('balanceBeforeCents'), render: (_, r) => money(r.balanceBeforeCents) },
        { key: 'after', title: label('balanceAfterCents'), render: (_, r) => money(r.balanceAfterCents) },
      ]}
    />
  );
}

export function InvoiceItemsTable({ rows }: { rows: InvoiceItemDto[] }) {
  const { t } = useTranslation();
  const label = (k: string) => t(`fields.invoice.${k}`);
  return (
    <Table<InvoiceItemDto>
      size="small"
      rowKey={(r) => `${r.kind}:${r.refId}`}
      pagination={false}
      dataSource={rows}
      data-testid="invoice-items"
      columns={[
        { key: 'kind', title: label('kind'), render: (_, r) => t(`enums.invoiceItemKind.${r.kind}`) },
        { key: 'refId', title: label('refId'), dataIndex: 'refId' },
        { key: 'time', title: label('time'), render: (_, r) => formatDateTime(r.time) },
        { key: 'amountCents', title: label('amountCents'), render: (_, r) => formatMoney(r.amountCents) },
      ]}
    />
  );
}

/**
 * The records an invoice covers: the chosen user's paid charging records and recharges that no live
 * invoice covers, ticked in a table; the value is the charging records' ids, the recharges go to `rechargeIds`.
 */
export function InvoiceItemsField({
  form,
  t,
  value,
  onChange,
  id,
}: FormFieldCtx & { value?: number[]; onChange?: (v: number[]) => void; id?: string }) {
  const userId = Form.useWatch('chargeUserId', form) as number | undefined;
  // `rechargeIds` has no input of its own (this table sets it): watched with `preserve`.
  const recharges = (Form.useWatch('rechargeIds', { form, preserve: true }) as number[] | undefined) ?? [];
  const { data, isFetching } = useQuery({
    queryKey: ['invoiceBillable', userId],
    queryFn: () => call(invoiceApi.billable, { query: { chargeUserId: userId! } }),
    enabled: userId !== undefined,
  });
  if (userId === undefined) return <Typography.Text type="secondary">{t('invoice.chooseUserFirst')}</Typography.Text>;
  const keyOf = (r: InvoiceItemDto) => `${r.kind}:${r.refId}`;
  const selected = [...(value ?? []).map((v) => `charge:${v}`), ...recharges.map((v) => `recharge:${v}`)];
  const rows = data ?? [];
  const total = rows.filter((r) => selected.includes(keyOf(r))).reduce((s, r) => s + r.amountCents, 0);
  return (
    <Flex vertical gap={4} id={id}>
      <Table<InvoiceItemDto>
        size="small"
        rowKey={keyOf}
        loading={isFetching}
        pagination={false}
        scroll={{ y: 240 }}
        dataSource={rows}
        data-testid="invoice-billable"
        rowSelection={{
          selectedRowKeys: selected,
          onChange: (keys) => {
            const picked = keys.map(String);
            const ids = (kind: string) => picked.filter((k) => k.startsWith(`${kind}:`)).map((k) => Number(k.split(':')[1]));
            form.setFieldValue('rechargeIds', ids('recharge'));
            onChange?.(ids('charge'));
          },
        }}
        columns={[
          { key: 'kind', title: t('fields.invoice.kind'), render: (_, r) => t(`enums.invoiceItemKind.${r.kind}`) },
          { key: 'refId', title: t('fields.invoice.refId'), dataIndex: 'refId' },
          { key: 'time', title: t('fields.invoice.time'), render: (_, r) => formatDateTime(r.time) },
          { key: 'amountCents', title: t('fields.invoice.amountCents'), render: (_, r) => formatMoney(r.amountCents) },
        ]}
      />
      <Typography.Text data-testid="invoice-total">
        {t('invoice.total', { amount: formatMoney(total), count: selected.length })}
      </Typography.Text>
    </Flex>
  );
}
