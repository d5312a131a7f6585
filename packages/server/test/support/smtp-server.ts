import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  user: string;
  pass: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  messageId: string;
  /** The session was upgraded with STARTTLS (or began in TLS). */
  secure: boolean;
  /** The TLS server name the client asked for (SNI). */
  servername: string | undefined;
  /** Files attached, with their bytes. */
  attachments: { filename: string; contentType: string; content: Buffer }[];
}

/**
 * A throw-away SMTP server on 127.0.0.1 (nodemailer's smtp-server) that accepts one account, refuses
 * recipients at @nowhere.test and records what it receives. With `tls`, STARTTLS is offered with that
 * certificate; `connections` counts every TCP connection, refused ones included.
 */
export async function startSmtpServer(account: { user: string; pass: string }, tls?: { key: string; cert: string }) {
  const received: ReceivedMail[] = [];
  const logins = new Map<string, { user: string; pass: string }>();
  const servernames = new Map<string, string | undefined>();
  const state = { connections: 0 };
  const server = new SMTPServer({
    ...(tls ? { key: tls.key, cert: tls.cert } : { disabledCommands: ['STARTTLS'] }),
    authMethods: ['PLAIN', 'LOGIN'],
    // Plain-text AUTH on loopback: the tests without a certificate speak no TLS.
    allowInsecureAuth: true,
    logger: false,
    onConnect(_session, cb) {
      state.connections += 1;
      cb();
    },
    onSecure(socket, session, cb) {
      const name = (socket as TLSSocket).servername;
      servernames.set(session.id, typeof name === 'string' ? name : undefined);
      cb();
    },
    onAuth(auth, session, cb) {
      logins.set(session.id, { user: auth.username ?? '', pass: auth.password ?? '' });
      if (auth.username === account.user && auth.password === account.pass) return cb(null, { user: auth.username });
      cb(Object.assign(new Error('5.7.8 Authentication credentials invalid'), { responseCode: 535 }));
    },
    onRcptTo(address, _session, cb) {
      if (address.address.endsWith('@nowhere.test')) return cb(Object.assign(new Error('5.1.1 No such user'), { responseCode: 550 }));
      cb();
    },
    onData(stream, session, cb) {
      simpleParser(stream).then(
        (mail) => {
          received.push({
            ...(logins.get(session.id) ?? { user: '', pass: '' }),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address).join(','),
            subject: mail.subject ?? '',
            text: mail.text ?? '',
            messageId: mail.messageId ?? '',
            secure: session.secure,
            servername: servernames.get(session.id),
            attachments: mail.attachments.map((a) => ({ filename: a.filename ?? '', contentType: a.contentType, content: a.content })),
          });
          cb();
        },
        (err: Error) => cb(err),
      );
    },
  });
  server.on('error', () => {});
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    received,
    get connections() {
      return state.connections;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
