import { type ActionResult, type PointConfigAnswer, pointActionApi } from '@csms/contract';
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Flex, Form, Modal, Space, Table, Typography } from 'antd';
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
  key: string;
  value: string;
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
 * One configuration key changed on many points of a station: each charger's answer (accepted,
 * rejected, needs a reboot, not supported, offline), and a soft reboot offered to those whose
 * answer says the change waits for one.
 */
export function BulkChangeDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const key = Form.useWatch('key', form);
  const stationId = Form.useWatch('stationId', form);
  const { data: stationPoints } = useStationPoints(stationId);
  const [answers, setAnswers] = useState<PointConfigAnswer[] | null>(null);
  const [reboots, setReboots] = useState<Record<string, ActionResult>>({});
  const change = useMutation({
    mutationFn: (v: Values) =>
      call(
        pointActionApi.changeConfigurationMany,
        { body: { serialNumbers: v.serialNumbers, key: v.key, value: v.value } },
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
      setAnswers((await change.mutateAsync({ ...values, value: values.value ?? '' })).results);
    } catch (err) {
      if (err instanceof ApiError && err.field) form.setFields([{ name: err.field as keyof Values, errors: [err.message] }]);
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
      width={answers ? 880 : 600}
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
              { key: 'serialNumber', dataIndex: 'serialNumber', title: t('fields.pointAction.serialNumber') },
              { key: 'pointName', dataIndex: 'pointName', title: t('fields.pointAction.pointName') },
              {
                key: 'status',
                title: t('fields.pointAction.status'),
                render: (_: unknown, a: PointConfigAnswer) => (
                  <Flex vertical align="start">
                    <ActionStatusTag status={a.status} />
                    {a.message && <Typography.Text type="secondary">{a.message}</Typography.Text>}
                  </Flex>
                ),
              },
              {
                key: 'reboot',
                title: t('ocppLog.config.rebootColumn'),
                render: (_: unknown, a: PointConfigAnswer) => {
                  const r = reboots[a.serialNumber];
                  return r ? <ActionStatusTag status={r.status} /> : null;
                },
              },
            ]}
          />
        </Flex>
      ) : (
        <Form form={form} layout="vertical" initialValues={{ serialNumbers: [], value: '' }}>
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
          <Form.Item
            name="key"
            label={t('fields.pointAction.key')}
            rules={[{ required: true, whitespace: true, message: t('validation.required', { field: t('fields.pointAction.key') }) }]}
          >
            <KeyNameInput />
          </Form.Item>
          {key && <KeyHelp name={key} />}
          <Form.Item
            name="value"
            label={t('fields.pointAction.value')}
            dependencies={['key']}
            rules={[{ max: 500, message: t('validation.tooLong', { field: t('fields.pointAction.value'), max: 500 }) }, valueRule(key)]}
          >
            <KeyValueInput name={key} />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}
