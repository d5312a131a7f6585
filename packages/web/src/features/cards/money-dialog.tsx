import type { EndpointDef } from '@csms/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Form, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { ApiError, call } from '../../shared/api/client';
import { feedback } from '../../shared/feedback';
import { fieldMessage } from '../../shared/resource/form-values';
import { useResourceText } from '../../shared/resource/labels';
import { formatMoney } from '../../shared/format/units';
import { newRequestId } from '../../shared/request-id';
import { MoneyInput } from './inputs';

/** What a recharge or refund dialog works on: the account's id, its balance, and the title's parameters. */
export interface MoneyTarget {
  id: number;
  balanceCents: number;
  params: Record<string, unknown>;
}

export interface MoneyDialogProps {
  /** Vocabulary resource of the endpoint (`card`, `chargeUser`): labels and messages. */
  name: string;
  kind: 'recharge' | 'refund';
  endpoint: EndpointDef;
  /** Catalogue key of the title. */
  title: string;
  target: MoneyTarget | null;
  /** The balance after the call, from its reply. */
  balanceOf: (data: unknown) => number;
  /** Queries to refresh afterwards (the list, the detail). */
  invalidate: string[];
  onClose: () => void;
}

type Values = { amountCents?: number | null; thirdPartyTxnId?: string };

/**
 * Recharge or refund one account: the amount is typed positive in currency units and sent in
 * cents (a refund is recorded negative by the server); the call's schema validates it, the
 * server's refusal (more than the balance) marks the field.
 */
export function MoneyDialog({ name, kind, endpoint, title, target, balanceOf, invalidate, onClose }: MoneyDialogProps) {
  const text = useResourceText(name);
  const { t } = text;
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);
  // One id per request: sent again unchanged (a retry after an answer that never came), the server makes it once.
  const [request, setRequest] = useState<{ id: string; body: string } | null>(null);
  const queryClient = useQueryClient();
  if (!target) return null;
  const bodyOf = (v: Values) => ({
    id: target.id,
    amountCents: v.amountCents ?? undefined,
    thirdPartyTxnId: v.thirdPartyTxnId || undefined,
  });
  const rule = (key: keyof Values) => ({
    validator: async () => {
      const msg = fieldMessage(endpoint.body, text.lang, name, key, bodyOf(form.getFieldsValue(true)));
      if (msg) throw new Error(msg);
    },
  });

  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setBusy(true);
    const body = bodyOf(values);
    const key = JSON.stringify(body);
    const requestId = request?.body === key ? request.id : newRequestId();
    setRequest({ id: requestId, body: key });
    try {
      const data = await call(endpoint, { body: { ...body, requestId } as never }, { fieldErrors: true });
      feedback.message.success(
        t(kind === 'recharge' ? 'cards.rechargeDone' : 'cards.refundDone', { balance: formatMoney(balanceOf(data)) }),
      );
      for (const path of invalidate) void queryClient.invalidateQueries({ queryKey: [path] });
      onClose();
    } catch (err) {
      if (err instanceof ApiError && err.field) form.setFields([{ name: 'amountCents', errors: [err.message] }]);
    } finally {
      setBusy(false);
    }
  };

  const amountLabel = text.label('amountCents');
  const txnLabel = text.label('thirdPartyTxnId');
  return (
    <Modal
      open
      title={t(title, target.params)}
      okText={t('common.confirm')}
      cancelText={t('common.cancel')}
      confirmLoading={busy}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
      width={480}
      mask={{ closable: false }}
    >
      <Typography.Paragraph type="secondary">
        {kind === 'refund'
          ? t('cards.refundHint', { balance: formatMoney(Math.max(0, target.balanceCents)) })
          : t('cards.balance', { balance: formatMoney(target.balanceCents) })}
      </Typography.Paragraph>
      <Form form={form} name={`${name}-${kind}`} layout="vertical" preserve={false}>
        <Form.Item name="amountCents" label={amountLabel} required extra={t('cards.amountHint')} rules={[rule('amountCents')]}>
          <MoneyInput autoFocus min={0.01} placeholder={t('kit.inputPlaceholder', { field: amountLabel })} />
        </Form.Item>
        <Form.Item name="thirdPartyTxnId" label={txnLabel} rules={[rule('thirdPartyTxnId')]}>
          <Input placeholder={t('kit.inputPlaceholder', { field: txnLabel })} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
