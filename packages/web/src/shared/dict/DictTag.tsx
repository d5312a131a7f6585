import type { DictType } from '@csms/contract';
import { Space, Tag } from 'antd';
import { listClassColor, useDict } from './useDict';

export interface DictTagProps {
  type: DictType;
  /** One value, several, or a comma-separated list (RuoYi's multi-value columns). */
  value: string | number | boolean | readonly (string | number)[] | null | undefined;
}

function toValues(value: DictTagProps['value']): string[] {
  if (value === null || value === undefined || value === '') return [];
  if (Array.isArray(value)) return value.map(String);
  if (typeof value === 'boolean') return [value ? '1' : '0'];
  return String(value).split(',');
}

/** A dictionary value as a coloured tag; an unknown value shows as itself. */
export function DictTag({ type, value }: DictTagProps) {
  const entries = useDict(type);
  const values = toValues(value);
  if (values.length === 0) return null;
  return (
    <Space size={4} wrap>
      {values.map((v) => {
        const entry = entries.find((e) => e.dictValue === v);
        if (!entry) return <span key={v}>{v}</span>;
        return (
          // A long label wraps inside its cell rather than running over the next column.
          <Tag key={v} color={listClassColor[entry.listClass]} className={entry.cssClass || undefined} style={{ whiteSpace: 'normal' }}>
            {entry.dictLabel}
          </Tag>
        );
      })}
    </Space>
  );
}
