import type { ChargePoint } from './charge-point.js';
import type { Scheduler, Task } from './scheduler.js';

/**
 * Scripted behaviour for a fleet's points. Each connector runs a small state machine on the
 * fleet's shared scheduler (one pending task per connector, no timers of its own), and checks
 * the connector's real state at every step, so operator actions (remote start or stop,
 * reset, availability) are taken in stride.
 */

export type ScenarioName = 'idle' | 'charge' | 'demo';

export interface DemoOptions {
  /** Share of connectors that start charging right after boot (default 0.3). */
  initialChargingShare?: number;
  /** Idle time between sessions, s (default 120–1200). */
  idleS?: [number, number];
  /** Session length, s (default 300–1800; a full battery ends it sooner). */
  sessionS?: [number, number];
  /** Chance that an idle period ends in a fault instead of a session (default 0.03). */
  faultChance?: number;
  /** How long a fault lasts, s (default 30–180). */
  faultS?: [number, number];
}

export interface ChargeOptions {
  /** Session length, s; without it sessions last until the battery is full. */
  sessionS?: [number, number];
  /** Pause between a session and the next, s (default 5–15). */
  pauseS?: [number, number];
}

export interface ScenarioContext {
  scheduler: Scheduler;
  random: () => number;
  idTags: readonly string[];
  demo?: DemoOptions;
  charge?: ChargeOptions;
}

const FAULTS = ['GroundFailure', 'HighTemperature', 'OverCurrentFailure', 'EVCommunicationError', 'ConnectorLockFailure'] as const;

/** Starts `name` on `cp`; returns the function that stops it. */
export function runScenario(cp: ChargePoint, name: ScenarioName, ctx: ScenarioContext): () => void {
  if (name === 'idle') return () => {};
  const { scheduler, random } = ctx;
  const between = ([lo, hi]: [number, number]) => (lo + random() * (hi - lo)) * 1000;
  const tag = () => ctx.idTags[Math.floor(random() * ctx.idTags.length)] ?? 'SIM-TAG';
  const tasks = new Map<number, Task>();
  let stopped = false;

  const later = (connectorId: number, ms: number, step: () => void | Promise<void>) => {
    tasks.get(connectorId)?.cancel();
    tasks.set(
      connectorId,
      scheduler.after(ms, () => {
        tasks.delete(connectorId);
        if (!stopped) void Promise.resolve(step()).catch(() => later(connectorId, 30_000, () => idle(connectorId)));
      }),
    );
  };
  const view = (id: number) => cp.connector(id);
  const demo = ctx.demo ?? {};
  const charge = ctx.charge ?? {};
  const sessionS = name === 'demo' ? (demo.sessionS ?? [300, 1800]) : charge.sessionS;
  const pauseS = name === 'demo' ? ([10, 60] as [number, number]) : (charge.pauseS ?? [5, 15]);

  function idle(id: number): void {
    if (name === 'charge') return later(id, 0, () => plugAndStart(id));
    later(id, between(demo.idleS ?? [120, 1200]), () => {
      const c = view(id);
      if (c.localTransactionId !== undefined) return charging(id); // the operator started one remotely
      if (c.status === 'Faulted' || c.status === 'Reserved' || !c.operative) return idle(id); // a reservation keeps drivers away
      if (random() < (demo.faultChance ?? 0.03)) {
        cp.fault(id, FAULTS[Math.floor(random() * FAULTS.length)]);
        return later(id, between(demo.faultS ?? [30, 180]), () => {
          cp.clearFault(id);
          idle(id);
        });
      }
      return plugAndStart(id);
    });
  }

  async function plugAndStart(id: number): Promise<void> {
    const c = view(id);
    if (c.localTransactionId !== undefined) return charging(id);
    if (c.status === 'Faulted' || c.status === 'Reserved' || !c.operative) return later(id, between(pauseS), () => idle(id));
    cp.plugIn(id);
    const result = await cp.startCharging(id, tag());
    if (!result.accepted) return later(id, between(pauseS), () => unplugThenIdle(id));
    charging(id);
  }

  function charging(id: number): void {
    const started = view(id).localTransactionId;
    const until = sessionS ? scheduler.clock.now() + between(sessionS) : Infinity;
    const next = () => Math.max(0, Math.min(60_000, until - scheduler.clock.now()));
    const check = (): void | Promise<void> => {
      const c = view(id);
      if (c.localTransactionId !== started) return unplugThenIdle(id); // ended by the operator, a reset or a fault
      if (c.status !== 'SuspendedEV' && scheduler.clock.now() < until) return later(id, next(), check);
      return cp.stopCharging(id, 'Local').then(() => later(id, between(pauseS), () => unplugThenIdle(id)));
    };
    later(id, next(), check);
  }

  async function unplugThenIdle(id: number): Promise<void> {
    const c = view(id);
    if (c.plugged && c.localTransactionId === undefined) await cp.unplug(id);
    idle(id);
  }

  const count = cp.state().connectors.length - 1;
  for (let id = 1; id <= count; id++) {
    const first = name === 'charge' || random() < (demo.initialChargingShare ?? 0.3);
    later(id, random() * 10_000, first ? () => plugAndStart(id) : () => idle(id));
  }
  return () => {
    stopped = true;
    for (const t of tasks.values()) t.cancel();
    tasks.clear();
  };
}
