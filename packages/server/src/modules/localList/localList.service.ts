import type { LocalListState, LocalListUpdateType } from '@csms/contract';
import type { IdTagInfo } from '../cards/authorize.js';
import type { Answer, CommandSender } from '../pointAction/pointAction.service.js';
import type { HeldEntry, LocalListEntry, LocalListRepo } from './localList.repo.js';

type Wanted = (providerId: number, now: Date, ocppVersion: string | null) => Promise<LocalListEntry[]>;

export interface ListPoint {
  id: number;
  providerId: number;
  serialNumber: string;
  /** The OCPP version of its last connection (null: never connected, taken as 1.6). */
  ocppVersion: string | null;
}

const sameInfo = (h: HeldEntry, info: IdTagInfo) =>
  h.status === info.status &&
  (h.expiryDate?.toISOString() ?? null) === (info.expiryDate ? new Date(info.expiryDate).toISOString() : null) &&
  (h.parentIdTag ?? null) === (info.parentIdTag ?? null);

/**
 * OCPP 1.6 Differential update: entries that are new or whose idTagInfo changed, with it; entries
 * the point holds that are no longer on the list (card deleted, moved to another provider), without
 * it, which removes them. Lost, disabled, expired or empty cards stay on the list as Blocked or Expired.
 */
export function differential(held: HeldEntry[], wanted: LocalListEntry[]): LocalListEntry[] {
  const left = new Map(held.map((h) => [h.idTag, h]));
  const out: LocalListEntry[] = [];
  for (const e of wanted) {
    const h = left.get(e.idTag);
    left.delete(e.idTag);
    if (!e.idTagInfo) continue;
    if (!h || !sameInfo(h, e.idTagInfo)) out.push(e);
  }
  for (const idTag of left.keys()) out.push({ idTag });
  return out;
}

export interface SendResult {
  answer: Answer;
  listVersion: number;
  updateType: LocalListUpdateType;
  entries: number;
  state: LocalListState;
}

/**
 * Local authorization lists per point (README "Local authorization lists"): each point's version
 * and content are recorded when it Accepts; a Differential carries the changes since then, a Full
 * the whole list. Used by the operator's SendLocalList and by the automatic sync.
 */
export function createLocalListService({
  repo,
  ask,
  wanted,
}: {
  repo: LocalListRepo;
  ask: CommandSender;
  /**
   * The cards' list for a provider's points of an OCPP version now (the cards module's authorization
   * service: a 1.6 charger's leaves master passes out).
   */
  wanted: Wanted;
}) {
  /** One update at a time per point on this node; the repo's guard covers updates from other nodes. */
  const busy = new Map<number, Promise<unknown>>();
  function serial<T>(pointId: number, f: () => Promise<T>): Promise<T> {
    const before = busy.get(pointId) ?? Promise.resolve();
    const run = before.then(f, f);
    const tail = run.catch(() => {});
    busy.set(pointId, tail);
    void tail.then(() => busy.get(pointId) === tail && busy.delete(pointId));
    return run;
  }

  async function state(pointId: number): Promise<LocalListState> {
    const p = await repo.point(pointId);
    const serverVersion = p?.version ?? null;
    const inStep = Boolean(p?.inStep) && serverVersion !== null;
    return {
      serverVersion,
      chargerVersion: p?.chargerVersion ?? null,
      inStep,
      lastStatus: p?.lastStatus ?? null,
      entries: await repo.heldCount(pointId),
      suggested: inStep ? 'Differential' : 'Full',
    };
  }

  /**
   * Computes and sends an update. `onlyChanges` (automatic sync) sends nothing when a Differential
   * would be empty. The version sent is the point's recorded version + 1 (above the charger's own for a
   * Full, so that a charger with a newer list of unknown origin takes it).
   */
  async function send(point: ListPoint, requested?: LocalListUpdateType, opts: { onlyChanges?: boolean; now?: Date; list?: Wanted } = {}) {
    return serial(point.id, async (): Promise<SendResult | null> => {
      const now = opts.now ?? new Date();
      const before = await state(point.id);
      const updateType = requested ?? before.suggested;
      const seen = await repo.counter();
      const list = await (opts.list ?? wanted)(point.providerId, now, point.ocppVersion);
      const entries = updateType === 'Full' ? list : differential(await repo.held(point.id), list);
      if (opts.onlyChanges && updateType === 'Differential' && entries.length === 0) {
        await repo.seen(point.id, seen);
        return null;
      }
      // A point out of step may hold any version: ask it first, so that the Full goes above it (OCPP 1.6 GetLocalListVersion).
      if (updateType === 'Full' && !before.inStep) {
        const v = await ask(point.serialNumber, 'GetLocalListVersion', {}, () => 'Accepted');
        // Not there, or not answering: that is the answer (no second wait for the same silence).
        if (v.status === 'offline' || (v.status === 'failed' && !v.payload && !v.chargerStatus)) {
          if (v.status !== 'offline') await repo.refused(point.id, 'Failed');
          return {
            answer: v,
            listVersion: (before.serverVersion ?? 0) + 1,
            updateType,
            entries: entries.length,
            state: await state(point.id),
          };
        }
        const reported = v.payload?.listVersion;
        if (typeof reported === 'number' && Number.isInteger(reported) && reported >= 0) {
          await repo.chargerVersion(point.id, reported);
          before.chargerVersion = reported;
        }
      }
      const base = before.serverVersion;
      const listVersion = Math.max(base ?? 0, updateType === 'Full' ? (before.chargerVersion ?? 0) : 0) + 1;
      const answer = await ask(point.serialNumber, 'SendLocalList', {
        listVersion,
        updateType,
        ...(entries.length > 0 || updateType === 'Full' ? { localAuthorizationList: entries } : {}),
      });
      if (answer.chargerStatus === 'Accepted') await repo.accepted(point.id, base, { listVersion, updateType, entries }, seen);
      // Any other answer but offline leaves the point out of step (a timed-out update may or may not have
      // been applied); one that does not know the message is left alone by the automatic sync.
      else if (answer.status !== 'offline') {
        const unsupported = answer.status === 'notSupported' || answer.status === 'notImplemented';
        await repo.refused(point.id, unsupported ? 'NotSupported' : (answer.chargerStatus ?? 'Failed'));
      }
      return { answer, listVersion, updateType, entries: entries.length, state: await state(point.id) };
    });
  }

  return {
    state,
    send: (point: ListPoint, requested?: LocalListUpdateType) => send(point, requested) as Promise<SendResult>,
    /** The charger's GetLocalListVersion answer (≥ 0) goes into the record; the state says whether it agrees. */
    async chargerVersion(pointId: number, version: number) {
      await repo.chargerVersion(pointId, version);
      return state(pointId);
    },
    /** One pass of the automatic sync over the points this node holds; returns how many updates were sent. */
    async sweep(nodeId: string, now: Date, retryAfterMs: number): Promise<number> {
      const counter = await repo.counter();
      const points = await repo.due(nodeId, now, counter, new Date(now.getTime() - retryAfterMs));
      // One read of the cards per provider, OCPP version and pass, however many of its points are due.
      const lists = new Map<string, Promise<LocalListEntry[]>>();
      const list: Wanted = (providerId, at, version) => {
        const k = `${providerId}:${version}`;
        if (!lists.has(k)) lists.set(k, wanted(providerId, at, version));
        return lists.get(k)!;
      };
      let sent = 0;
      for (const p of points) {
        const r = await send(p, undefined, { onlyChanges: true, now, list });
        if (!r) continue;
        sent++;
        // The charger holds another version than the record says: a Full brings it back in step at once.
        if (r.updateType === 'Differential' && r.answer.chargerStatus === 'VersionMismatch') {
          await send(p, 'Full', { now, list });
          sent++;
        }
      }
      return sent;
    },
  };
}

export type LocalListService = ReturnType<typeof createLocalListService>;
