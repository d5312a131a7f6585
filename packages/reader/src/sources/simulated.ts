import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { normaliseUid } from '../uid.js';
import type { CardSource, Log, ReadOutcome } from './source.js';

export interface SimulatedOptions {
  /**
   * The UIDs to answer with, in turn (a card "placed" per read); an empty list answers
   * `noCard`. `'random'` (the default) makes up a new 7-byte NXP-style UID for every read.
   */
  uids?: readonly string[] | 'random';
  /** One UID per line (`#` comments, blank lines ignored), read again on every request. Overrides `uids`. */
  file?: string;
  log?: Log;
}

export interface SimulatedSource extends CardSource {
  setUids(uids: readonly string[] | 'random'): void;
}

/** Parses UIDs from text, one per line; invalid lines are reported and skipped. */
export function parseUidList(text: string, log: Log = () => {}): string[] {
  const uids: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const content = line.replace(/#.*/, '').trim();
    if (!content) continue;
    const uid = normaliseUid(content);
    if (uid) uids.push(uid);
    else log(`ignoring "${content}": not a card UID (4 to 10 bytes of hex)`);
  }
  return uids;
}

/** Validates a list given on the command line or by a test; throws on the first bad UID. */
export function checkUids(uids: readonly string[]): string[] {
  return uids.map((raw) => {
    const uid = normaliseUid(raw);
    if (!uid) throw new Error(`"${raw}" is not a card UID (4 to 10 bytes of hex, e.g. 04A1B2C3)`);
    return uid;
  });
}

/** Demo and test source: answers at once with the configured UIDs, cycling through them. */
export function createSimulatedSource(options: SimulatedOptions = {}): SimulatedSource {
  const log = options.log ?? (() => {});
  let uids: readonly string[] | 'random' = options.uids === undefined || options.uids === 'random' ? 'random' : checkUids(options.uids);
  let next = 0;

  async function current(): Promise<readonly string[] | 'random' | { error: string }> {
    if (!options.file) return uids;
    try {
      return parseUidList(await fs.readFile(options.file, 'utf8'), log);
    } catch (err) {
      return { error: `cannot read ${options.file}: ${(err as Error).message}` };
    }
  }

  return {
    async read(): Promise<ReadOutcome> {
      const list = await current();
      if (list === 'random') return { uid: `04${randomBytes(6).toString('hex').toUpperCase()}` };
      if ('error' in list) return { error: 'noCard', detail: list.error };
      if (list.length === 0) return { error: 'noCard' };
      const uid = list[next % list.length]!;
      next = (next + 1) % list.length;
      return { uid };
    },
    setUids(list) {
      uids = list === 'random' ? 'random' : checkUids(list);
      next = 0;
    },
    async close() {},
  };
}
