import { firmwareFailedStates, firmwarePointStates, type FirmwarePointState } from '@csms/contract';
import { Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';

/** Green: the charger runs the package (or has installed it); red: a failure retry sends again; blue: on its way; grey: not started. */
export function stateColor(state: FirmwarePointState): string {
  if (state === 'confirmed' || state === 'Installed') return 'success';
  if (firmwareFailedStates.includes(state)) return 'error';
  if (state === 'Downloading' || state === 'Downloaded' || state === 'Installing') return 'processing';
  return 'default';
}

export const isFailed = (state: string) => (firmwareFailedStates as readonly string[]).includes(state);

/** One point's state in the user's language. */
export function PointStateTag({ state }: { state: FirmwarePointState }) {
  const { t } = useTranslation();
  return (
    <Tag color={stateColor(state)} data-status={state}>
      {t(`enums.firmwarePointState.${state}`)}
    </Tag>
  );
}

/** An upgrade's points per state, one tag each in the contract's order of states. */
export function StateCounts({ counts }: { counts: Record<string, number> }) {
  const { t } = useTranslation();
  const shown = firmwarePointStates.filter((s) => (counts[s] ?? 0) > 0);
  return (
    <Space size={[0, 4]} wrap data-testid="state-counts">
      {shown.map((s) => (
        <Tag key={s} color={stateColor(s)} data-status={s} data-count={counts[s]}>
          {t(`enums.firmwarePointState.${s}`)} {counts[s]}
        </Tag>
      ))}
    </Space>
  );
}
