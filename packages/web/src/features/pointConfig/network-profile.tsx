import { type ActionResult, networkSecurityProfiles, ocppInterfaces, pointActionApi } from '@csms/contract';
import { Button, Checkbox, Flex, Form, Input, InputNumber, Modal, Select, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, call } from '../../shared/api/client';
import { AnswerAlert } from './answer-alert';

interface Values {
  configurationSlot: number;
  ocppCsmsUrl: string;
  securityProfile: (typeof networkSecurityProfiles)[number];
  ocppInterface: (typeof ocppInterfaces)[number];
  messageTimeout: number;
  activate: boolean;
}

/** This console's own OCPP endpoint, as a charger would reach it over plain WebSocket. */
const ownEndpoint = () => `ws://${window.location.host}/ocpp`;

/** The URL with the scheme a security profile needs (1: ws://, 2: wss://); an address of another form is left as typed. */
export const withScheme = (url: string, profile: number) => url.replace(/^wss?:\/\//i, profile === 2 ? 'wss://' : 'ws://');

/**
 * An OCPP 2.0.1 charger's network connection profile (SetNetworkProfile): where and how it connects, stored in
 * one of its slots; "use it now" also puts the slot first in its order and restarts it (a move to another
 * address, or from security profile 1 to 2). The charger's answer is shown in words.
 */
export function NetworkProfileDialog({ serialNumber, onClose }: { serialNumber: string; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const [answer, setAnswer] = useState<ActionResult | null>(null);
  const [saving, setSaving] = useState(false);
  const label = (key: keyof Values) => t(`fields.pointAction.${key}`);
  const required = (key: keyof Values) => ({ required: true, message: t('validation.required', { field: label(key) }) });

  const submit = async (values: Values) => {
    setSaving(true);
    try {
      setAnswer(await call(pointActionApi.setNetworkProfile, { body: { serialNumber, ...values } }, { fieldErrors: true }));
    } catch (err) {
      if (err instanceof ApiError && err.field) form.setFields([{ name: err.field as keyof Values, errors: [err.message] }]);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open
      title={t('ocppLog.network.title', { serial: serialNumber })}
      onCancel={onClose}
      destroyOnHidden
      width={560}
      footer={
        answer ? (
          <Button type="primary" onClick={onClose}>
            {t('common.close')}
          </Button>
        ) : (
          <Space>
            <Button onClick={onClose}>{t('common.cancel')}</Button>
            <Button type="primary" loading={saving} onClick={() => form.submit()} data-testid="network-save">
              {t('common.confirm')}
            </Button>
          </Space>
        )
      }
    >
      {answer ? (
        <AnswerAlert answer={answer} />
      ) : (
        <Form<Values>
          form={form}
          layout="vertical"
          onFinish={(v) => void submit(v)}
          initialValues={{
            configurationSlot: 2,
            ocppCsmsUrl: ownEndpoint(),
            securityProfile: 1,
            ocppInterface: 'Wired0',
            messageTimeout: 30,
            activate: false,
          }}
          // The scheme follows the security profile: TLS is wss://.
          onValuesChange={(changed: Partial<Values>) => {
            if (changed.securityProfile !== undefined)
              form.setFieldValue('ocppCsmsUrl', withScheme(form.getFieldValue('ocppCsmsUrl') as string, changed.securityProfile));
          }}
        >
          <Typography.Paragraph type="secondary">{t('ocppLog.network.hint')}</Typography.Paragraph>
          <Flex gap={12}>
            <Form.Item
              name="configurationSlot"
              label={t('fields.pointAction.configurationSlot')}
              rules={[required('configurationSlot')]}
              style={{ flex: 1 }}
            >
              <InputNumber min={1} max={8} precision={0} style={{ width: '100%' }} />
            </Form.Item>
            <Form.Item
              name="messageTimeout"
              label={t('fields.pointAction.messageTimeout')}
              rules={[required('messageTimeout')]}
              style={{ flex: 1 }}
            >
              <InputNumber min={1} max={3600} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Flex>
          <Form.Item name="securityProfile" label={t('fields.pointAction.securityProfile')} rules={[required('securityProfile')]}>
            <Select options={networkSecurityProfiles.map((p) => ({ value: p, label: t(`ocppLog.network.profile${p}`) }))} />
          </Form.Item>
          <Form.Item
            name="ocppCsmsUrl"
            label={t('fields.pointAction.ocppCsmsUrl')}
            rules={[required('ocppCsmsUrl')]}
            extra={t('ocppLog.network.urlHint')}
          >
            <Input maxLength={512} />
          </Form.Item>
          <Form.Item name="ocppInterface" label={t('fields.pointAction.ocppInterface')} rules={[required('ocppInterface')]}>
            <Select options={ocppInterfaces.map((i) => ({ value: i, label: i }))} />
          </Form.Item>
          <Form.Item name="activate" valuePropName="checked" extra={t('ocppLog.network.activateHint')}>
            <Checkbox>{t('fields.pointAction.activate')}</Checkbox>
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}
