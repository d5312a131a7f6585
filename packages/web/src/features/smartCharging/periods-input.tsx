import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { ProfilePeriod } from '@csms/contract';
import { Button, InputNumber, Space } from 'antd';
import { useTranslation } from 'react-i18next';

type Period = Partial<ProfilePeriod>;

/** The periods of a charging schedule: start (s), limit in the profile's unit, phases; at least one. */
export function PeriodsInput({
  value,
  onChange,
  unit,
  id,
}: {
  value?: Period[];
  onChange?: (v: Period[]) => void;
  unit?: string;
  id?: string;
}) {
  const { t } = useTranslation();
  const rows = value && value.length > 0 ? value : [{ startPeriod: 0 }];
  const set = (i: number, patch: Period) => onChange?.(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <div id={id} data-testid="periods-input">
      {rows.map((r, i) => (
        <Space key={i} style={{ display: 'flex', marginBottom: 8 }} align="baseline" wrap>
          <InputNumber
            aria-label={`${t('fields.chargingProfile.startPeriod')} ${i + 1}`}
            placeholder={t('fields.chargingProfile.startPeriod')}
            min={0}
            precision={0}
            value={r.startPeriod}
            onChange={(v) => set(i, { startPeriod: v ?? undefined })}
            style={{ width: 160 }}
          />
          <InputNumber
            aria-label={`${t('fields.chargingProfile.limit')} ${i + 1}`}
            placeholder={t('fields.chargingProfile.limit')}
            min={0}
            value={r.limit}
            addonAfter={unit}
            onChange={(v) => set(i, { limit: v ?? undefined })}
            style={{ width: 220 }}
          />
          <InputNumber
            aria-label={`${t('fields.chargingProfile.numberPhases')} ${i + 1}`}
            placeholder={t('fields.chargingProfile.numberPhases')}
            min={1}
            max={3}
            precision={0}
            value={r.numberPhases ?? undefined}
            onChange={(v) => set(i, { numberPhases: v ?? null })}
            style={{ width: 110 }}
          />
          <Button
            icon={<DeleteOutlined />}
            aria-label={t('chargingProfile.removePeriod')}
            disabled={rows.length === 1}
            onClick={() => onChange?.(rows.filter((_, j) => j !== i))}
          />
        </Space>
      ))}
      <Button
        icon={<PlusOutlined />}
        onClick={() => {
          const last = rows.at(-1);
          onChange?.([...rows, { startPeriod: (last?.startPeriod ?? 0) + 3600, limit: last?.limit }]);
        }}
        data-testid="add-period"
      >
        {t('chargingProfile.addPeriod')}
      </Button>
    </div>
  );
}
