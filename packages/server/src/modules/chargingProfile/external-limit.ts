import { externalLimitW, type ExternalLimitState } from '@csms/contract';
import type { chargingLimit } from '../../db/schema.js';

export type ChargingLimitRow = typeof chargingLimit.$inferSelect;

/**
 * The external limit a connector is under (OCPP 2.0.1 NotifyChargingLimit): of its EVSE's reports
 * and the whole charger's (EVSE 0), the one allowing least at `now`; a grid-critical one before
 * another that names no power. Null when nothing limits it.
 */
export function externalLimitOf(rows: readonly ChargingLimitRow[], connectorNo: number, now: Date): ExternalLimitState | null {
  const mine = rows
    .filter((r) => r.evseId === 0 || r.evseId === connectorNo)
    .map((r) => ({ r, w: externalLimitW(r.schedules, r.reportedAt, now) }))
    .sort((a, b) => (a.w ?? Infinity) - (b.w ?? Infinity) || Number(b.r.gridCritical) - Number(a.r.gridCritical));
  const first = mine[0];
  if (!first) return null;
  return { source: first.r.source, gridCritical: first.r.gridCritical, limitW: first.w, reportedAt: first.r.reportedAt.toISOString() };
}
