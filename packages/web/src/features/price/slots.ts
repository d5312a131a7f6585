import { SLOTS_PER_DAY, type PriceTier } from '@csms/contract';

/** One colour per tier, from expensive (warm) to cheap (cool); the timeline, the bars and the legend share them. */
export const TIER_COLORS: Record<PriceTier, string> = {
  sharp: '#e5484d',
  peak: '#f59e0b',
  flat: '#3b82f6',
  valley: '#10b981',
};

/** `HH:MM` at the start of slot `i` (0–48; 48 is 24:00). */
export function slotTime(i: number): string {
  const minutes = i * 30;
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${minutes % 60 === 0 ? '00' : '30'}`;
}

export function fillAll(tier: PriceTier): PriceTier[] {
  return Array.from({ length: SLOTS_PER_DAY }, () => tier);
}

/** Slots `a` to `b` (inclusive, either order) painted with a tier; the rest as they were. */
export function paintRange(slots: readonly PriceTier[], a: number, b: number, tier: PriceTier): PriceTier[] {
  const from = Math.max(0, Math.min(a, b));
  const to = Math.min(SLOTS_PER_DAY - 1, Math.max(a, b));
  return slots.map((s, i) => (i >= from && i <= to ? tier : s));
}

export interface Run {
  tier: PriceTier;
  /** First slot of the run. */
  from: number;
  /** Slot after its last one (48 = the end of the day). */
  to: number;
}

/** The day as runs of one tier: 00:00–08:00 valley, 08:00–12:00 peak, … */
export function runsOf(slots: readonly PriceTier[]): Run[] {
  const runs: Run[] = [];
  slots.forEach((tier, i) => {
    const last = runs.at(-1);
    if (last && last.tier === tier) last.to = i + 1;
    else runs.push({ tier, from: i, to: i + 1 });
  });
  return runs;
}
