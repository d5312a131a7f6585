import type { ChargePoint } from '../charge-point.js';
import type { ManualClock } from '../clock.js';

type Payload = Record<string, unknown>;

/**
 * Waits (in real time) until the point has no call in flight. What an answer leads to is
 * sent in the same turn, so an empty link after a turn means the exchange is over.
 */
export async function settle(cp: ChargePoint): Promise<void> {
  do await new Promise((resolve) => setTimeout(resolve, 2));
  while (cp.state().pendingCalls > 0);
}

/** Moves a manual clock in steps, letting the CSMS answer between them as it would in real time. */
export async function tick(clock: ManualClock, cp: ChargePoint, ms: number, step = 60_000): Promise<void> {
  for (let t = 0; t < ms; t += step) {
    clock.advance(Math.min(step, ms - t));
    await settle(cp);
  }
}

/** The sampled values of a MeterValues payload, each with its meter value's timestamp. */
export const values = (payload: Payload) =>
  (payload.meterValue as { timestamp: string; sampledValue: { measurand: string; value: string; context: string }[] }[]).flatMap((mv) =>
    mv.sampledValue.map((s) => ({ ...s, timestamp: mv.timestamp })),
  );

export const reading = (payload: Payload, measurand: string) => Number(values(payload).find((v) => v.measurand === measurand)?.value);
