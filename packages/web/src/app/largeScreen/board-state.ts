import type { BoardStation } from '@csms/contract';

/** What a station shows on the wall: a fault wins, then charging, then free connectors; else offline. */
export const BOARD_STATES = ['faulted', 'charging', 'available', 'offline'] as const;
export type BoardState = (typeof BOARD_STATES)[number];

/** The fault ticker reads the open alarms, which the point monitor's permission shows. */
export const FAULTS_PERMI = 'monitor:point:list';

export function stationState(s: Pick<BoardStation, 'faulted' | 'charging' | 'available'>): BoardState {
  if (s.faulted > 0) return 'faulted';
  if (s.charging > 0) return 'charging';
  if (s.available > 0) return 'available';
  return 'offline';
}

export const boardColors: Record<BoardState, string> = {
  faulted: '#ff4d4f',
  charging: '#1677ff',
  available: '#52c41a',
  offline: '#8c8c8c',
};

/** The stations with the most income today (then energy), the best first. */
export function ranking(stations: BoardStation[], size = 10): BoardStation[] {
  return [...stations]
    .sort((a, b) => b.incomeCents - a.incomeCents || b.energyWh - a.energyWh || a.stationName.localeCompare(b.stationName))
    .slice(0, size);
}

/** The scale that fits a `width` × `height` design into the window without scroll bars. */
export const fitScale = (win: { width: number; height: number }, width = 1920, height = 1080) =>
  Math.min(win.width / width, win.height / height);
