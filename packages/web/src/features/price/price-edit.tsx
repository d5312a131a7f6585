import { ArrowLeftOutlined, PlusOutlined } from '@ant-design/icons';
import {
  priceFeeKeys,
  priceTiers,
  type PriceDetailDto,
  type PriceFeeKey,
  type PriceImpactDto,
  type PriceVersionDto,
  priceApi,
} from '@csms/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  type ButtonProps,
  Card,
  Col,
  DatePicker,
  Descriptions,
  Empty,
  Flex,
  Form,
  Input,
  Radio,
  Result,
  Row,
  Select,
  Space,
  Spin,
} from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { ApiError, call } from '../../shared/api/client';
import { Authorized } from '../../shared/auth/authorized';
import { feedback } from '../../shared/feedback';
import { formatMoney } from '../../shared/format/units';
import { wallClock } from '../../shared/format/zone-time';
import { bodyFrom, feeUnits, formField, reserveCents, valuesFrom, type PriceFormValues } from './price-form';
import { TIER_COLORS } from './slots';
import { TimelineEditor } from './TimelineEditor';
import { VersionHistory } from './VersionHistory';

export const PRICE_LIST_PATH = '/financialManagement/electricityPriceSetting';
const USER_GROUPS_PATH = '/userManagement/userGroup';

/** What the form saves: a new version, or an existing one (in place while unused, else as a new version). */
type Target = { kind: 'new' } | { kind: 'version'; version: PriceVersionDto };

const positive = (v: string | null) => (v && /^\d+$/.test(v) && Number(v) > 0 ? Number(v) : undefined);

/**
 * "Electricity Price Edit" and "Group Electricity Price Edit": the fees, the effective instant and
 * the day's timeline of one price, with its version history. `?stationId=` and, for a group
 * price, `?groupId=` (picked here when absent).
 */
export function PriceEditor({ kind }: { kind: 'station' | 'group' }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const stationId = positive(params.get('stationId'));
  const groupId = kind === 'group' ? positive(params.get('groupId')) : undefined;
  const [form] = Form.useForm<PriceFormValues>();
  const [target, setTarget] = useState<Target | null>(null);
  const [saving, setSaving] = useState(false);

  const queryKey = [priceApi.get.path, stationId, groupId ?? null];
  const detail = useQuery({
    queryKey,
    enabled: stationId !== undefined,
    queryFn: ({ signal }) => call(priceApi.get, { query: { stationId: stationId!, ...(groupId ? { groupId } : {}) } }, { signal }),
  });
  const d: PriceDetailDto | undefined = detail.data;
  const zone = d?.timeZone ?? 'UTC';
  const current = d?.versions.find((v) => v.id === d.currentId) ?? null;

  const open = (next: Target, data: PriceDetailDto) => {
    setTarget(next);
    const base = next.kind === 'version' ? next.version : (data.versions.find((v) => v.id === data.currentId) ?? data.versions[0]);
    form.resetFields();
    form.setFieldsValue(valuesFrom(base, data.timeZone, next.kind === 'version' && !next.version.used));
  };
  // A fresh price page edits its newest version (a used one becomes a new version on save), or starts the first.
  const loadedKey = d ? `${d.stationId}:${d.groupId}` : '';
  useEffect(() => {
    if (d) open(d.versions[0] ? { kind: 'version', version: d.versions[0] } : { kind: 'new' }, d);
    // Only when another price loads, not on each refetch.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loadedKey]);

  if (stationId === undefined || detail.isError) {
    return (
      <Card variant="borderless">
        <Result
          status="info"
          title={t('price.page.missingStation')}
          extra={<Button onClick={() => void navigate(PRICE_LIST_PATH)}>{t('price.page.back')}</Button>}
        />
      </Card>
    );
  }

  const refresh = async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: [priceApi.list.path] }),
      queryClient.invalidateQueries({ queryKey: [priceApi.groupList.path] }),
    ]);
    return detail.refetch();
  };

  const save = async () => {
    if (!d || !target) return;
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    const fields = bodyFrom(form.getFieldsValue(true) as PriceFormValues, d.timeZone);
    const owner = target.kind === 'version' ? { id: target.version.id } : { stationId: d.stationId, groupId: d.groupId };
    const send = (confirmPast?: true) =>
      target.kind === 'version'
        ? call(priceApi.edit, { body: { id: target.version.id, ...fields, confirmPast } }, { fieldErrors: true })
        : call(priceApi.add, { body: { stationId: d.stationId, groupId: d.groupId, ...fields, confirmPast } }, { fieldErrors: true });
    const done = async (saved: PriceVersionDto) => {
      const asNew = target.kind === 'version' && saved.id !== target.version.id;
      feedback.message.success(t(asNew ? 'price.page.savedNew' : 'common.success'));
      const fresh = await refresh();
      const version = fresh.data?.versions.find((v) => v.id === saved.id) ?? saved;
      if (fresh.data) open({ kind: 'version', version }, fresh.data);
    };
    const failed = (err: unknown) => {
      if (err instanceof ApiError && err.field) form.setFields([{ name: formField(err.field) as never, errors: [err.message] }]);
    };
    setSaving(true);
    try {
      await done(await send());
    } catch (err) {
      // A version for the past re-prices sessions: show what it changes, and save only when confirmed.
      if (err instanceof ApiError && err.field === 'confirmPast') {
        const impact = await call(priceApi.impact, { body: { ...owner, ...fields } }).catch(() => null);
        if (impact)
          confirmPast(impact, () =>
            send(true).then(done, (e: unknown) => {
              failed(e);
              throw e;
            }),
          );
      } else failed(err);
    } finally {
      setSaving(false);
    }
  };

  const confirmPast = (impact: PriceImpactDto, onOk: () => Promise<unknown>) =>
    feedback.modal.confirm({
      title: t('price.page.pastTitle'),
      width: 520,
      content: (
        <Flex vertical gap={4} data-testid="past-impact">
          <span>{t('price.page.pastIntro', { time: wallClock(impact.effectiveFrom, zone).slice(0, 16) })}</span>
          {impact.sessions === 0 ? (
            <span>{t('price.page.pastNone')}</span>
          ) : (
            <>
              <span>
                {t('price.page.pastSessions', {
                  count: impact.sessions,
                  finished: impact.finished,
                  running: impact.running,
                  unpriced: impact.unpriced,
                })}
              </span>
              <span>{t('price.page.pastMoney', { current: formatMoney(impact.currentCents), next: formatMoney(impact.newCents) })}</span>
            </>
          )}
        </Flex>
      ),
      okText: t('price.page.pastOk'),
      okButtonProps: { 'data-testid': 'past-ok' } as ButtonProps,
      cancelText: t('common.cancel'),
      onOk: () => onOk().catch(() => undefined),
    });

  const remove = (v: PriceVersionDto) =>
    feedback.modal.confirm({
      title: t('common.systemPrompt'),
      content: t('price.page.removeConfirm', { time: wallClock(v.effectiveFrom, zone).slice(0, 16) }),
      okText: t('common.confirm'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        const ok = await call(priceApi.remove, { body: { ids: [v.id] } }).then(
          () => true,
          () => false,
        );
        if (!ok) return;
        feedback.message.success(t('kit.deleteSuccess'));
        const fresh = await refresh();
        if (fresh.data && target?.kind === 'version' && target.version.id === v.id) open({ kind: 'new' }, fresh.data);
      },
    });

  const feeRule = (key: PriceFeeKey | 'reserveFeeCents') => ({
    validator: async (_: unknown, v: string | undefined) => {
      const field = t(`fields.price.${key}`);
      if (v === undefined || v === null || String(v).trim() === '') throw new Error(t('validation.required', { field }));
      const ok = key === 'reserveFeeCents' ? reserveCents(v) !== undefined : feeUnits(v) !== undefined;
      if (!ok) throw new Error(t(key === 'reserveFeeCents' ? 'validation.reserveFee' : 'validation.unitPrice', { field }));
    },
  });
  const title = t(kind === 'group' ? 'price.groupEditTitle' : 'price.editTitle');
  const editing = target?.kind === 'version' ? target.version : null;

  return (
    <Spin spinning={detail.isLoading}>
      <Flex vertical gap={16}>
        <Card
          variant="borderless"
          title={title}
          extra={
            <Button icon={<ArrowLeftOutlined />} onClick={() => void navigate(`${PRICE_LIST_PATH}${kind === 'group' ? '?tab=group' : ''}`)}>
              {t('price.page.back')}
            </Button>
          }
        >
          <Descriptions
            size="small"
            column={{ xs: 1, md: 2, xl: 4 }}
            items={[
              { key: 'station', label: t('fields.price.stationName'), children: d?.stationName },
              { key: 'provider', label: t('fields.common.providerName'), children: d?.providerName },
              { key: 'zone', label: t('fields.price.timeZone'), children: zone },
              ...(kind === 'group'
                ? [
                    {
                      key: 'group',
                      label: t('fields.price.groupName'),
                      children: (
                        <Select
                          data-testid="group-select"
                          style={{ minWidth: 200 }}
                          placeholder={t('price.page.pickGroup')}
                          value={groupId}
                          notFoundContent={t('price.page.noGroups')}
                          options={(d?.groups ?? []).map((g) => ({ value: g.id, label: g.name }))}
                          onChange={(id: number) => setParams({ stationId: String(stationId), groupId: String(id) })}
                        />
                      ),
                    },
                  ]
                : []),
            ]}
          />
        </Card>

        {d && kind === 'group' && groupId === undefined && (
          <Card variant="borderless">
            {/* Nothing to edit until a group is chosen; without groups, say where they are made. */}
            <Empty description={t(d.groups.length > 0 ? 'price.page.pickGroupHint' : 'price.page.noGroups')}>
              {d.groups.length === 0 && <Button onClick={() => void navigate(USER_GROUPS_PATH)}>{t('price.page.toGroups')}</Button>}
            </Empty>
          </Card>
        )}

        {d && (kind === 'station' || groupId !== undefined) && (
          <Card
            variant="borderless"
            title={
              editing ? t('price.page.editing', { time: wallClock(editing.effectiveFrom, zone).slice(0, 16) }) : t('price.page.creating')
            }
            extra={
              <Authorized permi={['finance:price:add']}>
                <Button icon={<PlusOutlined />} onClick={() => open({ kind: 'new' }, d)} data-testid="new-version">
                  {t('price.page.newVersion')}
                </Button>
              </Authorized>
            }
          >
            {editing?.used && (
              <Alert
                type="warning"
                showIcon
                style={{ marginBottom: 16 }}
                title={t('price.page.usedAlert', { count: editing.billedCount })}
              />
            )}
            <Form form={form} layout="vertical" name="price-form" requiredMark>
              <Row gutter={16}>
                {priceFeeKeys.map((key) => {
                  const tier = priceTiers.find((x) => key.startsWith(x))!;
                  return (
                    <Col key={key} xs={24} sm={12} lg={6}>
                      <Form.Item
                        name={key}
                        required
                        label={
                          <Space size={6}>
                            <span
                              aria-hidden
                              style={{ display: 'inline-block', width: 10, height: 10, borderRadius: 2, background: TIER_COLORS[tier] }}
                            />
                            {t(`fields.price.${key}`)}
                          </Space>
                        }
                        rules={[feeRule(key)]}
                      >
                        <Input inputMode="decimal" placeholder="0.0000" data-testid={`fee-${key}`} />
                      </Form.Item>
                    </Col>
                  );
                })}
                <Col xs={24} sm={12} lg={6}>
                  <Form.Item name="reserveFeeCents" required label={t('fields.price.reserveFeeCents')} rules={[feeRule('reserveFeeCents')]}>
                    <Input inputMode="decimal" placeholder="0.00" data-testid="fee-reserve" />
                  </Form.Item>
                </Col>
                <Col xs={24} lg={18}>
                  <Form.Item label={t('fields.price.effectiveFrom')} required extra={t('price.page.stationTime', { zone })}>
                    <Space wrap>
                      <Form.Item name="effectiveMode" noStyle>
                        <Radio.Group
                          options={[
                            { value: 'now', label: t('price.page.immediately') },
                            { value: 'at', label: t('price.page.fromTime') },
                          ]}
                        />
                      </Form.Item>
                      <Form.Item noStyle shouldUpdate={(a, b) => a.effectiveMode !== b.effectiveMode}>
                        {() =>
                          form.getFieldValue('effectiveMode') === 'at' && (
                            <Form.Item
                              name="effectiveAt"
                              noStyle
                              rules={[{ required: true, message: t('validation.required', { field: t('fields.price.effectiveFrom') }) }]}
                            >
                              <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" data-testid="effective-at" />
                            </Form.Item>
                          )
                        }
                      </Form.Item>
                    </Space>
                  </Form.Item>
                </Col>
              </Row>
              <Form.Item name="slots" label={t('fields.price.slots')} required>
                <TimelineEditor timeZone={zone} current={current?.slots ?? null} />
              </Form.Item>
              <Authorized permi={[editing ? 'finance:price:edit' : 'finance:price:add']}>
                <Button type="primary" loading={saving} onClick={() => void save()} data-testid="price-save">
                  {t('common.save')}
                </Button>
              </Authorized>
            </Form>
          </Card>
        )}

        {d && (kind === 'station' || groupId !== undefined) && (
          <Card variant="borderless" title={t('price.page.history')}>
            <VersionHistory
              versions={d.versions}
              currentId={d.currentId}
              timeZone={zone}
              editingId={editing?.id ?? null}
              onEdit={(v) => open({ kind: 'version', version: v }, d)}
              onRemove={remove}
            />
          </Card>
        )}
      </Flex>
    </Spin>
  );
}
