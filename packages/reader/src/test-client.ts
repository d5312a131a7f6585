import WebSocket from 'ws';
import type { ReaderReply } from './server.js';

/** A console stand-in for the tests: one connection, replies in arrival order. */
export async function connect(url: string, origin?: string) {
  const ws = new WebSocket(url, origin === undefined ? {} : { origin });
  const replies: ReaderReply[] = [];
  const waiting: ((r: ReaderReply) => void)[] = [];
  ws.on('message', (data) => {
    const reply = JSON.parse(String(data)) as ReaderReply;
    const next = waiting.shift();
    if (next) next(reply);
    else replies.push(reply);
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  return {
    ws,
    closed,
    send: (message: unknown) => ws.send(typeof message === 'string' ? message : JSON.stringify(message)),
    next: () => new Promise<ReaderReply>((resolve) => (replies.length ? resolve(replies.shift()!) : waiting.push(resolve))),
    async ask(message: unknown = { type: 'read' }) {
      this.send(message);
      return this.next();
    },
    close: () => ws.close(),
  };
}

/** The HTTP status a refused handshake answers with. */
export function refusal(url: string, origin: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { origin });
    ws.on('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.on('open', () => {
      ws.close();
      reject(new Error(`${origin} was let in`));
    });
    ws.on('error', () => {});
  });
}
