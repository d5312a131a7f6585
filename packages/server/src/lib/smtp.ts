import { randomUUID } from 'node:crypto';
import net from 'node:net';
import tls from 'node:tls';

/**
 * A minimal SMTP client over node:net / node:tls (EHLO, STARTTLS when offered, AUTH LOGIN,
 * MAIL FROM, RCPT TO, DATA): enough to send one plain-text mail through a provider's own
 * mail server. Port 465 speaks TLS from the start.
 */
export interface MailOptions {
  host: string;
  port: number;
  user: string;
  pass: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  timeoutMs?: number;
  /** Accept self-signed certificates (tests, private relays). */
  allowInsecureTls?: boolean;
}

export type SmtpFailure = 'connect' | 'timeout' | 'auth' | 'rejected';

export class SmtpError extends Error {
  constructor(
    readonly kind: SmtpFailure,
    readonly reply: string,
  ) {
    super(`${kind}: ${reply}`);
  }
}

interface Reply {
  code: number;
  text: string;
}

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const encodeHeader = (s: string) => (/^[\x20-\x7e]*$/.test(s) ? s : `=?UTF-8?B?${b64(s)}?=`);
const wrap76 = (s: string) => s.replace(/.{1,76}/g, '$&\r\n');
const clean = (s: string) => s.replace(/[\r\n<>]/g, '');

export function buildMessage(o: Pick<MailOptions, 'from' | 'to' | 'subject' | 'text' | 'host'>): string {
  return [
    `From: <${clean(o.from)}>`,
    `To: <${clean(o.to)}>`,
    `Subject: ${encodeHeader(clean(o.subject))}`,
    `Date: ${new Date().toUTCString()}`,
    `Message-ID: <${randomUUID()}@${clean(o.host)}>`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: base64',
    '',
    wrap76(b64(o.text)),
  ].join('\r\n');
}

export async function sendMail(o: MailOptions): Promise<{ reply: string }> {
  const timeoutMs = o.timeoutMs ?? 15_000;
  let socket: net.Socket = await open(o, timeoutMs);
  let buffer = '';
  let waiter: (() => void) | undefined;
  let failure: Error | undefined;
  const onData = (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    waiter?.();
  };
  const onEnd = (err?: Error) => {
    failure ??= err ?? new Error('connection closed');
    waiter?.();
  };
  const attach = (s: net.Socket) => {
    s.on('data', onData);
    s.on('error', onEnd);
    s.on('close', () => onEnd());
    s.setTimeout(timeoutMs, () => {
      failure ??= new SmtpError('timeout', 'timeout');
      waiter?.();
    });
  };
  const detach = (s: net.Socket) => {
    s.removeListener('data', onData);
    s.removeAllListeners('error');
    s.removeAllListeners('close');
    s.setTimeout(0);
  };

  /** One (possibly multi-line) reply: lines `250-…` continue, `250 …` ends. */
  async function read(): Promise<Reply> {
    for (;;) {
      const m = /(?:^|\r?\n)(\d{3}) [^\r\n]*\r?\n/.exec(buffer);
      if (m) {
        const end = m.index + m[0].length;
        const text = buffer.slice(0, end).trim();
        buffer = buffer.slice(end);
        return { code: Number(m[1]), text: text.replace(/\r?\n/g, ' | ') };
      }
      if (failure) throw failure instanceof SmtpError ? failure : new SmtpError('connect', failure.message);
      await new Promise<void>((r) => (waiter = r));
      waiter = undefined;
    }
  }
  async function command(line: string, expect: number[], kind: SmtpFailure = 'rejected'): Promise<Reply> {
    socket.write(`${line}\r\n`);
    const r = await read();
    if (!expect.includes(r.code)) throw new SmtpError(kind, r.text);
    return r;
  }

  attach(socket);
  try {
    const greeting = await read();
    if (greeting.code !== 220) throw new SmtpError('connect', greeting.text);
    let ehlo = await command('EHLO csms.local', [250], 'connect');
    const secure = socket instanceof tls.TLSSocket;
    if (!secure && /\bSTARTTLS\b/i.test(ehlo.text)) {
      await command('STARTTLS', [220], 'connect');
      detach(socket);
      socket = await upgrade(socket, o, timeoutMs);
      attach(socket);
      ehlo = await command('EHLO csms.local', [250], 'connect');
    }
    await command('AUTH LOGIN', [334], 'auth');
    await command(b64(o.user), [334], 'auth');
    await command(b64(o.pass), [235], 'auth');
    await command(`MAIL FROM:<${clean(o.from)}>`, [250]);
    await command(`RCPT TO:<${clean(o.to)}>`, [250, 251]);
    await command('DATA', [354]);
    // Dot-stuffing: a line starting with "." gets another.
    const body = buildMessage(o).replace(/(^|\r\n)\./g, '$1..');
    const done = await command(`${body}\r\n.`, [250]);
    socket.write('QUIT\r\n');
    return { reply: done.text };
  } finally {
    detach(socket);
    socket.on('error', () => {});
    socket.end();
  }
}

function open(o: MailOptions, timeoutMs: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const implicitTls = o.port === 465;
    const s = implicitTls
      ? tls.connect({ host: o.host, port: o.port, servername: o.host, rejectUnauthorized: !o.allowInsecureTls })
      : net.connect({ host: o.host, port: o.port });
    const timer = setTimeout(() => {
      s.destroy();
      reject(new SmtpError('timeout', 'connect timeout'));
    }, timeoutMs);
    s.once(implicitTls ? 'secureConnect' : 'connect', () => {
      clearTimeout(timer);
      s.removeAllListeners('error');
      resolve(s);
    });
    s.once('error', (err) => {
      clearTimeout(timer);
      reject(new SmtpError('connect', (err as NodeJS.ErrnoException).code ?? err.message));
    });
  });
}

function upgrade(socket: net.Socket, o: MailOptions, timeoutMs: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const s = tls.connect({ socket, servername: o.host, rejectUnauthorized: !o.allowInsecureTls });
    const timer = setTimeout(() => reject(new SmtpError('timeout', 'TLS handshake timeout')), timeoutMs);
    s.once('secureConnect', () => {
      clearTimeout(timer);
      resolve(s);
    });
    s.once('error', (err) => {
      clearTimeout(timer);
      reject(new SmtpError('connect', err.message));
    });
  });
}
