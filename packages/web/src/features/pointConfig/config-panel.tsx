import { type ActionResult, type ConfigurationKey, pointActionApi, pointApi } from '@csms/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Button, Flex, Form, Input, Modal, Select, Space, Table, Tag, Typography } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Authorized } from '../../shared/auth/authorized';
import { useAuth } from '../../shared/auth/useAuth';
import { ApiError, call } from '../../shared/api/client';
import { AnswerAlert } from './answer-alert';
import { DeviceModelTable, matchesDeviceModel } from './device-model';
import { KeyHelp, KeyValueInput, keyMeaning, keyUnit, useKeyMeanings, valueRule } from './key-value';

const READ = (pointActionApi.getConfiguration.access as { permi: string }).permi;
const EDIT = (pointActionApi.changeConfiguration.access as { permi: string }).permi;
const RESET = (pointActionApi.reset.access as { permi: string }).permi;
// The change on many points comes when it is first opened.
const BulkChangeDialog = lazy(() => import('./config-bulk').then((m) => ({ default: m.BulkChangeDialog })));
const NetworkProfileDialog = lazy(() => import('./network-profile').then((m) => ({ default: m.NetworkProfileDialog })));
export const POINT_PARAM = 'point';

function PointPicker({ value, onChange }: { value: string | undefined; onChange: (serial: string | undefined) => void }) {
  const { t } = useTranslation();
  const [keyword, setKeyword] = useState('');
  const { data, isFetching } = useQuery({
    queryKey: [pointApi.options.path, keyword],
    queryFn: ({ signal }) => call(pointApi.options, { body: keyword ? { serialNumber: keyword } : {} }, { signal }),
  });
  return (
    <Select
      style={{ minWidth: 320 }}
      showSearch={{ filterOption: false, onSearch: setKeyword }}
      allowClear
      value={value}
      onChange={(v: string | undefined) => onChange(v)}
      loading={isFetching}
      placeholder={t('ocppLog.config.pointPlaceholder')}
      options={(data ?? []).map((p) => ({ value: p.serialNumber, label: `${p.serialNumber} · ${p.pointName} · ${p.stationName}` }))}
      data-testid="config-point"
    />
  );
}

/**
 * Point configuration (spec: Configuration → point configuration): read the charger's keys
 * (GetConfiguration) and change a writable one (ChangeConfiguration), with its answer in words; for
 * an OCPP 2.0.1 charger, its whole device model too (GetBaseReport FullInventory).
 */
export function ConfigPanel() {
  const { t } = useTranslation();
  const { hasPermi } = useAuth();
  const [params, setParams] = useSearchParams();
  const serial = params.get(POINT_PARAM) ?? undefined;
  const [filter, setFilter] = useState('');
  const [editing, setEditing] = useState<ConfigurationKey | null>(null);
  const [changed, setChanged] = useState<ActionResult | null>(null);
  const [bulkOpen, setBulkOpen] = useState(false);
  const [networkOpen, setNetworkOpen] = useState(false);
  const explained = useKeyMeanings();
  const [form] = Form.useForm<{ value: string }>();
  const read = useMutation({
    mutationFn: (serialNumber: string) => call(pointActionApi.getConfiguration, { body: { serialNumber } }),
  });
  // What was read last: the keys, or (2.0.1 only) the device model.
  const [view, setView] = useState<'keys' | 'model'>('keys');
  const model = useMutation({
    mutationFn: (serialNumber: string) => call(pointActionApi.deviceModel, { body: { serialNumber } }),
  });
  const { data: ocppVersion } = useQuery({
    queryKey: [pointApi.options.path, 'version', serial],
    enabled: !!serial,
    queryFn: ({ signal }) => call(pointApi.options, { body: { serialNumber: serial } }, { signal }),
    select: (rows) => rows.find((p) => p.serialNumber === serial)?.ocppVersion ?? null,
  });
  const change = useMutation({
    mutationFn: (v: { key: string; value: string }) =>
      call(pointActionApi.changeConfiguration, { body: { serialNumber: serial!, ...v } }, { fieldErrors: true }),
  });
  // A change the charger takes only after a reboot: a soft reset offered at once.
  const reboot = useMutation({
    mutationFn: (serialNumber: string) => call(pointActionApi.reset, { body: { serialNumber, type: 'Soft' } }),
  });

  const pick = (s: string | undefined) => {
    const next = new URLSearchParams(params);
    if (s) next.set(POINT_PARAM, s);
    else next.delete(POINT_PARAM);
    setParams(next);
    read.reset();
    model.reset();
    setView('keys');
  };
  const answer = view === 'keys' ? read.data : model.data;
  const reading = view === 'keys' ? read.isPending : model.isPending;
  const keys = (read.data?.configurationKey ?? []).filter((k) => !filter || k.key.toLowerCase().includes(filter.toLowerCase()));
  const rows = (model.data?.items ?? []).filter((r) => matchesDeviceModel(r, filter));

  const save = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    const value = values.value ?? '';
    try {
      const result = await change.mutateAsync({ key: editing!.key, value });
      setChanged(result);
      // What the charger took (now or after a reboot) is read back, so the table shows its values.
      if (result.status === 'accepted' || result.status === 'rebootRequired') read.mutate(serial!);
    } catch (err) {
      if (err instanceof ApiError && err.field) form.setFields([{ name: 'value', errors: [err.message] }]);
    }
  };

  return (
    <Flex vertical gap={16}>
      <Space wrap>
        <span>{t('ocppLog.config.point')}</span>
        <PointPicker value={serial} onChange={pick} />
        <Authorized permi={[READ]}>
          <Button
            type="primary"
            disabled={!serial}
            loading={read.isPending}
            onClick={() => {
              if (view !== 'keys') setFilter('');
              setView('keys');
              if (serial) read.mutate(serial);
            }}
            data-testid="config-read"
          >
            {t('ocppLog.config.read')}
          </Button>
        </Authorized>
        <Authorized permi={[READ]}>
          {ocppVersion === '2.0.1' && (
            <Button
              loading={model.isPending}
              onClick={() => {
                if (view !== 'model') setFilter('');
                setView('model');
                if (serial) model.mutate(serial);
              }}
              data-testid="device-model-read"
            >
              {t('ocppLog.deviceModel.read')}
            </Button>
          )}
        </Authorized>
        {ocppVersion === '2.0.1' && serial && (
          <Authorized permi={[EDIT]}>
            <Button onClick={() => setNetworkOpen(true)} data-testid="network-profile">
              {t('ocppLog.network.open')}
            </Button>
          </Authorized>
        )}
        <Authorized permi={[EDIT]}>
          <Button onClick={() => setBulkOpen(true)} data-testid="config-bulk">
            {t('ocppLog.config.bulk')}
          </Button>
        </Authorized>
        {answer && answer.status === 'accepted' && (
          <Input.Search
            allowClear
            placeholder={t(view === 'keys' ? 'ocppLog.config.filter' : 'ocppLog.deviceModel.filter')}
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
            style={{ width: 240 }}
          />
        )}
      </Space>
      {!answer && !reading && <Typography.Text type="secondary">{t('ocppLog.config.choosePoint')}</Typography.Text>}
      {answer && answer.status !== 'accepted' && <AnswerAlert answer={answer} />}
      {view === 'model' && model.data?.status === 'accepted' && (
        <>
          <Typography.Text type="secondary">
            {rows.length === model.data.items.length
              ? t('ocppLog.deviceModel.count', { n: rows.length })
              : t('ocppLog.deviceModel.countFiltered', { shown: rows.length, n: model.data.items.length })}
          </Typography.Text>
          <DeviceModelTable items={rows} loading={model.isPending} />
        </>
      )}
      {view === 'keys' && read.data?.status === 'accepted' && (
        <>
          <Table<ConfigurationKey>
            size="small"
            rowKey="key"
            loading={read.isPending}
            dataSource={keys}
            pagination={false}
            scroll={{ y: 520 }}
            columns={[
              {
                key: 'key',
                dataIndex: 'key',
                title: t('fields.pointAction.key'),
                width: 360,
                render: (k: string) => (
                  <Flex vertical>
                    <span>{k}</span>
                    {keyMeaning(t, k, explained) && (
                      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                        {keyMeaning(t, k, explained)}
                      </Typography.Text>
                    )}
                  </Flex>
                ),
              },
              {
                key: 'value',
                dataIndex: 'value',
                title: t('fields.pointAction.value'),
                render: (v: string | null) =>
                  v === null ? <Typography.Text type="secondary">{t('ocppLog.config.noValue')}</Typography.Text> : v,
              },
              {
                key: 'unit',
                title: t('ocppLog.config.unit'),
                width: 80,
                render: (_: unknown, k: ConfigurationKey) => keyUnit(t, k.key, explained),
              },
              {
                key: 'readonly',
                dataIndex: 'readonly',
                title: t('fields.pointAction.readonly'),
                width: 120,
                render: (ro: boolean) => (
                  <Tag color={ro ? 'default' : 'processing'}>{t(ro ? 'ocppLog.config.readonly' : 'ocppLog.config.writable')}</Tag>
                ),
              },
              ...(hasPermi(EDIT)
                ? [
                    {
                      key: '$edit',
                      title: t('common.actions'),
                      width: 100,
                      render: (_: unknown, k: ConfigurationKey) =>
                        k.readonly ? null : (
                          <Button
                            type="link"
                            size="small"
                            onClick={() => {
                              setChanged(null);
                              reboot.reset();
                              form.setFieldsValue({ value: k.value ?? '' });
                              setEditing(k);
                            }}
                          >
                            {t('ocppLog.config.edit')}
                          </Button>
                        ),
                    },
                  ]
                : []),
            ]}
          />
          {read.data!.unknownKey.length > 0 && (
            <Typography.Text type="secondary">
              {t('ocppLog.config.unknownKeys', { keys: read.data!.unknownKey.join(', ') })}
            </Typography.Text>
          )}
        </>
      )}
      <Modal
        open={editing !== null}
        title={t('ocppLog.config.editTitle', { key: editing?.key ?? '' })}
        onCancel={() => setEditing(null)}
        destroyOnHidden
        footer={
          changed ? (
            <Button type="primary" onClick={() => setEditing(null)}>
              {t('common.close')}
            </Button>
          ) : (
            <Space>
              <Button onClick={() => setEditing(null)}>{t('common.cancel')}</Button>
              <Button type="primary" loading={change.isPending} onClick={() => void save()} data-testid="config-save">
                {t('common.confirm')}
              </Button>
            </Space>
          )
        }
      >
        {changed ? (
          <Flex vertical gap={12}>
            <AnswerAlert answer={changed} />
            {changed.status === 'rebootRequired' && (
              <Authorized permi={[RESET]}>
                {reboot.data ? (
                  <AnswerAlert answer={reboot.data} />
                ) : (
                  <Button loading={reboot.isPending} onClick={() => reboot.mutate(serial!)} data-testid="config-reboot">
                    {t('ocppLog.config.rebootNow')}
                  </Button>
                )}
              </Authorized>
            )}
          </Flex>
        ) : (
          <Form form={form} layout="vertical">
            {editing && <KeyHelp name={editing.key} />}
            <Form.Item
              name="value"
              label={t('fields.pointAction.value')}
              rules={[
                { max: 500, message: t('validation.tooLong', { field: t('fields.pointAction.value'), max: 500 }) },
                valueRule(editing?.key),
              ]}
            >
              <KeyValueInput name={editing?.key} />
            </Form.Item>
          </Form>
        )}
      </Modal>
      {bulkOpen && (
        <Suspense fallback={null}>
          <BulkChangeDialog open onClose={() => setBulkOpen(false)} />
        </Suspense>
      )}
      {networkOpen && serial && (
        <Suspense fallback={null}>
          <NetworkProfileDialog serialNumber={serial} onClose={() => setNetworkOpen(false)} />
        </Suspense>
      )}
    </Flex>
  );
}
