import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createKeyboardSource } from './sources/keyboard.js';
import { createPcscSource, loadNfcPcsc, type PcscModule } from './sources/pcsc.js';
import { createSimulatedSource, parseUidList } from './sources/simulated.js';
import { normaliseUid } from './uid.js';

const never = () => new AbortController().signal;
const tick = () => new Promise((r) => setImmediate(r));

describe('UID normalisation', () => {
  it('upper-cases hex and strips separators', () => {
    expect(normaliseUid(' 04:a1:b2:c3 ')).toBe('04A1B2C3');
    expect(normaliseUid('04-A1-B2-C3-D4-E5-F6')).toBe('04A1B2C3D4E5F6');
    expect(normaliseUid('0x04a1b2c3')).toBe('04A1B2C3');
    expect(normaliseUid('04 A1 B2 C3 D4 E5 F6 07 08 09')).toBe('04A1B2C3D4E5F6070809');
  });
  it('refuses what is not a 4- to 10-byte UID', () => {
    for (const bad of ['', '04A1B2', '4A1B2C3', '04A1B2C3D4E5F60708090A', 'hello123', '04A1B2G3']) expect(normaliseUid(bad)).toBeNull();
  });
  it('converts decimal wedge output, big- and little-endian', () => {
    // 0x04A1B2C3 = 77705923; read little-endian it is 0xC3B2A104 = 3283263748.
    expect(normaliseUid('0077705923', 'dec')).toBe('04A1B2C3');
    expect(normaliseUid('3283263748', 'dec-le')).toBe('04A1B2C3');
    expect(normaliseUid('0x12', 'dec')).toBeNull();
    expect(normaliseUid('123456789012345678901234567890', 'dec')).toBeNull();
  });
});

describe('simulated source', () => {
  it('cycles through a file of UIDs, re-read on every request', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'reader-')), 'uids.txt');
    const logs: string[] = [];
    const source = createSimulatedSource({ file, log: (l) => logs.push(l) });
    expect(await source.read(1000, never())).toMatchObject({ error: 'noCard', detail: expect.stringMatching(/cannot read/) });
    fs.writeFileSync(file, '# demo cards\n04a1b2c3\n\nbogus\n0A0B0C0D # second\n');
    expect(await source.read(1000, never())).toEqual({ uid: '04A1B2C3' });
    expect(await source.read(1000, never())).toEqual({ uid: '0A0B0C0D' });
    expect(await source.read(1000, never())).toEqual({ uid: '04A1B2C3' });
    expect(logs.some((l) => l.includes('"bogus"'))).toBe(true);
    fs.writeFileSync(file, '');
    expect(await source.read(1000, never())).toEqual({ error: 'noCard' });
    fs.rmSync(path.dirname(file), { recursive: true });
  });
  it('parses lists leniently, one UID per line', () => {
    expect(parseUidList('04a1b2c3\r\n 0a:0b:0c:0d \n#x\n')).toEqual(['04A1B2C3', '0A0B0C0D']);
  });
});

describe('keyboard-wedge source fed by a stream', () => {
  it('answers pending reads in order with the lines typed, ignoring noise', async () => {
    const input = new PassThrough();
    const logs: string[] = [];
    const source = createKeyboardSource({ input, log: (l) => logs.push(l) });
    const first = source.read(10_000, never());
    const second = source.read(10_000, never());
    input.write('not a card\n\n04A1B2C3\r\n0a0b0c0d\n');
    expect(await first).toEqual({ uid: '04A1B2C3' });
    expect(await second).toEqual({ uid: '0A0B0C0D' });
    expect(logs).toEqual([expect.stringContaining('"not a card"')]);
    await source.close();
  });

  it('answers noCard after the timeout, and a cancelled read does not swallow the next card', async () => {
    const input = new PassThrough();
    const source = createKeyboardSource({ input });
    expect(await source.read(20, never())).toEqual({ error: 'noCard' });
    const gone = new AbortController();
    const cancelled = source.read(10_000, gone.signal);
    gone.abort();
    expect(await cancelled).toMatchObject({ error: 'noCard' });
    const live = source.read(10_000, never());
    input.write('04A1B2C3\n');
    expect(await live).toEqual({ uid: '04A1B2C3' });
    await source.close();
  });

  it('keeps a card tapped before the request while it is fresh', async () => {
    const input = new PassThrough();
    let clock = 1_000_000;
    const source = createKeyboardSource({ input, now: () => clock, format: 'dec' });
    input.write('77705923\n');
    await tick();
    clock += 4_000;
    expect(await source.read(5_000, never())).toEqual({ uid: '04A1B2C3' });
    // Used once only.
    expect(await source.read(10, never())).toEqual({ error: 'noCard' });
    input.write('77705923\n');
    await tick();
    clock += 6_000;
    // Too old for a 5 s read: that read waits for the next card instead.
    const later = source.read(5_000, never());
    input.write('16909060\n');
    expect(await later).toEqual({ uid: '01020304' });
    await source.close();
  });

  it('answers pending reads noCard when closed', async () => {
    const source = createKeyboardSource({ input: new PassThrough() });
    const pending = source.read(60_000, never());
    await source.close();
    expect(await pending).toMatchObject({ error: 'noCard' });
  });
});

/** nfc-pcsc as far as the companion uses it, driven by the test. */
function fakeNfcPcsc() {
  const nfc = new EventEmitter();
  let closed = false;
  const module: PcscModule = {
    NFC: class {
      constructor() {
        return Object.assign(nfc, { close: () => (closed = true) });
      }
    } as unknown as PcscModule['NFC'],
  };
  function attach(name: string, response = Buffer.from('04a1b2c3d4e5f69000', 'hex')) {
    const reader = Object.assign(new EventEmitter(), {
      reader: { name },
      autoProcessing: true,
      apdus: [] as string[],
      transmit: async (apdu: Buffer) => {
        reader.apdus.push(apdu.toString('hex'));
        return response;
      },
    });
    nfc.emit('reader', reader);
    return reader;
  }
  return { module, nfc, attach, isClosed: () => closed };
}

describe('PC/SC source', () => {
  it('answers noDriver when nfc-pcsc cannot be loaded', async () => {
    const source = createPcscSource({ load: () => Promise.reject(new Error("Cannot find package 'nfc-pcsc'")), log: () => {} });
    expect(await source.read(1000, never())).toMatchObject({ error: 'noDriver', detail: expect.stringMatching(/nfc-pcsc/) });
    await source.close();
  });

  const installed = (() => {
    try {
      createRequire(import.meta.url).resolve('nfc-pcsc');
      return true;
    } catch {
      return false;
    }
  })();
  it.skipIf(installed)('the real loader fails here, where nfc-pcsc is not installed, and every read says noDriver', async () => {
    await expect(loadNfcPcsc()).rejects.toThrow();
    const source = createPcscSource({ log: () => {} });
    expect(await source.read(1000, never())).toMatchObject({ error: 'noDriver' });
    await source.close();
  });

  it('says noDriver without a reader or PC/SC service, and reads the UID of the card presented', async () => {
    const fake = fakeNfcPcsc();
    const source = createPcscSource({ load: async () => fake.module, log: () => {} });
    expect(await source.read(1000, never())).toMatchObject({ error: 'noDriver', detail: expect.stringMatching(/no PC\/SC reader/) });
    fake.nfc.emit('error', new Error('SCardEstablishContext error'));
    expect(await source.read(1000, never())).toMatchObject({ error: 'noDriver', detail: expect.stringMatching(/SCardEstablishContext/) });

    const reader = fake.attach('ACS ACR122U PICC Interface');
    expect(reader.autoProcessing).toBe(false);
    // No card yet: the read waits for one, or gives up as noCard.
    expect(await source.read(20, never())).toEqual({ error: 'noCard' });
    const waiting = source.read(10_000, never());
    reader.emit('card', { atr: Buffer.from('3b8f8001', 'hex') });
    expect(await waiting).toEqual({ uid: '04A1B2C3D4E5F6' });
    expect(reader.apdus).toEqual(['ffca000000']);
    // A card left on the reader answers at once; once removed, it does not.
    expect(await source.read(10_000, never())).toEqual({ uid: '04A1B2C3D4E5F6' });
    reader.emit('card.off', {});
    expect(await source.read(20, never())).toEqual({ error: 'noCard' });
    reader.emit('end');
    expect(await source.read(20, never())).toMatchObject({ error: 'noDriver' });
    await source.close();
    expect(fake.isClosed()).toBe(true);
  });

  it('ignores a card that refuses GET DATA', async () => {
    const fake = fakeNfcPcsc();
    const logs: string[] = [];
    const source = createPcscSource({ load: async () => fake.module, log: (l) => logs.push(l) });
    await source.read(1, never());
    const reader = fake.attach('reader', Buffer.from('6a81', 'hex'));
    const waiting = source.read(50, never());
    reader.emit('card', {});
    expect(await waiting).toEqual({ error: 'noCard' });
    expect(logs.some((l) => l.includes('6a81'))).toBe(true);
    await source.close();
  });
});
