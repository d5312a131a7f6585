import { chargingRateUnits, localListUpdateTypes, resetTypes, triggerMessages, pointActionApi } from '@csms/contract';
import { Alert, Button, Form, Input, InputNumber, Modal, Radio, Select, Space, Typography } from 'antd';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, call } from '../../shared/api/client';
import { ActionAnswer, type Answer } from './action-answer';
import { confirmOnly, endpointOf, type ActionKey, type ActionRequest, type ActionTarget } from './actions';
import { fullOffered, LocalListRecord, useLocalListState } from './local-list';
import { PointSelect } from '../../shared/options/point-select';
import { ChargingProfileSelect, IdTagSelect } from './pickers';

type Values = Record<string, unknown>;

/** The request body of an action from the dialog's values. */
export function bodyOf(action: ActionKey, serialNumber: string, v: Values): Values {
  const pick = (...keys: string[]) =>
    Object.fromEntries(keys.filter((k) => v[k] !== undefined && v[k] !== null && v[k] !== '').map((k) => [k, v[k]]));
  const fields: Partial<Record<ActionKey, Values>> = {
    remoteStart: pick('connectorId', 'idTag', 'chargingProfileId'),
    remoteStop: pick('transactionId'),
    reset: pick('type', 'connectorId'),
    unlock: pick('connectorId'),
    enable: { ...pick('connectorId', 'plug'), type: 'Operative' },
    disable: { ...pick('connectorId', 'plug'), type: 'Inoperative' },
    triggerMessage: pick('requestedMessage', 'connectorId'),
    transactionStatus: pick('transactionId'),
    dataTransfer: pick('vendorId', 'messageId', 'data'),
    getCompositeSchedule: pick('connectorId', 'duration', 'chargingRateUnit'),
    sendLocalList: pick('updateType'),
  };
  return { serialNumber, ...(fields[action] ?? {}) };
}

/** Values a dialog starts with. */
function initialValues(action: ActionKey, target: ActionTarget | undefined, preset: Values = {}): Values {
  const running = target?.connectors.filter((c) => c.transactionId) ?? [];
  const free = target?.connectors.find((c) => c.status === 'available') ?? target?.connectors[0];
  const start: Partial<Record<ActionKey, Values>> = {
    remoteStart: { connectorId: free?.connectorNo },
    remoteStop: running.length === 1 ? { transactionId: running[0]!.transactionId } : {},
    transactionStatus: running.length === 1 ? { transactionId: running[0]!.transactionId } : {},
    reset: { type: 'Soft' },
    unlock: target?.connectors.length === 1 ? { connectorId: target.connectors[0]!.connectorNo } : {},
    enable: { connectorId: 0 },
    disable: { connectorId: 0 },
    getCompositeSchedule: { connectorId: 0, duration: 3600 },
  };
  return { ...(start[action] ?? {}), ...preset };
}

/**
 * One operator action: its inputs (or a question), then the charger's answer in words. A
 * refused input lands on its field with the server's message.
 */
export function ActionDialog({ request, onClose, onDone }: { request: ActionRequest | null; onClose: () => void; onDone?: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [sending, setSending] = useState(false);
  const [picked, setPicked] = useState<ActionTarget | undefined>(undefined);
  const action = request?.action;
  const target = request?.target ?? picked;
  // The answer shown may be a Full update the operator sent from another action's answer.
  const [answered, setAnswered] = useState<ActionKey | undefined>(undefined);
  const listState = useLocalListState(target?.serialNumber, action === 'sendLocalList' && !answer);

  // Differential when the point is in step with the record, else Full (the server would choose the same).
  useEffect(() => {
    if (listState && !form.isFieldTouched('updateType')) form.setFieldsValue({ updateType: listState.suggested });
  }, [listState, form]);

  useEffect(() => {
    if (!request) return;
    setAnswer(null);
    setAnswered(undefined);
    setPicked(undefined);
    form.resetFields();
    form.setFieldsValue(initialValues(request.action, request.target, request.preset));
  }, [request, form]);

  if (!request || !action) return null;
  const f = (key: string) => t(`fields.pointAction.${key}`);
  const required = (key: string, label = f(key)) => [{ required: true, message: t('validation.required', { field: label }) }];
  const connectorOptions = (whole: boolean) => [
    ...(whole ? [{ value: 0, label: t('monitor.wholePoint') }] : []),
    ...(target?.connectors ?? []).map((c) => ({
      value: c.connectorNo,
      label: c.status
        ? `${t('monitor.connectorNo', { n: c.connectorNo })} · ${t(`enums.pointStatus.${c.status}`)}`
        : t('monitor.connectorNo', { n: c.connectorNo }),
    })),
  ];
  const enumOptions = (enumKey: string, values: readonly string[]) => values.map((v) => ({ value: v, label: t(`enums.${enumKey}.${v}`) }));
  const connectorField = (whole: boolean, optional = false) => (
    <Form.Item name="connectorId" label={t('fields.pointAction.connectorId')} rules={optional ? [] : required('connectorId')}>
      <Select
        options={connectorOptions(whole)}
        allowClear={optional}
        placeholder={t('monitor.dialog.connectorPlaceholder')}
        data-testid="connector-select"
      />
    </Form.Item>
  );
  const running = (target?.connectors ?? []).filter((c) => c.transactionId);
  // OCPP 2.0.1: one plug of an EVSE may be enabled or disabled alone (G03); the server says so if the EVSE has no such plug.
  const availabilityFields = () => (
    <>
      {connectorField(true)}
      {target?.ocppVersion === '2.0.1' && (
        <Form.Item name="plug" label={t('fields.pointAction.plug')} extra={t('monitor.dialog.plugHint')}>
          <InputNumber
            min={1}
            max={8}
            precision={0}
            placeholder={t('monitor.dialog.wholeEvse')}
            style={{ width: '100%' }}
            data-testid="plug-input"
          />
        </Form.Item>
      )}
    </>
  );

  const fields: Record<ActionKey, () => ReactNode> = {
    remoteStart: () => (
      <>
        {connectorField(false, true)}
        {target && (
          <>
            <Form.Item name="idTag" label={t('monitor.dialog.idTag')} rules={required('idTag', t('monitor.dialog.idTag'))}>
              <IdTagSelect serialNumber={target.serialNumber} />
            </Form.Item>
            <Form.Item name="chargingProfileId" label={t('monitor.dialog.chargingProfile')} extra={t('monitor.dialog.chargingProfileHint')}>
              <ChargingProfileSelect serialNumber={target.serialNumber} />
            </Form.Item>
          </>
        )}
      </>
    ),
    remoteStop: () =>
      request.preset?.transactionId || running.length > 0 ? (
        <Form.Item name="transactionId" label={t('fields.pointAction.transactionId')} rules={required('transactionId')}>
          <Select
            options={
              running.length > 0
                ? running.map((c) => ({
                    value: c.transactionId,
                    label: t('monitor.dialog.transactionOption', { n: c.connectorNo, id: c.transactionId }),
                  }))
                : [{ value: request.preset?.transactionId, label: String(request.preset?.transactionId) }]
            }
          />
        </Form.Item>
      ) : (
        <Alert type="info" showIcon title={t('monitor.dialog.noTransaction')} />
      ),
    reset: () => (
      <>
        <Form.Item name="type" label={t('monitor.dialog.resetType')} rules={required('type')}>
          <Radio.Group options={enumOptions('resetType', resetTypes)} />
        </Form.Item>
        {target?.ocppVersion === '2.0.1' && (
          <Form.Item name="connectorId" label={t('monitor.dialog.resetEvse')} extra={t('monitor.dialog.resetEvseHint')}>
            <Select
              options={connectorOptions(false)}
              allowClear
              placeholder={t('monitor.dialog.resetWholePoint')}
              data-testid="connector-select"
            />
          </Form.Item>
        )}
        <Alert type="warning" showIcon title={t('monitor.dialog.resetWarning')} />
      </>
    ),
    unlock: () => connectorField(false),
    enable: () => availabilityFields(),
    disable: () => availabilityFields(),
    clearCache: () => null,
    sendLocalList: () => (
      <>
        {listState && <LocalListRecord state={listState} />}
        <Form.Item
          name="updateType"
          label={t('fields.pointAction.updateType')}
          extra={t('monitor.dialog.updateTypeHint')}
          style={{ marginTop: 12 }}
          rules={required('updateType')}
        >
          <Radio.Group options={enumOptions('localListUpdateType', localListUpdateTypes)} data-testid="update-type" />
        </Form.Item>
      </>
    ),
    getLocalListVersion: () => null,
    triggerMessage: () => (
      <>
        <Form.Item name="requestedMessage" label={t('fields.pointAction.requestedMessage')} rules={required('requestedMessage')}>
          <Select options={enumOptions('triggerMessage', triggerMessages)} />
        </Form.Item>
        {connectorField(false, true)}
      </>
    ),
    transactionStatus: () => (
      <Form.Item name="transactionId" label={t('fields.pointAction.transactionId')} extra={t('monitor.dialog.transactionStatusHint')}>
        <Select
          allowClear
          placeholder={t('monitor.dialog.anyTransaction')}
          options={running.map((c) => ({
            value: c.transactionId,
            label: t('monitor.dialog.transactionOption', { n: c.connectorNo, id: c.transactionId }),
          }))}
          data-testid="transaction-select"
        />
      </Form.Item>
    ),
    dataTransfer: () => (
      <>
        <Form.Item name="vendorId" label={t('fields.pointAction.vendorId')} rules={required('vendorId')}>
          <Input maxLength={255} />
        </Form.Item>
        <Form.Item name="messageId" label={t('fields.pointAction.messageId')} rules={required('messageId')}>
          <Input maxLength={50} />
        </Form.Item>
        <Form.Item name="data" label={t('fields.pointAction.data')} rules={required('data')}>
          <Input.TextArea rows={3} maxLength={10_000} />
        </Form.Item>
      </>
    ),
    getCompositeSchedule: () => (
      <>
        {connectorField(true)}
        <Form.Item name="duration" label={t('fields.pointAction.duration')} rules={required('duration')}>
          <InputNumber min={1} max={7 * 86_400} precision={0} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="chargingRateUnit" label={t('fields.pointAction.chargingRateUnit')}>
          <Select allowClear options={enumOptions('chargingRateUnit', chargingRateUnits)} />
        </Form.Item>
      </>
    ),
  };

  const send = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    const serialNumber = target?.serialNumber ?? (values.serialNumber as string);
    setSending(true);
    try {
      const data = (await call(
        endpointOf[action],
        { body: bodyOf(action, serialNumber, values) as never },
        { fieldErrors: true },
      )) as Answer;
      setAnswer(data);
      setAnswered(action);
      onDone?.();
    } catch (err) {
      if (err instanceof ApiError && err.field) form.setFields([{ name: err.field, errors: [err.message] }]);
    } finally {
      setSending(false);
    }
  };

  const sendFull = async () => {
    if (!target) return;
    setSending(true);
    try {
      const data = (await call(pointActionApi.sendLocalList, {
        body: { serialNumber: target.serialNumber, updateType: 'Full' },
      })) as Answer;
      setAnswer(data);
      setAnswered('sendLocalList');
    } catch {
      // The client has shown the error.
    } finally {
      setSending(false);
    }
  };

  const question = confirmOnly[action];
  const offerFull =
    answer && (answered === 'sendLocalList' || answered === 'getLocalListVersion') && fullOffered(answer.state, answer.status);
  const nothingToStop = action === 'remoteStop' && !request.preset?.transactionId && running.length === 0 && request.target !== undefined;
  return (
    <Modal
      open
      title={
        target
          ? t('monitor.dialog.title', { action: t(`monitor.actions.${action}`), serial: target.serialNumber })
          : t(`monitor.actions.${action}`)
      }
      onCancel={onClose}
      destroyOnHidden
      footer={
        answer ? (
          <Space>
            {offerFull && (
              <Button loading={sending} onClick={() => void sendFull()} data-testid="send-full">
                {t('monitor.dialog.sendFull')}
              </Button>
            )}
            <Button type="primary" onClick={onClose} data-testid="action-close">
              {t('common.close')}
            </Button>
          </Space>
        ) : (
          <Space>
            <Button onClick={onClose}>{t('common.cancel')}</Button>
            <Button
              type="primary"
              danger={action === 'reset'}
              loading={sending}
              disabled={nothingToStop}
              onClick={() => void send()}
              data-testid="action-send"
            >
              {t('monitor.dialog.send')}
            </Button>
          </Space>
        )
      }
    >
      {answer ? (
        <>
          <ActionAnswer action={answered ?? action} answer={answer} />
          {offerFull && <Alert style={{ marginTop: 12 }} type="warning" showIcon title={t('monitor.dialog.fullOffered')} />}
        </>
      ) : (
        <Form form={form} layout="vertical" disabled={sending}>
          {!request.target && (
            <Form.Item name="serialNumber" label={t('monitor.dialog.point')} rules={required('serialNumber', t('monitor.dialog.point'))}>
              <PointSelect
                placeholder={t('monitor.dialog.pointPlaceholder')}
                onPick={(p) => {
                  setPicked(
                    p ? { serialNumber: p.serialNumber, connectors: p.connectors.map((c) => ({ connectorNo: c.connectorNo })) } : undefined,
                  );
                  form.setFieldsValue({ connectorId: p?.connectors[0]?.connectorNo, idTag: undefined, chargingProfileId: undefined });
                }}
              />
            </Form.Item>
          )}
          {question && <Typography.Paragraph>{t(question, { serial: target?.serialNumber ?? '' })}</Typography.Paragraph>}
          {action === 'remoteStop' && request.preset?.transactionId !== undefined && (
            <Typography.Paragraph>
              {t('monitor.dialog.remoteStopConfirm', {
                serial: target?.serialNumber ?? '',
                n: request.preset.connectorNo,
                id: request.preset.transactionId,
              })}
            </Typography.Paragraph>
          )}
          {fields[action]()}
          {sending && <Typography.Text type="secondary">{t('monitor.dialog.sending')}</Typography.Text>}
        </Form>
      )}
    </Modal>
  );
}
