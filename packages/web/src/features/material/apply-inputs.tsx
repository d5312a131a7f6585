import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { MATERIAL_APPLY_MAX_LINES, MATERIAL_MAX_COUNT, type MaterialApplyStatus, materialApplyApi, materialApi } from '@csms/contract';
import { Button, Flex, Form, InputNumber, Tag, Typography } from 'antd';
import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../shared/api/client';
import { RemoteSelect } from '../../shared/resource/inputs';
import { OPTIONS_LIMIT, type FormFieldCtx, type RemoteOptions } from '../../shared/resource/types';

const statusColor: Record<MaterialApplyStatus, string> = { applied: 'processing', agreed: 'success', notAgreed: 'error' };

export function ApplyStatusTag({ status }: { status: MaterialApplyStatus }) {
  const { t } = useTranslation();
  return (
    <Tag color={statusColor[status]} data-status={status}>
      {t(`enums.materialApplyStatus.${status}`)}
    </Tag>
  );
}

/** The provider of each work order the picker offered: the parts lines offer that provider's parts. */
const providerOfTask = new Map<string, number>();

const loadWorkOrders = async (text: string) => {
  const rows = await call(materialApplyApi.workOrders, { query: { text, limit: OPTIONS_LIMIT } });
  for (const r of rows) providerOfTask.set(r.taskId, r.providerId);
  return rows.map((r) => ({ value: r.taskId, label: `${r.taskId} · ${r.stationName} · ${r.serialNumber} · ${r.faultCode}` }));
};
const workOrderOptions: RemoteOptions = {
  key: 'materialApplyWorkOrders',
  load: () => loadWorkOrders(''),
  search: (text) => loadWorkOrders(text),
};

type Injected = { value?: unknown; onChange?: (v: unknown) => void; id?: string };

/** The open work order the parts are for, searched by task ID among those the caller sees. */
export function WorkOrderField({ t, mode: _m, form: _f, record: _r, ...injected }: FormFieldCtx & Injected) {
  return (
    <RemoteSelect
      {...(injected as object)}
      remote={workOrderOptions}
      placeholder={t('materialApply.chooseWorkOrder')}
      data-testid="apply-work-order"
    />
  );
}

const partsOf = (providerId: number): RemoteOptions => {
  const load = async (text: string, ids: Array<string | number>) =>
    (
      await call(materialApi.options, {
        query: { providerId, text, limit: OPTIONS_LIMIT, ...(ids.length ? { ids: ids.join(',') } : {}) },
      })
    ).map((m) => ({
      value: m.id,
      label: `${m.partsNumber} · ${m.name}${m.model ? ` · ${m.model}` : ''} (${m.stock}${m.unit ? ` ${m.unit}` : ''})`,
    }));
  return { key: `materialOptions:${providerId}`, load: () => load('', []), search: load };
};

type Line = { materialId?: number; count?: number };

/** The parts lines of an apply order: a part of the work order's provider and a count each. */
export function LinesField({
  form,
  t,
  value,
  onChange,
  id,
}: FormFieldCtx & { value?: Line[]; onChange?: (v: Line[]) => void; id?: string }) {
  const taskId = Form.useWatch('workOrderTaskId', form) as string | undefined;
  const providerId = taskId ? providerOfTask.get(taskId) : undefined;
  const remote = useMemo(() => (providerId ? partsOf(providerId) : undefined), [providerId]);
  const lines = value ?? [];
  const set = (next: Line[]) => onChange?.(next);
  // Another provider's order: the lines chosen so far are not its parts.
  const previous = useRef(providerId);
  useEffect(() => {
    if (previous.current !== undefined && previous.current !== providerId) onChange?.([{}]);
    previous.current = providerId;
  }, [providerId, onChange]);

  if (!remote) return <Typography.Text type="secondary">{t('materialApply.chooseWorkOrderFirst')}</Typography.Text>;
  return (
    <Flex vertical gap={8} id={id} data-testid="apply-lines">
      {lines.map((line, i) => (
        <Flex key={i} gap={8} align="center" data-testid={`apply-line-${i}`}>
          <RemoteSelect
            remote={remote}
            value={line.materialId}
            onChange={(v: unknown) => set(lines.map((l, j) => (j === i ? { ...l, materialId: v as number | undefined } : l)))}
            placeholder={t('materialApply.choosePart')}
            style={{ flex: 1, minWidth: 0 }}
            aria-label={t('fields.materialApply.materialId')}
          />
          <InputNumber
            min={1}
            max={MATERIAL_MAX_COUNT}
            precision={0}
            value={line.count}
            onChange={(v) => set(lines.map((l, j) => (j === i ? { ...l, count: v ?? undefined } : l)))}
            placeholder={t('fields.materialApply.count')}
            aria-label={t('fields.materialApply.count')}
            style={{ width: 110 }}
          />
          <Button
            icon={<DeleteOutlined />}
            aria-label={t('materialApply.removeLine')}
            disabled={lines.length <= 1}
            onClick={() => set(lines.filter((_, j) => j !== i))}
          />
        </Flex>
      ))}
      <Button
        type="dashed"
        icon={<PlusOutlined />}
        disabled={lines.length >= MATERIAL_APPLY_MAX_LINES}
        onClick={() => set([...lines, { count: 1 }])}
        data-testid="apply-add-line"
      >
        {t('materialApply.addLine')}
      </Button>
    </Flex>
  );
}
