import {
  MAX_OPERATOR_STACK_LEVEL,
  profilePurposes,
  type ChargingProfileDto,
  type ProfileInForce,
  type ProfileSendResult,
  chargingProfileApi,
} from '@csms/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Form, InputNumber, Modal, Radio, Select, Space, Table, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../shared/api/client';
import { PointSelect } from '../../shared/options/point-select';
import { formatDateTime } from '../../shared/resource/cells';
import { periodsText } from './charging-profile.resource';
import { ResultsTable, TargetStatus } from './targets';

/** Each charger's answer to a send. */
export function SendResultDialog({
  sent,
  onClose,
}: {
  sent: { profile: ChargingProfileDto; results: ProfileSendResult[] } | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const results = sent?.results ?? [];
  return (
    <Modal
      open={sent !== null}
      title={t('chargingProfile.sendTitle', { id: sent?.profile.id })}
      onCancel={onClose}
      onOk={onClose}
      cancelButtonProps={{ style: { display: 'none' } }}
      okText={t('common.confirm')}
      width={760}
      destroyOnHidden
    >
      <Typography.Paragraph data-testid="send-summary">
        {t('chargingProfile.sentSummary', { accepted: results.filter((r) => r.status === 'accepted').length, total: results.length })}
      </Typography.Paragraph>
      <ResultsTable results={results} />
    </Modal>
  );
}

type ClearValues = { serialNumber?: string; scope: 'this' | 'matching'; connectorId?: number; purpose?: string; stackLevel?: number };

/** ClearChargingProfile on one of the profile's points: this profile only, or by connector, purpose and stack level. */
export function ClearDialog({ profile, onClose }: { profile: ChargingProfileDto | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ClearValues>();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<(ProfileSendResult & { cleared: number }) | null>(null);
  const scope = Form.useWatch('scope', form);
  useEffect(() => {
    if (!profile) return;
    setAnswer(null);
    form.setFieldsValue({ serialNumber: profile.serialNumbers[0], scope: 'this' });
  }, [profile, form]);
  const submit = async () => {
    const v = await form.validateFields();
    setBusy(true);
    try {
      const body =
        v.scope === 'this'
          ? { serialNumber: v.serialNumber!, id: profile!.id }
          : {
              serialNumber: v.serialNumber!,
              connectorId: v.connectorId ?? null,
              purpose: (v.purpose ?? null) as never,
              stackLevel: v.stackLevel ?? null,
            };
      setAnswer(await call(chargingProfileApi.clear, { body }));
      void queryClient.invalidateQueries({ queryKey: [chargingProfileApi.list.path] });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={profile !== null}
      title={t('chargingProfile.clearTitle')}
      onCancel={onClose}
      onOk={() => (answer ? onClose() : void submit().catch(() => undefined))}
      okText={answer ? t('common.close') : t('chargingProfile.clear')}
      okButtonProps={{ danger: !answer, loading: busy, 'data-testid': 'clear-ok' } as never}
      width={640}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('chargingProfile.clearHint')}</Typography.Paragraph>
      <Form form={form} layout="vertical" disabled={answer !== null}>
        <Form.Item name="serialNumber" label={t('fields.chargingProfile.serialNumber')} rules={[{ required: true }]}>
          <Select options={(profile?.serialNumbers ?? []).map((s) => ({ value: s, label: s }))} data-testid="clear-point" />
        </Form.Item>
        <Form.Item name="scope">
          <Radio.Group>
            <Radio value="this">{t('chargingProfile.clearThis', { id: profile?.id })}</Radio>
            <Radio value="matching" data-testid="clear-matching">
              {t('chargingProfile.clearMatching')}
            </Radio>
          </Radio.Group>
        </Form.Item>
        {scope === 'matching' && (
          <Space wrap>
            <Form.Item name="connectorId" label={t('fields.chargingProfile.connectorId')}>
              <InputNumber min={0} precision={0} />
            </Form.Item>
            <Form.Item name="purpose" label={t('fields.chargingProfile.purpose')}>
              <Select
                allowClear
                style={{ width: 200 }}
                options={profilePurposes.map((p) => ({ value: p, label: t(`enums.profilePurpose.${p}`) }))}
              />
            </Form.Item>
            <Form.Item name="stackLevel" label={t('fields.chargingProfile.stackLevel')}>
              <InputNumber min={0} max={MAX_OPERATOR_STACK_LEVEL} precision={0} />
            </Form.Item>
          </Space>
        )}
      </Form>
      {answer && (
        <Alert
          data-testid="clear-answer"
          type={answer.status === 'accepted' ? 'success' : 'warning'}
          message={
            <Space>
              <TargetStatus status={answer.status} />
              {answer.status === 'accepted' ? t('chargingProfile.clearedSummary', { count: answer.cleared }) : answer.message}
            </Space>
          }
        />
      )}
    </Modal>
  );
}

/** The profiles one point holds, as the server last learnt from its answers. */
export function InForceDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [serialNumber, setSerialNumber] = useState<string>();
  const { data, isFetching } = useQuery({
    queryKey: [chargingProfileApi.inForce.path, serialNumber],
    queryFn: ({ signal }) => call(chargingProfileApi.inForce, { query: { serialNumber: serialNumber! } }, { signal }),
    enabled: open && serialNumber !== undefined,
  });
  const f = (key: string) => t(`fields.chargingProfile.${key}`);
  return (
    <Modal
      open={open}
      title={serialNumber ? t('chargingProfile.inForceTitle', { serialNumber }) : t('chargingProfile.inForce')}
      onCancel={onClose}
      footer={null}
      width={900}
      destroyOnHidden
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <div style={{ maxWidth: 420 }}>
          <PointSelect value={serialNumber} onChange={setSerialNumber} placeholder={t('chargingProfile.pickPoint')} />
        </div>
        {serialNumber && (
          <Table<ProfileInForce>
            size="small"
            loading={isFetching}
            pagination={false}
            rowKey={(r) => `${r.id}:${r.connectorNo}`}
            dataSource={data ?? []}
            locale={{ emptyText: t('chargingProfile.inForceEmpty') }}
            data-testid="in-force"
            columns={[
              { key: 'id', dataIndex: 'id', title: f('id') },
              { key: 'connectorNo', dataIndex: 'connectorNo', title: f('connectorNo') },
              { key: 'purpose', dataIndex: 'purpose', title: f('purpose'), render: (v: string) => t(`enums.profilePurpose.${v}`) },
              { key: 'stackLevel', dataIndex: 'stackLevel', title: f('stackLevel') },
              { key: 'periods', title: f('periods'), render: (_: unknown, r) => periodsText(r) },
              { key: 'validTo', dataIndex: 'validTo', title: f('validTo'), render: (v: string | null) => (v ? formatDateTime(v) : '') },
              { key: 'transactionId', dataIndex: 'transactionId', title: f('transactionId') },
              { key: 'sentTime', dataIndex: 'sentTime', title: f('sentTime'), render: (v: string | null) => (v ? formatDateTime(v) : '') },
            ]}
          />
        )}
      </Space>
    </Modal>
  );
}
