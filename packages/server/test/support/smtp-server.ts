import net from 'node:net';

export interface ReceivedMail {
  user: string;
  pass: string;
  from: string;
  to: string;
  data: string;
}

const b64 = (s: string) => Buffer.from(s, 'base64').toString('utf8');

/** A throw-away SMTP server on 127.0.0.1 that accepts AUTH LOGIN with one account and records what it receives. */
export async function startSmtpServer(account: { user: string; pass: string }) {
  const received: ReceivedMail[] = [];
  const server = net.createServer((sock) => {
    let buf = '';
    let state: 'cmd' | 'user' | 'pass' | 'data' = 'cmd';
    const cur: ReceivedMail = { user: '', pass: '', from: '', to: '', data: '' };
    const say = (s: string) => sock.write(`${s}\r\n`);
    say('220 test.local ESMTP ready');
    sock.on('error', () => {});
    sock.on('data', (chunk) => {
      buf += chunk.toString('utf8');
      let i: number;
      while ((i = buf.indexOf('\r\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 2);
        handle(line);
      }
    });
    function handle(line: string) {
      if (state === 'data') {
        if (line === '.') {
          received.push({ ...cur });
          state = 'cmd';
          return say('250 2.0.0 OK queued as 42');
        }
        cur.data += `${line.startsWith('..') ? line.slice(1) : line}\r\n`;
        return;
      }
      if (state === 'user') {
        cur.user = b64(line);
        state = 'pass';
        return say('334 UGFzc3dvcmQ6');
      }
      if (state === 'pass') {
        cur.pass = b64(line);
        state = 'cmd';
        const ok = cur.user === account.user && cur.pass === account.pass;
        return say(ok ? '235 2.7.0 Authentication successful' : '535 5.7.8 Authentication credentials invalid');
      }
      const verb = line.split(/[ :]/)[0]!.toUpperCase();
      if (verb === 'EHLO') return sock.write('250-test.local\r\n250-AUTH LOGIN PLAIN\r\n250 8BITMIME\r\n');
      if (verb === 'AUTH') {
        state = 'user';
        return say('334 VXNlcm5hbWU6');
      }
      if (verb === 'MAIL') {
        cur.from = /<(.*)>/.exec(line)?.[1] ?? '';
        return say('250 2.1.0 OK');
      }
      if (verb === 'RCPT') {
        cur.to = /<(.*)>/.exec(line)?.[1] ?? '';
        return cur.to.endsWith('@nowhere.test') ? say('550 5.1.1 No such user') : say('250 2.1.5 OK');
      }
      if (verb === 'DATA') {
        state = 'data';
        return say('354 End data with <CR><LF>.<CR><LF>');
      }
      if (verb === 'QUIT') {
        say('221 2.0.0 Bye');
        return sock.end();
      }
      say('502 5.5.2 Command not recognized');
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  return { port, received, close: () => new Promise<void>((r) => server.close(() => r())) };
}
