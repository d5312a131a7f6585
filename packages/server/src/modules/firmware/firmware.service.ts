import { firmwareWaveDoneStates, type FirmwarePointState } from '@csms/contract';
import type { CommandSender } from '../pointAction/pointAction.service.js';
import type { RolloutRepo } from './firmware-rollout.repo.js';

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
const WAVE_DONE = new Set<FirmwarePointState>(firmwareWaveDoneStates);

/** How often each node sweeps (wave time limits, waves due, pending points of chargers it holds). */
export const FIRMWARE_SWEEP_MS = 30_000;

/**
 * Firmware upgrades (issue 16 item 2): UpdateFirmware to each point of an upgrade, now for the ones
 * online and when it connects for one that is offline; each FirmwareStatusNotification moves the
 * point's state; the version it reports at its next boot confirms the upgrade, or shows that it
 * did not take.
 *
 * Rollout in waves: only the first wave is released; the next one is released when every point
 * released so far is done (installed or failed, `firmwareWaveDoneStates`), a point that has not
 * finished within the wave's time limit counting as failed (`timedOut`) so that a dead charger
 * cannot hold the rollout up. All of it is in the points' rows; each event that may finish a wave
 * releases the next one, and a sweep at start-up and every 30 s catches up after a crash.
 */
export function createFirmwareUpgrades({
  repo,
  ask,
  holds,
  now = () => new Date(),
}: {
  repo: RolloutRepo;
  ask: CommandSender;
  /** Whether this node holds the charger's socket (the sweep sends only to those). */
  holds: (serialNumber: string) => boolean;
  now?: () => Date;
}) {
  async function sendOne(upgradeId: number, target: { chargePointId: number; serialNumber: string }) {
    const u = await repo.upgradeRow(upgradeId);
    if (!u || !(await repo.claim(upgradeId, target.chargePointId, now()))) return;
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
    if (a.status === 'accepted') return;
    // Offline: pending again, sent when it connects.
    if (a.status === 'offline') return repo.unclaim(upgradeId, target.chargePointId);
    await repo.refused(upgradeId, target.chargePointId, a.chargerStatus ?? a.status, now());
    await advance(upgradeId);
  }

  /** Each point one after the other would make a large upgrade slow: ten chargers at a time. */
  async function sendPending(upgradeId: number) {
    const targets = await repo.targets(upgradeId, ['pending']);
    for (let i = 0; i < targets.length; i += 10) await Promise.all(targets.slice(i, i + 10).map((t) => sendOne(upgradeId, t)));
  }

  /** The next wave, when the ones released are done (nothing for an upgrade sent all at once). */
  async function advance(upgradeId: number) {
    if ((await repo.releaseNextWave(upgradeId, now())) > 0) await sendPending(upgradeId);
  }

  return {
    sendPending,
    advance,
    /**
     * What is due by the rows alone (at start-up, then every 30 s on each node): points past their
     * wave's time limit time out, waves whose predecessors are done are released, and pending
     * points of chargers this node holds are sent (a crash between a release and its sending, a
     * charger that reconnected without booting). Idempotent: sending claims each point first.
     */
    async sweep() {
      await repo.timeOut(now());
      for (const id of await repo.waiting()) await advance(id);
      for (const t of await repo.pendingOnline()) if (holds(t.serialNumber)) await sendOne(t.upgradeId, t);
    },
    /** A point booted: a pending upgrade is sent now; one that was installing is judged by the version it reports. */
    async booted(point: { id: number; serialNumber: string; firmwareVersion: string | null }) {
      const cur = await repo.current(point.id);
      if (!cur) return;
      const { r, u, version } = cur;
      if (r.state === 'pending') return sendOne(u.id, { chargePointId: point.id, serialNumber: point.serialNumber });
      // Timed out in its wave, yet it came back with the package's version: upgraded after all.
      const late = r.state === 'timedOut' && version !== null && point.firmwareVersion === version;
      if (!INSTALLING.has(r.state) && !late) return;
      const ok = version ? point.firmwareVersion === version : point.firmwareVersion !== r.fromVersion;
      await repo.setState(u.id, point.id, {
        state: ok ? 'confirmed' : 'notInstalled',
        reportedVersion: point.firmwareVersion,
        reportedAt: now(),
      });
      await advance(u.id);
    },
    /** A FirmwareStatusNotification: the point's current upgrade moves to that state (retries may go back to Downloading). */
    async reported(point: { id: number }, status: string) {
      if (!REPORTED.has(status as FirmwarePointState)) return;
      const cur = await repo.current(point.id);
      if (!cur || cur.r.state === 'pending') return;
      // Idle after a success or before anything started says nothing new.
      if (status === 'Idle') return;
      await repo.setState(cur.u.id, point.id, { state: status as FirmwarePointState, reportedAt: now() });
      if (WAVE_DONE.has(status as FirmwarePointState)) await advance(cur.u.id);
    },
  };
}

export type FirmwareUpgrades = ReturnType<typeof createFirmwareUpgrades>;

/** The sweep on this node: once at start, then every `intervalMs` (a slow sweep is never run twice at once). */
export function startFirmwareSweep({
  upgrades,
  intervalMs = FIRMWARE_SWEEP_MS,
  onError,
}: {
  upgrades: Pick<FirmwareUpgrades, 'sweep'>;
  intervalMs?: number;
  onError: (err: unknown) => void;
}) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  const tick = () => {
    if (running) return;
    running = upgrades
      .sweep()
      .catch(onError)
      .finally(() => (running = undefined));
  };
  return {
    start() {
      if (timer) return;
      tick();
      timer = setInterval(tick, intervalMs);
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}
