import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { componentActions, type ComponentAction, componentApi } from '@csms/contract';
import { useQuery } from '@tanstack/react-query';
import { AutoComplete, Button, Flex, Form, Input, InputNumber, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../shared/api/client';
import type { FormFieldCtx } from '../../shared/resource/types';

export interface ComponentLine {
  component: string;
  action: ComponentAction;
  quantity: number;
  note?: string;
}

/** A component's name as the console shows it: a common one in the user's language, a typed one as typed. */
export function useComponentName() {
  const { t } = useTranslation();
  return (value: string) => t(`enums.component.${value}`, { defaultValue: value });
}

/**
 * The components a resolved repair replaced or repaired (the point's maintenance records): common ones by
 * name in the user's language (`getComName`), or any name typed. Shown while the result is "resolved".
 */
export function ComponentLines({
  form,
  value,
  onChange,
}: FormFieldCtx & { value?: ComponentLine[]; onChange?: (v: ComponentLine[]) => void }) {
  const { t } = useTranslation();
  const nameOf = useComponentName();
  const result = Form.useWatch('result', form) as string | undefined;
  const lines = value ?? [];
  const names = useQuery({
    queryKey: [componentApi.names.path],
    queryFn: ({ signal }) => call(componentApi.names, { query: {} }, { signal }),
    staleTime: 60_000,
    enabled: result === 'resolved',
  });
  if (result !== 'resolved') return <Typography.Text type="secondary">{t('workOrder.componentsOnResolved')}</Typography.Text>;
  const set = (i: number, patch: Partial<ComponentLine>) => onChange?.(lines.map((l, j) => (j === i ? { ...l, ...patch } : l)));
  const options = (names.data ?? []).map((n) => ({ value: n.value, label: n.common ? nameOf(n.value) : n.value }));
  return (
    <Flex vertical gap={8} data-testid="report-components">
      {lines.map((line, i) => (
        <Flex key={i} gap={8} align="center" wrap>
          <AutoComplete
            style={{ width: 200 }}
            value={options.find((o) => o.value === line.component)?.label ?? line.component}
            options={options}
            onSelect={(v: string) => set(i, { component: v })}
            onChange={(v: string) => set(i, { component: options.find((o) => o.label === v)?.value ?? v })}
            placeholder={t('fields.componentUse.component')}
            filterOption={(input, option) =>
              String(option?.label ?? '')
                .toLowerCase()
                .includes(input.toLowerCase())
            }
            data-testid={`component-name-${i}`}
          />
          <Select
            style={{ width: 110 }}
            value={line.action}
            options={componentActions.map((a) => ({ value: a, label: t(`enums.componentAction.${a}`) }))}
            onChange={(v: ComponentAction) => set(i, { action: v })}
            data-testid={`component-action-${i}`}
          />
          <InputNumber
            style={{ width: 90 }}
            min={1}
            max={999}
            precision={0}
            value={line.quantity}
            onChange={(v) => set(i, { quantity: v ?? 1 })}
            aria-label={t('fields.componentUse.quantity')}
          />
          <Input
            style={{ flex: 1, minWidth: 140 }}
            maxLength={200}
            value={line.note}
            placeholder={t('fields.componentUse.note')}
            onChange={(e) => set(i, { note: e.target.value })}
          />
          <Button
            type="text"
            danger
            icon={<DeleteOutlined />}
            aria-label={t('common.delete')}
            onClick={() => onChange?.(lines.filter((_, j) => j !== i))}
          />
        </Flex>
      ))}
      {lines.length < 20 && (
        <Button
          type="dashed"
          icon={<PlusOutlined />}
          onClick={() => onChange?.([...lines, { component: '', action: 'replaced', quantity: 1 }])}
          data-testid="component-add"
        >
          {t('workOrder.componentAdd')}
        </Button>
      )}
    </Flex>
  );
}
