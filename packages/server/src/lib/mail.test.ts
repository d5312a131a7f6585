import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpServer } from '../../test/support/smtp-server.js';
import { MailError, sendMail } from './mail.js';
import { createOutboundGuard, parseOutboundAllow, type Lookup } from './outbound.js';

/** A self-signed certificate for one host name (the test's own CA, trusted only by these calls). */
function certificateFor(name: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'csms-mail-'));
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1']
      .concat(['-subj', `/CN=${name}`, '-addext', `subjectAltName=DNS:${name}`])
      .concat(['-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')]),
    { stdio: 'ignore' },
  );
  const pem = { key: fs.readFileSync(path.join(dir, 'key.pem'), 'utf8'), cert: fs.readFileSync(path.join(dir, 'cert.pem'), 'utf8') };
  fs.rmSync(dir, { recursive: true, force: true });
  return pem;
}

const account = { user: 'ops@east.test', pass: 'auth-code-123' };
const message = { from: account.user, to: 'driver@example.test', subject: '测试邮件 - 东方充电 ⚡', text: '中文正文\n.second line' };
let pem: ReturnType<typeof certificateFor>;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
beforeAll(async () => {
  pem = certificateFor('mail.csms.test');
  smtp = await startSmtpServer(account, pem);
});
afterAll(() => smtp.close());

/** These names exist only here: the system resolver knows none of them. */
function resolver() {
  const asked: string[] = [];
  const lookup: Lookup = async (host) => {
    asked.push(host);
    return [{ address: '127.0.0.1', family: 4 }];
  };
  return { lookup, asked };
}

describe('sendMail (nodemailer to the checked address)', () => {
  it('upgrades with STARTTLS, names the host for SNI and the certificate check, authenticates and keeps UTF-8', async () => {
    const dns = resolver();
    const outbound = createOutboundGuard({ allow: parseOutboundAllow(`mail.csms.test:${smtp.port}`), lookup: dns.lookup });
    const { messageId } = await sendMail(
      { outbound, tls: { ca: pem.cert } },
      { host: 'mail.csms.test', port: smtp.port, ...account },
      message,
    );
    expect(smtp.received.at(-1)).toMatchObject({
      ...account,
      secure: true,
      servername: 'mail.csms.test',
      subject: '测试邮件 - 东方充电 ⚡',
      // A line starting with a dot survives (SMTP dot-stuffing).
      text: expect.stringMatching(/^中文正文\n\.second line\n?$/),
      messageId,
    });
    // Resolved once, by the guard; the connection went to that answer (the system resolver cannot find this name).
    expect(dns.asked).toEqual(['mail.csms.test']);
  });

  it('fails when the certificate does not name the host, and says so only to the log', async () => {
    const outbound = createOutboundGuard({ allow: parseOutboundAllow(`other.csms.test:${smtp.port}`), lookup: resolver().lookup });
    const err = await sendMail(
      { outbound, tls: { ca: pem.cert } },
      { host: 'other.csms.test', port: smtp.port, ...account },
      message,
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MailError);
    expect(err).toMatchObject({ kind: 'unreachable', detail: expect.stringMatching(/altnames|certificate/i) });
  });

  it('never connects to a name that resolves inside without the allow-list', async () => {
    const outbound = createOutboundGuard({ allow: [], lookup: resolver().lookup });
    const before = smtp.connections;
    const err = await sendMail({ outbound }, { host: 'mail.csms.test', port: smtp.port, ...account }, message).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'unreachable', detail: expect.stringContaining('127.0.0.1 is loopback') });
    expect(smtp.connections).toBe(before);
  });

  it('tells a refused authorization code from an unreachable server', async () => {
    const outbound = createOutboundGuard({ allow: parseOutboundAllow(`mail.csms.test:${smtp.port}`), lookup: resolver().lookup });
    const err = await sendMail(
      { outbound, tls: { ca: pem.cert } },
      { host: 'mail.csms.test', port: smtp.port, user: account.user, pass: 'wrong' },
      message,
    ).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'auth', detail: expect.stringContaining('535') });
  });
});
