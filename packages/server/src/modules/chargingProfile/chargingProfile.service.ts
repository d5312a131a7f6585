import { DEFAULT_PHASES, VOLTS_PER_PHASE, type ProfilePeriod, type ProfileTargetStatus } from '@csms/contract';
import type { Answer, CommandSender } from '../pointAction/pointAction.service.js';
import type { ChargingProfileRepo, ProfileRow } from './chargingProfile.repo.js';

/** One target's outcome: the stored status and, when the status alone does not say, why (a vocabulary key). */
export interface TargetOutcome {
  serialNumber: string;
  connectorNo: number;
  status: ProfileTargetStatus;
  chargerStatus: string | null;
  messageKey: string | null;
  params: Record<string, unknown>;
}

/** OCPP 1.6 csChargingProfiles of a stored profile (for a TxProfile, the session it governs). */
export function ocppProfile(r: ProfileRow, transactionId?: number | null): Record<string, unknown> {
  return {
    chargingProfileId: r.id,
    ...(transactionId ? { transactionId } : {}),
    stackLevel: r.stackLevel,
    chargingProfilePurpose: r.purpose,
    chargingProfileKind: r.kind,
    ...(r.recurrencyKind ? { recurrencyKind: r.recurrencyKind } : {}),
    ...(r.validFrom ? { validFrom: r.validFrom.toISOString() } : {}),
    ...(r.validTo ? { validTo: r.validTo.toISOString() } : {}),
    chargingSchedule: {
      ...(r.durationSec ? { duration: r.durationSec } : {}),
      ...(r.startSchedule ? { startSchedule: r.startSchedule.toISOString() } : {}),
      chargingRateUnit: r.rateUnit,
      chargingSchedulePeriod: r.periods.map((p) => ({
        startPeriod: p.startPeriod,
        limit: p.limit,
        ...(p.numberPhases ? { numberPhases: p.numberPhases } : {}),
      })),
      ...(r.minChargingRate !== null ? { minChargingRate: r.minChargingRate } : {}),
    },
  };
}

/**
 * The most a point can take in a unit: its rated power in W; in A per phase, the rated power over
 * 230 V times the phases the period names (OCPP's default: 3), rounded down to 0.1 A.
 */
export function maxLimit(ratedPowerW: number, unit: 'A' | 'W', phases?: number | null): number {
  if (unit === 'W') return ratedPowerW;
  return Math.floor((ratedPowerW / (VOLTS_PER_PHASE * (phases ?? DEFAULT_PHASES))) * 10) / 10;
}

/** The first period whose limit a point cannot take, with that maximum. */
export function overLimit(ratedPowerW: number, unit: 'A' | 'W', periods: readonly ProfilePeriod[]) {
  for (const [i, p] of periods.entries()) {
    const max = maxLimit(ratedPowerW, unit, p.numberPhases);
    if (p.limit > max) return { index: i, max };
  }
  return undefined;
}

/**
 * Sends stored profiles to chargers and stores each answer: from the console (`send`) and again to a
 * point that booted (`afterBoot`), since a charger may lose its profiles on a reboot.
 */
export function createProfileSender({
  repo,
  ask,
  now = () => new Date(),
}: {
  repo: ChargingProfileRepo;
  ask: CommandSender;
  now?: () => Date;
}) {
  async function sendOne(
    r: ProfileRow,
    t: { chargePointId: number; serialNumber: string; connectorNo: number; runningTx?: number | null },
  ): Promise<TargetOutcome> {
    const base = { serialNumber: t.serialNumber, connectorNo: t.connectorNo };
    const at = now();
    const key = { profileId: r.id, chargePointId: t.chargePointId, connectorNo: t.connectorNo };
    // OCPP 1.6 §5.16.3: a TxProfile governs one running transaction and needs its id.
    const txId = r.purpose === 'TxProfile' ? (t.runningTx ?? null) : null;
    if (r.purpose === 'TxProfile' && !txId) {
      await repo.answered(key, { status: 'noTransaction', chargerStatus: null, transactionId: null, at });
      return { ...base, status: 'noTransaction', chargerStatus: null, messageKey: null, params: {} };
    }
    const a: Answer = await ask(t.serialNumber, 'SetChargingProfile', {
      connectorId: t.connectorNo,
      csChargingProfiles: ocppProfile(r, txId),
    });
    await repo.answered(key, { status: a.status, chargerStatus: a.chargerStatus, transactionId: txId, at });
    return { ...base, status: a.status, chargerStatus: a.chargerStatus, messageKey: a.messageKey, params: a.params };
  }

  /** Each point in parallel, its connectors one after the other (a charger answers one CALL at a time). */
  async function sendAll(r: ProfileRow, targets: Awaited<ReturnType<ChargingProfileRepo['targets']>>) {
    const byPoint = new Map<number, typeof targets>();
    for (const t of targets) byPoint.set(t.chargePointId, [...(byPoint.get(t.chargePointId) ?? []), t]);
    const perPoint = await Promise.all(
      [...byPoint.values()].map(async (list) => {
        const out: TargetOutcome[] = [];
        for (const t of list) out.push(await sendOne(r, t));
        return out;
      }),
    );
    return perPoint.flat();
  }

  return {
    async send(profileId: number): Promise<TargetOutcome[]> {
      const r = await repo.row(profileId);
      if (!r) return [];
      return sendAll(r, await repo.targets(profileId));
    },
    /** Re-sends what a point held before it booted; answers are stored like a send from the console. */
    async afterBoot(point: { id: number; serialNumber: string }): Promise<void> {
      const held = await repo.afterBoot(point.id, now());
      for (const { profile, connectorNo } of held) {
        await sendOne(profile, { chargePointId: point.id, serialNumber: point.serialNumber, connectorNo });
      }
    },
  };
}

export type ProfileSender = ReturnType<typeof createProfileSender>;
