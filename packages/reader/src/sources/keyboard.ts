import readline from 'node:readline';
import type { Readable } from 'node:stream';
import { normaliseUid, type WedgeFormat } from '../uid.js';
import { waitForCard, type CardSource, type Log, type ReadOutcome } from './source.js';

export interface KeyboardOptions {
  /** Where the reader types: the companion's stdin, a serial/HID device file, or a test stream. */
  input: Readable;
  format?: WedgeFormat;
  /** For tests: the clock that decides whether a card tapped before the request is still fresh. */
  now?: () => number;
  log?: Log;
}

/**
 * Keyboard-wedge readers type the UID and Enter. A line answers the oldest pending read; a line
 * typed while no read is pending is kept for the next read if it comes within that read's
 * timeout (tap the card in the companion's window, then press "Read card" in the console).
 */
export function createKeyboardSource({ input, format = 'hex', now = Date.now, log = () => {} }: KeyboardOptions): CardSource {
  const waiters: { settle(outcome: ReadOutcome): void }[] = [];
  let tapped: { uid: string; at: number } | null = null;
  const lines = readline.createInterface({ input, crlfDelay: Infinity, terminal: false });

  lines.on('line', (line) => {
    if (!line.trim()) return;
    const uid = normaliseUid(line, format);
    if (!uid) {
      log(`ignoring "${line.trim().slice(0, 40)}": not a card UID in ${format} format`);
      return;
    }
    const waiter = waiters.shift();
    if (waiter) waiter.settle({ uid });
    else tapped = { uid, at: now() };
  });
  // A stream that fails (device unplugged) ends the lines; pending reads then time out as noCard.
  input.on('error', (err) => log(`keyboard input failed: ${err.message}`));

  return {
    async read(timeoutMs, signal) {
      if (tapped && now() - tapped.at <= timeoutMs) {
        const { uid } = tapped;
        tapped = null;
        return { uid };
      }
      tapped = null;
      if (signal.aborted) return { error: 'noCard', detail: 'cancelled' };
      const waiter = waitForCard(timeoutMs, signal, () => {
        const i = waiters.indexOf(waiter);
        if (i >= 0) waiters.splice(i, 1);
      });
      waiters.push(waiter);
      return waiter.promise;
    },
    async close() {
      for (const waiter of [...waiters]) waiter.settle({ error: 'noCard', detail: 'closing' });
      lines.close();
    },
  };
}
