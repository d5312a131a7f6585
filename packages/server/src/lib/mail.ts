import type { ConnectionOptions } from 'node:tls';
import { OutboundRefused, type OutboundGuard } from './outbound.js';

/** A provider's mail settings (spec §3: account, authorization code, SMTP address and port). */
export interface SmtpSettings {
  host: string;
  port: number;
  user: string;
  pass: string;
}

export interface MailMessage {
  from: string;
  to: string;
  subject: string;
  text: string;
  /** Files sent along (an issued invoice's PDF): bytes already read, so nodemailer needs no file or URL access. */
  attachments?: { filename: string; content: Buffer; contentType: string }[];
}

/**
 * What the operator is told. Nothing from the peer or the network (its banner, ECONNREFUSED
 * against a timeout) reaches them: that would turn "test mail" into a port scanner.
 */
export type MailFailure = 'unreachable' | 'auth' | 'rejected';

export class MailError extends Error {
  constructor(
    readonly kind: MailFailure,
    readonly detail: string,
  ) {
    super(`${kind}: ${detail}`);
  }
}

export interface MailDeps {
  outbound: OutboundGuard;
  /** Connect, greeting and idle limit of one conversation (ms). */
  timeoutMs?: number;
  /** Extra TLS options (tests trust their own certificate authority). */
  tls?: ConnectionOptions;
}

function classify(err: unknown): MailError {
  if (err instanceof OutboundRefused) return new MailError('unreachable', err.message);
  const e = err as { code?: string; response?: string; message?: string };
  const detail = [e.code, e.response ?? e.message].filter(Boolean).join(' ');
  if (e.code === 'EAUTH' || e.code === 'ENOAUTH') return new MailError('auth', detail);
  if (e.code === 'EENVELOPE' || e.code === 'EMESSAGE') return new MailError('rejected', detail);
  return new MailError('unreachable', detail);
}

/**
 * Send one mail through nodemailer to the address the outbound guard checked: the host name stays
 * the TLS server name (SNI and certificate check), STARTTLS is used whenever offered, port 465 is
 * TLS from the start. Attachments come as bytes, so file and URL access stay off.
 */
export async function sendMail(deps: MailDeps, smtp: SmtpSettings, message: MailMessage): Promise<{ messageId: string }> {
  const timeoutMs = deps.timeoutMs ?? 15_000;
  try {
    const target = await deps.outbound.resolve(smtp.host, smtp.port);
    // Loaded with the first mail rather than with the server (≈ 55 ms of a start).
    const { default: nodemailer } = await import('nodemailer');
    const transport = nodemailer.createTransport({
      host: target.address,
      port: target.port,
      secure: target.port === 465,
      auth: { user: smtp.user, pass: smtp.pass },
      tls: { ...(target.host !== target.address ? { servername: target.host } : {}), ...deps.tls },
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
      disableFileAccess: true,
      disableUrlAccess: true,
    });
    try {
      const info = await transport.sendMail(message);
      return { messageId: info.messageId };
    } finally {
      transport.close();
    }
  } catch (err) {
    throw classify(err);
  }
}
