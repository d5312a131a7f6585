import { BALANCER_PROFILE_ID_BASE, BALANCER_STACK_LEVEL, type ConsoleEventPayloads } from '@csms/contract';
import type { EventHub } from '../../lib/events.js';
import type { CommandSender } from '../pointAction/pointAction.service.js';
import type { AllocationRow, ControllerRow, LocalControllerRepo, SessionRow } from './localController.repo.js';
import { externalLimitOf } from '../chargingProfile/external-limit.js';
import { minPowerW, plan, TAKES_LESS, type PlanEntry } from './planner.js';

/** Charger events after which a controller's plan may be out of date. */
const TRIGGERS = new Set([
  'point.online',
  'point.status',
  'point.chargingLimit',
  'transaction.started',
  'transaction.meter',
  'transaction.stopped',
]);

/** A change this small (W, or this share of the allocation) is not worth a new profile. */
const RESEND_MIN_W = 100;
const RESEND_SHARE = 0.02;
/** An unchanged plan is stored (with a history sample) at most this often. */
const SAMPLE_EVERY_MS = 60_000;
/** A controller's sessions kept in memory are read again from the database at least this often. */
const RESYNC_MS = 60_000;
/** Plans made within this window are stored together, in one transaction. */
const STORE_EVERY_MS = 500;

/** What the balancer holds of a controller between plans, kept up to date by the charger events. */
interface Held {
  controller: ControllerRow;
  sessions: Map<string, SessionRow>;
  previous: AllocationRow[];
  loadedAt: number;
}

export interface BalancerOptions {
  repo: LocalControllerRepo;
  ask: CommandSender;
  events: EventHub;
  /** Whether this node holds a charger's socket: each node sends profiles to its own chargers only. */
  holds: (serialNumber: string) => boolean;
  onError: (err: unknown, controllerId: number) => void;
  /** Coalescing window after a trigger (default 300 ms). */
  debounceMs?: number;
  /** No controller is planned more often than this (default 1 s): meter values come many times a second. */
  minIntervalMs?: number;
  /** Every controller is planned at least this often, so the history has a sample a minute (default 60 s). */
  tickMs?: number;
  /** Told after each plan, once its profiles are sent (the benchmark's timings, tests). */
  onPlanned?: (controllerId: number, ms: number) => void;
  /** Told after plans are stored (a batch of `plans`), with the time storing took (the benchmark). */
  onStored?: (plans: number, ms: number) => void;
}

const keyOf = (pointId: number, connectorNo: number) => `${pointId}:${connectorNo}`;

/** The balancer's profile for one session: a TxProfile at its reserved stack level, `limitW` from now on. */
export function balancerProfile(connectorNo: number, transactionId: number, limitW: number) {
  return {
    connectorId: connectorNo,
    csChargingProfiles: {
      chargingProfileId: BALANCER_PROFILE_ID_BASE + connectorNo,
      transactionId,
      stackLevel: BALANCER_STACK_LEVEL,
      chargingProfilePurpose: 'TxProfile',
      chargingProfileKind: 'Relative',
      chargingSchedule: { chargingRateUnit: 'W', chargingSchedulePeriod: [{ startPeriod: 0, limit: limitW }] },
    },
  };
}

/**
 * The built-in load balancer (issue 15 item 2): keeps each local controller's sessions within its
 * limit. Any charger event of a controller's point (start, stop, status, meter value, online or
 * offline) and any change to the controller re-plans it within about a second (`plan`), sends each
 * charging connector whose share moved a TxProfile (decreases before increases, so the sum never
 * overshoots while profiles are on their way), and stores the plan and a sample for the live view.
 */
export function createBalancer(o: BalancerOptions) {
  const debounceMs = o.debounceMs ?? 300;
  const minIntervalMs = o.minIntervalMs ?? 1000;
  const tickMs = o.tickMs ?? 60_000;
  let controllerOf = new Map<number, number>();
  const timers = new Map<number, NodeJS.Timeout>();
  const running = new Map<number, Promise<void>>();
  const again = new Set<number>();
  const lastRun = new Map<number, number>();
  let unsubscribe: (() => void) | undefined;
  let tick: NodeJS.Timeout | undefined;
  let stopped = false;
  /** Per session of the last plans: its allocation and whether its car then drew clearly less. */
  const lastPlan = new Map<string, { allocatedW: number; takesLess: boolean }>();
  /** When each controller's plan was last stored with a sample. */
  const lastSample = new Map<number, number>();
  /** Controllers' sessions and last plans in memory: a plan reads the database only to load or resync them. */
  const held = new Map<number, Held>();
  /** Controllers whose memory an event could not update (a session it does not know): read again before the next plan. */
  const stale = new Set<number>();

  /** Plans made and sent, waiting to be stored with the others of the window (the live view, the next node's start). */
  const toStore = new Map<number, Parameters<LocalControllerRepo['savePlans']>[0][number]>();
  let storeTimer: NodeJS.Timeout | undefined;
  let storing: Promise<void> | undefined;

  function queueStore(plan: Parameters<LocalControllerRepo['savePlans']>[0][number]) {
    toStore.set(plan.controllerId, plan);
    if (storeTimer) return;
    storeTimer = setTimeout(() => {
      storeTimer = undefined;
      flush().catch((err: unknown) => o.onError(err, 0));
    }, STORE_EVERY_MS);
    storeTimer.unref();
  }

  /** Stores what is queued, in one transaction; a batch that fails is queued again behind any newer plan. */
  async function flush(): Promise<void> {
    while (storing) await storing;
    if (toStore.size === 0) return;
    const batch = [...toStore.values()];
    toStore.clear();
    const t = performance.now();
    storing = o.repo
      .savePlans(batch)
      .then(() => o.onStored?.(batch.length, performance.now() - t))
      .catch((err: unknown) => {
        for (const x of batch) if (!toStore.has(x.controllerId)) toStore.set(x.controllerId, x);
        throw err;
      })
      .finally(() => (storing = undefined));
    await storing;
  }

  async function load(controllerId: number): Promise<Held | undefined> {
    // What is read must include this controller's last plan.
    if (toStore.has(controllerId) || storing) await flush();
    const controller = await o.repo.controller(controllerId);
    if (!controller) {
      held.delete(controllerId);
      return undefined;
    }
    const [sessions, previous] = await Promise.all([o.repo.sessions(controllerId), o.repo.allocations(controllerId)]);
    const h = {
      controller,
      sessions: new Map(sessions.map((x) => [keyOf(x.chargePointId, x.connectorNo), x])),
      previous,
      loadedAt: Date.now(),
    };
    held.set(controllerId, h);
    stale.delete(controllerId);
    return h;
  }

  /** Applies a charger event to the controller's sessions in memory (or marks them to be read again). */
  function apply(controllerId: number, type: string, payload: Record<string, unknown>) {
    const h = held.get(controllerId);
    if (!h) return;
    const pointId = payload.chargePointId as number;
    const key = keyOf(pointId, payload.connectorNo as number);
    switch (type) {
      case 'transaction.started':
        // Its point's rating, priority and online flag come with the row: starts are rare, read them.
        stale.add(controllerId);
        break;
      case 'transaction.stopped':
        if (h.sessions.get(key)?.transactionId === payload.transactionId) h.sessions.delete(key);
        else stale.add(controllerId);
        break;
      case 'transaction.meter': {
        const session = h.sessions.get(key);
        if (session && session.transactionId === payload.transactionId) {
          if (typeof payload.powerW === 'number') session.lastPowerW = payload.powerW;
        } else stale.add(controllerId);
        break;
      }
      case 'point.chargingLimit':
        // Reported or cleared: the sessions' limits are read again.
        stale.add(controllerId);
        break;
      case 'point.online':
        for (const x of h.sessions.values()) if (x.chargePointId === pointId) x.online = payload.online === true;
        break;
    }
  }

  /**
   * Whether a meter value can change its controller's plan: only when the car starts or stops taking
   * clearly less than it was given (a share freed, or wanted back). Steady draws, the usual case at
   * thousands of meter values a second, need no plan.
   */
  function meterMatters(p: ConsoleEventPayloads['transaction.meter']): boolean {
    if (p.powerW === undefined) return false;
    const last = lastPlan.get(keyOf(p.chargePointId, p.connectorNo));
    if (!last) return true;
    return p.powerW < TAKES_LESS * last.allocatedW !== last.takesLess;
  }

  async function refresh() {
    const rows = await o.repo.memberships();
    controllerOf = new Map(rows.map((r) => [r.chargePointId, r.controllerId]));
  }

  function trigger(controllerId: number) {
    if (stopped || timers.has(controllerId)) return;
    if (running.has(controllerId)) {
      again.add(controllerId);
      return;
    }
    const wait = Math.max(debounceMs, (lastRun.get(controllerId) ?? 0) + minIntervalMs - Date.now());
    const t = setTimeout(() => {
      timers.delete(controllerId);
      const p = run(controllerId)
        .catch((err: unknown) => o.onError(err, controllerId))
        .finally(() => {
          running.delete(controllerId);
          if (again.delete(controllerId)) trigger(controllerId);
        });
      running.set(controllerId, p);
    }, wait);
    t.unref();
    timers.set(controllerId, t);
  }

  /** Sends the sessions' new shares; returns what each charger answered, by session key. */
  async function send(entries: { s: SessionRow; e: PlanEntry; prev: AllocationRow | undefined }[]) {
    const answers = new Map<string, { answer: string; accepted: boolean }>();
    const due = entries.filter(({ s, e, prev }) => {
      if (e.state === 'offline' || !o.holds(s.serialNumber)) return false;
      if (!prev || prev.sentW === null || prev.transactionId !== s.transactionId) return true;
      return Math.abs(prev.sentW - e.allocatedW) >= Math.max(RESEND_MIN_W, RESEND_SHARE * Math.max(prev.sentW, e.allocatedW));
    });
    const change = (x: (typeof due)[number]) => x.e.allocatedW - (x.prev?.sentW ?? Number.POSITIVE_INFINITY);
    const down = due.filter((x) => change(x) < 0);
    const up = due.filter((x) => change(x) >= 0);
    for (const batch of [down, up]) {
      await Promise.all(
        batch.map(async ({ s, e }) => {
          const a = await o.ask(s.serialNumber, 'SetChargingProfile', balancerProfile(s.connectorNo, s.transactionId, e.allocatedW));
          answers.set(keyOf(s.chargePointId, s.connectorNo), { answer: a.status, accepted: a.status === 'accepted' });
        }),
      );
    }
    return answers;
  }

  async function run(controllerId: number) {
    const started = performance.now();
    lastRun.set(controllerId, Date.now());
    const h0 = held.get(controllerId);
    // Memory an event could not update is read first; memory that is merely old is read after the plan (below).
    const h = !h0 || stale.has(controllerId) ? await load(controllerId) : h0;
    if (!h) return;
    const c = h.controller;
    const sessions = [...h.sessions.values()].sort((a, b) => a.startedAt.getTime() - b.startedAt.getTime());
    const previous = h.previous;
    // Idle before and now: nothing to send and nothing to store (the history shows no sessions).
    if (sessions.length === 0 && previous.length === 0) return;
    const prevOf = new Map(previous.map((p) => [keyOf(p.chargePointId, p.connectorNo), p]));
    const now = new Date();
    const entries = plan(
      c.limitW,
      sessions.map((s) => {
        const prev = prevOf.get(keyOf(s.chargePointId, s.connectorNo));
        const same = prev?.transactionId === s.transactionId;
        return {
          key: keyOf(s.chargePointId, s.connectorNo),
          arrival: s.startedAt.getTime(),
          // An outside system's limit on the charger (its schedule read at each plan, a minute apart at most) caps it as its rating does.
          ratedW: Math.min(s.ratedPowerW, externalLimitOf(s.limits, s.connectorNo, now)?.limitW ?? Infinity),
          minW: minPowerW(c.minCurrentA, s.ratedPowerW),
          online: s.online,
          priority: s.priority,
          measuredW: s.lastPowerW ?? undefined,
          previousW: same ? prev?.allocatedW : undefined,
        };
      }),
    );
    const joined = sessions.map((s, i) => ({ s, e: entries[i]!, prev: prevOf.get(keyOf(s.chargePointId, s.connectorNo)) }));
    const answers = await send(joined);
    const rows = joined.map(({ s, e, prev }) => {
      const k = keyOf(s.chargePointId, s.connectorNo);
      const a = answers.get(k);
      const sameTx = prev?.transactionId === s.transactionId;
      return {
        chargePointId: s.chargePointId,
        connectorNo: s.connectorNo,
        transactionId: s.transactionId,
        state: e.state,
        priority: s.priority,
        allocatedW: e.allocatedW,
        measuredW: s.lastPowerW,
        // What the charger holds: the new share when it accepted, else what it held before (sent again next plan).
        sentW: a ? (a.accepted ? e.allocatedW : sameTx ? (prev?.sentW ?? null) : null) : sameTx ? (prev?.sentW ?? null) : null,
        answer: a ? a.answer : sameTx ? (prev?.answer ?? null) : null,
      };
    });
    for (const p of previous) lastPlan.delete(keyOf(p.chargePointId, p.connectorNo));
    for (const r of rows) {
      const takesLess = r.measuredW !== null && r.allocatedW > 0 && r.measuredW < TAKES_LESS * r.allocatedW;
      lastPlan.set(keyOf(r.chargePointId, r.connectorNo), { allocatedW: r.allocatedW, takesLess });
    }
    const same =
      rows.length === previous.length &&
      rows.every((r) => {
        const p = prevOf.get(keyOf(r.chargePointId, r.connectorNo));
        return p && p.allocatedW === r.allocatedW && p.state === r.state && p.transactionId === r.transactionId && p.sentW === r.sentW;
      });
    h.previous = rows.map((r) => ({ ...r, controllerId, updatedAt: new Date() }));
    // The plan is made and sent: what follows is bookkeeping for the live view and the next plans,
    // still in this run (a controller's runs never overlap) but not part of the re-plan's latency.
    o.onPlanned?.(controllerId, performance.now() - started);
    // An unchanged plan is not stored again, but for a sample a minute (the history). A plan lost to
    // a crash before it is stored costs nothing: the next node plans from what is stored and sends
    // again where a charger's share differs.
    // Stored with the other plans of the next half second, in one transaction.
    if (!same || Date.now() - (lastSample.get(controllerId) ?? 0) >= SAMPLE_EVERY_MS) {
      lastSample.set(controllerId, Date.now());
      queueStore({
        controllerId,
        rows,
        sample: {
          limitW: c.limitW,
          allocatedW: rows.reduce((a, r) => a + r.allocatedW, 0),
          measuredW: rows.reduce((a, r) => a + (r.state === 'waiting' ? 0 : (r.measuredW ?? 0)), 0),
        },
      });
    }
    // The events keep memory current; reading it again now and then catches one that was missed.
    if (Date.now() - h.loadedAt >= RESYNC_MS) await load(controllerId);
  }

  return {
    async start() {
      await refresh();
      unsubscribe = o.events.subscribe({
        userId: 0,
        canSee: () => true,
        send: (event) => {
          if (!TRIGGERS.has(event.type)) return;
          const pointId = (event.payload as unknown as ConsoleEventPayloads['point.online']).chargePointId;
          const controllerId = controllerOf.get(pointId);
          if (controllerId === undefined) return;
          apply(controllerId, event.type, event.payload);
          if (event.type === 'transaction.meter' && !meterMatters(event.payload as unknown as ConsoleEventPayloads['transaction.meter']))
            return;
          trigger(controllerId);
        },
      });
      let pruned = Date.now();
      tick = setInterval(() => {
        // The map is read again too: controllers made outside this node's routes (another node, the demo) join within a tick.
        void refresh()
          .then(() => {
            for (const id of new Set(controllerOf.values())) trigger(id);
          })
          .catch((err: unknown) => o.onError(err, 0));
        if (Date.now() - pruned >= 3_600_000) {
          pruned = Date.now();
          o.repo.pruneSamples(new Date(pruned - 86_400_000)).catch((err: unknown) => o.onError(err, 0));
        }
      }, tickMs);
      tick.unref();
      for (const id of new Set(controllerOf.values())) trigger(id);
    },
    /** After an operator changed or removed controllers: the map is re-read and each is planned again. */
    async changed(controllerIds: number[]) {
      // Limits, points or priorities changed: what memory holds of them is read again.
      if (controllerIds.length === 0) held.clear();
      for (const id of controllerIds) held.delete(id);
      await refresh();
      for (const id of controllerIds) trigger(id);
    },
    /** Plans now and waits for it, stored (tests, the benchmark). */
    async planNow(controllerId: number) {
      await running.get(controllerId);
      await run(controllerId);
      await flush();
    },
    async stop() {
      stopped = true;
      unsubscribe?.();
      clearInterval(tick);
      for (const t of timers.values()) clearTimeout(t);
      timers.clear();
      await Promise.allSettled([...running.values()]);
      clearTimeout(storeTimer);
      storeTimer = undefined;
      await flush().catch((err: unknown) => o.onError(err, 0));
    },
  };
}

export type Balancer = ReturnType<typeof createBalancer>;
