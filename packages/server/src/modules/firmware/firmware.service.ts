import type { FirmwarePointState } from '@csms/contract';
import type { CommandSender } from '../pointAction/pointAction.service.js';
import type { FirmwareRepo } from './firmware.repo.js';

/** FirmwareStatusNotification's words (OCPP 1.6 §7.25) that the upgrade follows. */
const REPORTED = new Set<FirmwarePointState>([
  'Downloading',
  'Downloaded',
  'DownloadFailed',
  'Installing',
  'Installed',
  'InstallationFailed',
  'Idle',
]);
/** States after which a boot tells whether the new firmware runs. */
const INSTALLING = new Set<FirmwarePointState>(['Downloaded', 'Installing', 'Installed']);

/**
 * Firmware upgrades (issue 16 item 2): UpdateFirmware to each point of an upgrade, now for the ones
 * online and when it connects for one that is offline; each FirmwareStatusNotification moves the
 * point's state; the version it reports at its next boot confirms the upgrade, or shows that it
 * did not take.
 */
export function createFirmwareUpgrades({
  repo,
  ask,
  now = () => new Date(),
}: {
  repo: FirmwareRepo;
  ask: CommandSender;
  now?: () => Date;
}) {
  async function sendOne(upgradeId: number, target: { chargePointId: number; serialNumber: string }) {
    const u = await repo.upgradeRow(upgradeId);
    if (!u) return;
    const a = await ask(
      target.serialNumber,
      'UpdateFirmware',
      {
        location: u.location,
        retrieveDate: u.retrieveAt.toISOString(),
        ...(u.retries !== null ? { retries: u.retries } : {}),
        ...(u.retryInterval !== null ? { retryInterval: u.retryInterval } : {}),
      },
      // UpdateFirmware.conf carries nothing: a CALLRESULT is the charger's yes.
      () => 'Accepted',
    );
    if (a.status === 'offline') return; // still pending: sent when it connects
    if (a.status === 'accepted') await repo.setState(upgradeId, target.chargePointId, { state: 'sent', sentAt: now(), reason: null });
    else await repo.setState(upgradeId, target.chargePointId, { state: 'rejected', sentAt: now(), reason: a.chargerStatus ?? a.status });
  }

  /** Each point one after the other would make a large upgrade slow: ten chargers at a time. */
  async function sendPending(upgradeId: number) {
    const targets = await repo.targets(upgradeId, ['pending']);
    for (let i = 0; i < targets.length; i += 10) await Promise.all(targets.slice(i, i + 10).map((t) => sendOne(upgradeId, t)));
  }

  return {
    sendPending,
    /** A point booted: a pending upgrade is sent now; one that was installing is judged by the version it reports. */
    async booted(point: { id: number; serialNumber: string; firmwareVersion: string | null }) {
      const cur = await repo.current(point.id);
      if (!cur) return;
      const { r, u, version } = cur;
      if (r.state === 'pending') return sendOne(u.id, { chargePointId: point.id, serialNumber: point.serialNumber });
      if (!INSTALLING.has(r.state)) return;
      const ok = version ? point.firmwareVersion === version : point.firmwareVersion !== r.fromVersion;
      await repo.setState(u.id, point.id, {
        state: ok ? 'confirmed' : 'notInstalled',
        reportedVersion: point.firmwareVersion,
        reportedAt: now(),
      });
    },
    /** A FirmwareStatusNotification: the point's current upgrade moves to that state (retries may go back to Downloading). */
    async reported(point: { id: number }, status: string) {
      if (!REPORTED.has(status as FirmwarePointState)) return;
      const cur = await repo.current(point.id);
      if (!cur || cur.r.state === 'pending') return;
      // Idle after a success or before anything started says nothing new.
      if (status === 'Idle') return;
      await repo.setState(cur.u.id, point.id, { state: status as FirmwarePointState, reportedAt: now() });
    },
  };
}

export type FirmwareUpgrades = ReturnType<typeof createFirmwareUpgrades>;
