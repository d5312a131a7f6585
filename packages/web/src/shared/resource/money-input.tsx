import { InputNumber, type InputNumberProps } from 'antd';
import { unitsToCents } from '../format/units';

export type Scaled = Omit<InputNumberProps<number>, 'value' | 'onChange'> & {
  /** Injected by Form.Item: the value in the API's unit (cents, Wh). */
  value?: number | null;
  onChange?: (value: number | null) => void;
};

/** An amount typed in currency units (two decimals), held in cents. */
export function MoneyInput({ value, onChange, ...props }: Scaled) {
  return (
    <InputNumber<number>
      min={0}
      step={1}
      precision={2}
      style={{ width: '100%' }}
      {...props}
      value={value === null || value === undefined ? null : value / 100}
      onChange={(v) => onChange?.(v === null || v === undefined ? null : unitsToCents(Number(v)))}
    />
  );
}
