import { commonApi } from '@csms/contract';
import { call } from '../api/client';

/**
 * The console's side of the card reader companion (packages/reader, DESIGN.md §9): one
 * WebSocket to ws://127.0.0.1:<port> per read, `{type:'read'}` answered by `{type:'card', uid}`
 * or `{type:'error', code}`.
 */

/** What went wrong, one catalogue text each (spec §8: no WebSocket, not started, no driver). */
export type CardReaderErrorCode = 'noWebSocket' | 'notStarted' | 'noDriver' | 'noCard' | 'timeout';

export class CardReaderError extends Error {
  constructor(
    readonly code: CardReaderErrorCode,
    detail?: string,
  ) {
    super(detail ?? code);
    this.name = 'CardReaderError';
  }
}

/** The key of the text to show for a failure, e.g. `t(cardReaderMessageKey(err.code))`. */
export function cardReaderMessageKey(code: CardReaderErrorCode): string {
  return `cardReader.errors.${code}`;
}

export const DEFAULT_READER_PORT = 8989;
export const DEFAULT_READ_TIMEOUT_MS = 20_000;
/** The companion is asked to give up this much before the console does, so it can say `noCard`. */
const COMPANION_MARGIN_MS = 2_000;

/** The port the server tells the console (`CSMS_READER_PORT`); the default when it cannot say. */
async function configuredPort(): Promise<number> {
  try {
    const value = Number(await call(commonApi.configKey, { params: { key: 'csms.reader.port' } }, { silent: true }));
    return Number.isInteger(value) && value > 0 && value < 65536 ? value : DEFAULT_READER_PORT;
  } catch {
    return DEFAULT_READER_PORT;
  }
}

interface ReaderReply {
  type?: unknown;
  uid?: unknown;
  code?: unknown;
}

/**
 * Reads the UID (hex, upper case) of the card on the reader attached to this computer.
 * Rejects with a `CardReaderError`; its `code` says which message to show.
 */
export async function readCardUid(options: { timeoutMs?: number; port?: number } = {}): Promise<string> {
  const Ws = (globalThis as { WebSocket?: typeof WebSocket }).WebSocket;
  if (typeof Ws !== 'function') throw new CardReaderError('noWebSocket');
  const timeoutMs = options.timeoutMs ?? DEFAULT_READ_TIMEOUT_MS;
  const port = options.port ?? (await configuredPort());

  return new Promise<string>((resolve, reject) => {
    let socket: WebSocket;
    try {
      socket = new Ws(`ws://127.0.0.1:${port}`);
    } catch (err) {
      // Constructing throws when the page may not open the socket at all (e.g. Safari on https).
      reject(new CardReaderError('noWebSocket', err instanceof Error ? err.message : undefined));
      return;
    }
    let opened = false;
    let settled = false;
    const finish = (outcome: string | CardReaderError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.onopen = socket.onmessage = socket.onerror = socket.onclose = null;
      if (socket.readyState === socket.CONNECTING || socket.readyState === socket.OPEN) socket.close();
      if (typeof outcome === 'string') resolve(outcome);
      else reject(outcome);
    };
    const timer = setTimeout(() => finish(new CardReaderError('timeout')), timeoutMs);

    socket.onopen = () => {
      opened = true;
      socket.send(JSON.stringify({ type: 'read', timeoutMs: Math.max(1, timeoutMs - COMPANION_MARGIN_MS) }));
    };
    socket.onmessage = (event: MessageEvent) => {
      let reply: ReaderReply;
      try {
        reply = JSON.parse(String(event.data)) as ReaderReply;
      } catch {
        return finish(new CardReaderError('notStarted', 'unreadable reply from the companion'));
      }
      if (reply.type === 'card' && typeof reply.uid === 'string' && reply.uid.length > 0) return finish(reply.uid);
      if (reply.type === 'error' && (reply.code === 'noDriver' || reply.code === 'noCard')) {
        return finish(new CardReaderError(reply.code));
      }
      // Anything else means a companion that does not speak this protocol.
      finish(new CardReaderError('notStarted', `unexpected reply from the companion: ${String(event.data).slice(0, 200)}`));
    };
    // A refused connection (nothing listening, or the companion refused this console's origin)
    // fires error then close without ever opening; a companion that stops mid-read closes too.
    socket.onclose = () => finish(new CardReaderError('notStarted', opened ? 'the companion closed the connection' : undefined));
  });
}
