import type { TFunction } from 'i18next';

/** Units at the edge (CONVENTIONS §9): the API speaks Wh and W; the screens show kWh and kW. */
export const kwh = (energyWh: number | null | undefined) =>
  energyWh === null || energyWh === undefined ? '' : (energyWh / 1000).toFixed(2);
export const kw = (powerW: number | null | undefined) => (powerW === null || powerW === undefined ? '' : (powerW / 1000).toFixed(1));

/** Elapsed time since `from` as hours, minutes and seconds. */
export function formatDuration(t: TFunction, fromIso: string, now: number): string {
  const total = Math.max(0, Math.floor((now - Date.parse(fromIso)) / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return h > 0 ? t('monitor.duration', { h, m, s }) : t('monitor.durationShort', { m, s });
}
