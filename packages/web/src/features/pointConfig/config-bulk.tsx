import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { type ActionResult, MAX_CONFIG_CHANGES, type PointConfigAnswer, pointActionApi } from '@csms/contract';
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Flex, Form, type FormInstance, Modal, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, call } from '../../shared/api/client';
import { Authorized } from '../../shared/auth/authorized';
import { ActionStatusTag } from '../../shared/ocpp/action-status-tag';
import { stationOptions, useStationPoints } from '../../shared/options/station-point-options';
import { StationPointsSelect } from '../../shared/options/station-points-select';
import { RemoteSelect } from '../../shared/resource/inputs';
import { KeyHelp, KeyNameInput, KeyValueInput, valueRule } from './key-value';

const RESET = (pointActionApi.reset.access as { permi: string }).permi;

interface Values {
  stationId?: number;
  serialNumbers: string[];
  changes: { key: string; value: string }[];
}

/** One key to change and its value, with the key's help; removable while there is another. */
function ChangeRow({ form, name, onRemove }: { form: FormInstance<Values>; name: number; onRemove?: () => void }) {
  const { t } = useTranslation();
  const key = Form.useWatch(['changes', name, 'key'], form) as string | undefined;
  return (
    <div data-testid="bulk-change">
      <Flex gap={8} align="start">
        <Form.Item
          name={[name, 'key']}
          label={t('fields.pointAction.key')}
          style={{ flex: 1 }}
          rules={[{ required: true, whitespace: true, message: t('validation.required', { field: t('fields.pointAction.key') }) }]}
        >
          <KeyNameInput />
        </Form.Item>
        <Form.Item
          name={[name, 'value']}
          label={t('fields.pointAction.value')}
          style={{ flex: 1 }}
          dependencies={[['changes', name, 'key']]}
          rules={[
            { max: 500, message: t('validation.tooLong', { field: t('fields.pointAction.value'), max: 500 }) },
            // The key as the form holds it when it checks (the watched one may not have re-rendered yet).
            ({ getFieldValue }) => valueRule(getFieldValue(['changes', name, 'key']) as string | undefined),
          ]}
        >
          <KeyValueInput name={key} />
        </Form.Item>
        {onRemove && (
          <Button
            type="text"
            icon={<DeleteOutlined />}
            aria-label={t('ocppLog.config.removeKey')}
            title={t('ocppLog.config.removeKey')}
            onClick={onRemove}
            style={{ marginTop: 30 }}
          />
        )}
      </Flex>
      {key && <KeyHelp name={key} />}
    </div>
  );
}

/** Soft resets of the points whose answer said a reboot is needed, a few at a time; each point's answer. */
async function rebootAll(serials: string[], onAnswer: (serial: string, a: ActionResult) => void) {
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < serials.length; i = next++) {
      const serialNumber = serials[i]!;
      onAnswer(serialNumber, await call(pointActionApi.reset, { body: { serialNumber, type: 'Soft' } }));
    }
  };
  await Promise.all(Array.from({ length: Math.min(5, serials.length) }, lane));
}

/**
 * Configuration keys (up to ten) changed on many points of a station: each charger's answer as a whole
 * and per key (accepted, rejected, needs a reboot, not supported, offline), and a soft reboot offered to
 * those whose answer says the change waits for one. A 2.0.1 charger gets the keys in one SetVariables.
 */
export function BulkChangeDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const stationId = Form.useWatch('stationId', form);
  const { data: stationPoints } = useStationPoints(stationId);
  const [answers, setAnswers] = useState<PointConfigAnswer[] | null>(null);
  // How many keys the answers are about: with several, each key's answer is shown too.
  const [sent, setSent] = useState(1);
  const [reboots, setReboots] = useState<Record<string, ActionResult>>({});
  const change = useMutation({
    mutationFn: (v: Values) =>
      call(
        pointActionApi.changeConfigurationMany,
        { body: { serialNumbers: v.serialNumbers, changes: v.changes.map((c) => ({ key: c.key, value: c.value ?? '' })) } },
        { fieldErrors: true },
      ),
  });
  const reboot = useMutation({
    mutationFn: (serials: string[]) => rebootAll(serials, (s, a) => setReboots((r) => ({ ...r, [s]: a }))),
  });

  const send = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    try {
      const r = await change.mutateAsync(values);
      setSent(r.changes.length);
      setAnswers(r.results);
    } catch (err) {
      // The server names the field by its path (`changes.1.value`).
      if (err instanceof ApiError && err.field)
        form.setFields([{ name: err.field.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)) as never, errors: [err.message] }]);
    }
  };
  const close = () => {
    setAnswers(null);
    setReboots({});
    form.resetFields();
    onClose();
  };

  const count = (pred: (a: PointConfigAnswer) => boolean) => (answers ?? []).filter(pred).length;
  const needReboot = (answers ?? []).filter((a) => a.status === 'rebootRequired' && !reboots[a.serialNumber]).map((a) => a.serialNumber);

  return (
    <Modal
      open={open}
      width={answers ? (sent > 1 ? 1000 : 880) : 600}
      title={t('ocppLog.config.bulkTitle')}
      onCancel={close}
      destroyOnHidden
      footer={
        answers ? (
          <Space>
            {needReboot.length > 0 && (
              <Authorized permi={[RESET]}>
                <Button loading={reboot.isPending} onClick={() => reboot.mutate(needReboot)} data-testid="bulk-reboot">
                  {t('ocppLog.config.rebootThose', { n: needReboot.length })}
                </Button>
              </Authorized>
            )}
            <Button type="primary" onClick={close}>
              {t('common.close')}
            </Button>
          </Space>
        ) : (
          <Space>
            <Button onClick={close}>{t('common.cancel')}</Button>
            <Button type="primary" loading={change.isPending} onClick={() => void send()} data-testid="bulk-send">
              {t('ocppLog.config.bulkSend')}
            </Button>
          </Space>
        )
      }
    >
      {answers ? (
        <Flex vertical gap={12}>
          <Alert
            type={count((a) => a.status !== 'accepted' && a.status !== 'rebootRequired') > 0 ? 'warning' : 'success'}
            showIcon
            data-testid="bulk-summary"
            title={t('ocppLog.config.bulkSummary', {
              accepted: count((a) => a.status === 'accepted'),
              reboot: count((a) => a.status === 'rebootRequired'),
              other: count((a) => a.status !== 'accepted' && a.status !== 'rebootRequired'),
            })}
          />
          <Table<PointConfigAnswer>
            size="small"
            rowKey="serialNumber"
            dataSource={answers}
            pagination={false}
            scroll={{ y: 420 }}
            data-testid="bulk-answers"
            columns={[
              { key: 'serialNumber', dataIndex: 'serialNumber', title: t('fields.pointAction.serialNumber'), width: 140 },
              { key: 'pointName', dataIndex: 'pointName', title: t('fields.pointAction.pointName'), width: 120 },
              {
                key: 'status',
                title: t('fields.pointAction.status'),
                width: sent > 1 ? 150 : undefined,
                render: (_: unknown, a: PointConfigAnswer) => (
                  <Flex vertical align="start">
                    <ActionStatusTag status={a.status} />
                    {a.message && <Typography.Text type="secondary">{a.message}</Typography.Text>}
                  </Flex>
                ),
              },
              ...(sent > 1
                ? [
                    {
                      key: 'keys',
                      title: t('ocppLog.config.keysColumn'),
                      render: (_: unknown, a: PointConfigAnswer) => (
                        <Flex vertical gap={2} align="start">
                          {a.keys.map((k) => (
                            <Flex key={k.key} gap={4} align="center" wrap>
                              <Typography.Text>{k.key}</Typography.Text>
                              <ActionStatusTag status={k.status} />
                            </Flex>
                          ))}
                        </Flex>
                      ),
                    },
                  ]
                : []),
              {
                key: 'reboot',
                title: t('ocppLog.config.rebootColumn'),
                width: 100,
                render: (_: unknown, a: PointConfigAnswer) => {
                  const r = reboots[a.serialNumber];
                  return r ? <ActionStatusTag status={r.status} /> : null;
                },
              },
            ]}
          />
        </Flex>
      ) : (
        <Form form={form} layout="vertical" initialValues={{ serialNumbers: [], changes: [{ key: '', value: '' }] }}>
          <Form.Item
            name="stationId"
            label={t('fields.pointAction.stationName')}
            rules={[{ required: true, message: t('validation.required', { field: t('fields.pointAction.stationName') }) }]}
          >
            <RemoteSelect remote={stationOptions} onChange={() => form.setFieldValue('serialNumbers', [])} data-testid="bulk-station" />
          </Form.Item>
          <Form.Item
            label={t('fields.pointAction.serialNumbers')}
            required
            extra={
              stationPoints?.length ? (
                <Button
                  type="link"
                  size="small"
                  style={{ padding: 0 }}
                  onClick={() =>
                    form.setFieldValue(
                      'serialNumbers',
                      stationPoints.map((p) => p.serialNumber),
                    )
                  }
                  data-testid="bulk-all-points"
                >
                  {t('ocppLog.config.allPoints', { n: stationPoints.length })}
                </Button>
              ) : undefined
            }
          >
            <Form.Item
              name="serialNumbers"
              noStyle
              rules={[{ required: true, message: t('validation.required', { field: t('fields.pointAction.serialNumbers') }) }]}
            >
              <StationPointsSelect
                form={form}
                placeholder={t('kit.selectPlaceholder', { field: t('fields.pointAction.serialNumbers') })}
                noStation={t('ocppLog.config.chooseStationFirst')}
                testId="bulk-points"
              />
            </Form.Item>
          </Form.Item>
          <Form.List name="changes">
            {(fields, { add, remove }) => (
              <>
                {fields.map((f) => (
                  <ChangeRow key={f.key} form={form} name={f.name} onRemove={fields.length > 1 ? () => remove(f.name) : undefined} />
                ))}
                <Button
                  type="dashed"
                  icon={<PlusOutlined />}
                  disabled={fields.length >= MAX_CONFIG_CHANGES}
                  onClick={() => add({ key: '', value: '' })}
                  data-testid="bulk-add-key"
                >
                  {fields.length >= MAX_CONFIG_CHANGES
                    ? t('ocppLog.config.maxKeys', { n: MAX_CONFIG_CHANGES })
                    : t('ocppLog.config.addKey')}
                </Button>
              </>
            )}
          </Form.List>
        </Form>
      )}
    </Modal>
  );
}
