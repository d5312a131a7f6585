import type { EventEmitter } from 'node:events';
import { waitForCard, type CardSource, type Log, type ReadOutcome } from './source.js';

/** The part of nfc-pcsc (https://github.com/pokusew/nfc-pcsc) the companion uses. */
export interface PcscReader extends EventEmitter {
  reader: { name: string };
  autoProcessing: boolean;
  transmit(apdu: Buffer, responseMaxLength: number): Promise<Buffer>;
}
export interface PcscModule {
  NFC: new () => EventEmitter & { close?(): void };
}

// A variable, so bundlers and the type checker leave the optional dependency alone.
const NFC_PCSC = 'nfc-pcsc';

/** Loads nfc-pcsc, which the operator installs next to the companion (`npm i nfc-pcsc@0.8`). */
export async function loadNfcPcsc(): Promise<PcscModule> {
  const mod = (await import(/* @vite-ignore */ NFC_PCSC)) as Partial<PcscModule> & { default?: Partial<PcscModule> };
  const NFC = mod.NFC ?? mod.default?.NFC;
  if (typeof NFC !== 'function') throw new Error('nfc-pcsc does not export NFC');
  return { NFC };
}

/** PC/SC "GET DATA" pseudo-APDU: the UID of whatever card is present, on any PC/SC reader (ACR122U included). */
const GET_UID = Buffer.from([0xff, 0xca, 0x00, 0x00, 0x00]);

export interface PcscOptions {
  load?: () => Promise<PcscModule>;
  log?: Log;
}

/**
 * A PC/SC reader through nfc-pcsc. Without the package (or without a PC/SC service or reader)
 * every read answers `noDriver`; a card already on the reader answers at once, otherwise the
 * next card presented within the timeout does.
 */
export function createPcscSource({ load = loadNfcPcsc, log = () => {} }: PcscOptions = {}): CardSource {
  let driverProblem: string | null = null;
  let nfc: (EventEmitter & { close?(): void }) | null = null;
  const readers = new Set<string>();
  const present = new Map<string, string>();
  const waiters: { settle(outcome: ReadOutcome): void }[] = [];

  const ready = load().then(
    ({ NFC }) => {
      nfc = new NFC();
      nfc.on('reader', (reader: PcscReader) => attach(reader));
      nfc.on('error', (err: Error) => {
        driverProblem = `PC/SC service: ${err.message}`;
        log(driverProblem);
      });
    },
    (err: Error) => {
      driverProblem = `nfc-pcsc is not installed or failed to load (${err.message})`;
      log(`${driverProblem}: every read answers noDriver; see the README's "PC/SC" note`);
    },
  );

  function attach(reader: PcscReader) {
    const name = reader.reader.name;
    // We ask for the UID ourselves: nfc-pcsc's own processing needs an AID for ISO 14443-4 cards.
    reader.autoProcessing = false;
    readers.add(name);
    log(`reader attached: ${name}`);
    reader.on('card', () => {
      reader.transmit(GET_UID, 12).then(
        (response) => {
          const status = response.length >= 2 ? response.readUInt16BE(response.length - 2) : 0;
          if (status !== 0x9000) return log(`${name}: the card did not give its UID (status ${status.toString(16)})`);
          const uid = response.subarray(0, -2).toString('hex').toUpperCase();
          present.set(name, uid);
          log(`${name}: card ${uid}`);
          for (const waiter of waiters.splice(0)) waiter.settle({ uid });
        },
        (err: Error) => log(`${name}: reading the UID failed: ${err.message}`),
      );
    });
    reader.on('card.off', () => present.delete(name));
    reader.on('error', (err: Error) => log(`${name}: ${err.message}`));
    reader.on('end', () => {
      readers.delete(name);
      present.delete(name);
      log(`reader removed: ${name}`);
    });
  }

  return {
    async read(timeoutMs, signal) {
      await ready;
      if (readers.size === 0) return { error: 'noDriver', detail: driverProblem ?? 'no PC/SC reader is connected' };
      const [uid] = present.values();
      if (uid) return { uid };
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
      await ready;
      nfc?.close?.();
    },
  };
}
