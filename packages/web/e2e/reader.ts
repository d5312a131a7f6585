import { PassThrough } from 'node:stream';
import type { Page } from '@playwright/test';
import { startReaderServer, type ReaderMode } from '../../reader/src/index';

/** The console asks the server which port the companion listens on (`CSMS_READER_PORT`). */
const PORT_SETTING = '**/prod-api/system/config/configKey/csms.reader.port';

export interface TestReader {
  port: number;
  url: string;
  /** The card "on the reader" from now on (simulated mode); none: reads answer noCard. */
  setUid(uid: string | readonly string[] | null): void;
  /**
   * simulated: answers the UIDs of setUid; keyboard: answers lines given to `type`; pcsc: behaves
   * as a machine without nfc-pcsc (noDriver), whatever is installed here.
   */
  setMode(mode: ReaderMode): Promise<void>;
  /** keyboard mode: what a keyboard-wedge reader types (a UID then Enter). */
  type(line: string): void;
  /** Points the console in `page` at this companion (or, once closed, at a port nobody listens on). */
  use(page: Page): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts the simulated card reader companion in this process on a free loopback port. The
 * console under test is served from 127.0.0.1, an origin the companion allows by default.
 */
export async function startTestReader(uids: readonly string[] = []): Promise<TestReader> {
  let input = new PassThrough();
  const server = await startReaderServer({ mode: 'simulated', port: 0, uids, log: () => {} });
  const noDriver = () => Promise.reject(new Error('nfc-pcsc is not installed (test)'));
  return {
    port: server.port,
    url: server.url,
    setUid(uid) {
      if (server.mode !== 'simulated') throw new Error('setUid works in simulated mode; call setMode("simulated") first');
      server.setUids(uid === null ? [] : typeof uid === 'string' ? [uid] : uid);
    },
    async setMode(mode) {
      input.destroy();
      input = new PassThrough();
      await server.setMode(mode, { uids: [], input, loadPcsc: noDriver });
    },
    type(line) {
      input.write(`${line}\n`);
    },
    async use(page) {
      await page.route(PORT_SETTING, (route) =>
        route.fulfill({ contentType: 'application/json', body: JSON.stringify({ code: 200, msg: 'ok', data: String(server.port) }) }),
      );
    },
    async close() {
      input.destroy();
      await server.close();
    },
  };
}
