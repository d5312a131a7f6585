import type { PriceTier } from '@csms/contract';
import { Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { runsOf, slotTime, TIER_COLORS } from './slots';

/** `00:00–08:00 Valley, 08:00–12:00 Peak, …` */
export function useRunsText() {
  const { t } = useTranslation();
  return (slots: readonly PriceTier[]) =>
    runsOf(slots)
      .map((r) => `${slotTime(r.from)}–${slotTime(r.to)} ${t(`enums.priceTier.${r.tier}`)}`)
      .join(', ');
}

/** The day's tiers as a compact 24-hour bar (lists, version history); the runs in words on hover and for screen readers. */
export function TierBar({ slots, width = 192, height = 12 }: { slots: readonly PriceTier[]; width?: number; height?: number }) {
  const runsText = useRunsText();
  const label = runsText(slots);
  return (
    <Tooltip title={label}>
      <div
        role="img"
        aria-label={label}
        data-testid="tier-bar"
        style={{ display: 'inline-flex', width, height, borderRadius: 3, overflow: 'hidden', verticalAlign: 'middle' }}
      >
        {runsOf(slots).map((r) => (
          <span key={r.from} style={{ flex: r.to - r.from, background: TIER_COLORS[r.tier] }} />
        ))}
      </div>
    </Tooltip>
  );
}
