import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { OcppConfig } from '../config.js';
import type { Db } from '../db/client.js';
import type { AuditLog } from '../http/audit.js';
import { hashOcppKey, verifyOcppKey } from './keys.js';
import { autoRegister, keyChangeTaken, type PointState } from './registry.js';

import type { OcppVersion } from './session.js';

/** The subprotocols the endpoint speaks, and the OCPP version each one is. */
export const SUBPROTOCOLS: ReadonlyMap<string, OcppVersion> = new Map([
  ['ocpp1.6', '1.6'],
  ['ocpp2.0.1', '2.0.1'],
]);

/**
 * The subprotocol a connection gets: the first one in the charger's own list (RFC 6455: the client
 * lists them in its order of preference) that we speak. A charger offering `ocpp2.0.1, ocpp1.6`
 * speaks 2.0.1, one offering `ocpp1.6, ocpp2.0.1` speaks 1.6. Undefined: none we speak.
 */
export function chooseSubprotocol(offered: Iterable<string>): string | undefined {
  for (const p of offered) if (SUBPROTOCOLS.has(p)) return p;
  return undefined;
}

/** Why a connection attempt was turned away, with the HTTP status it got. */
export type Refusal = {
  status: 400 | 401 | 403 | 404 | 429 | 503;
  reason: string;
  point?: { id: number; providerId: number };
  /** 429: seconds until the lockout ends. */
  retryAfter?: number;
};

const STATUS_TEXT: Record<Refusal['status'], string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  429: 'Too Many Requests',
  503: 'Service Unavailable',
};

export function refuse(socket: Duplex, { status, retryAfter }: Refusal): void {
  const extra =
    status === 401
      ? 'WWW-Authenticate: Basic realm="OCPP", charset="UTF-8"\r\n'
      : status === 429 && retryAfter
        ? `Retry-After: ${retryAfter}\r\n`
        : '';
  socket.end(`HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\nConnection: close\r\nContent-Length: 0\r\n${extra}\r\n`);
}

/** `/ocpp/{identity}` (one segment, percent-decoded); undefined for other paths. */
export function identityOf(url: string | undefined): string | null | undefined {
  const path = (url ?? '').split('?')[0]!;
  if (path !== '/ocpp' && !path.startsWith('/ocpp/')) return undefined;
  const m = /^\/ocpp\/([^/]+)$/.exec(path);
  if (!m) return null;
  try {
    const id = decodeURIComponent(m[1]!);
    return id.length > 0 && id.length <= 48 && !/[\s/]/.test(id) ? id : null;
  } catch {
    return null;
  }
}

function basicAuth(header: string | undefined): { user: string; password: string } | null {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!m) return null;
  const text = Buffer.from(m[1]!, 'base64').toString('utf8');
  const i = text.indexOf(':');
  return i < 0 ? null : { user: text.slice(0, i), password: text.slice(i + 1) };
}

/** The OCPP version of the subprotocol `chooseSubprotocol` picks from the upgrade request's list; undefined: none we speak. */
export const offeredVersion = (req: IncomingMessage): OcppVersion | undefined => {
  const chosen = chooseSubprotocol((req.headers['sec-websocket-protocol'] ?? '').split(',').map((s) => s.trim()));
  return chosen === undefined ? undefined : SUBPROTOCOLS.get(chosen);
};

/**
 * Who may connect (security profiles 0–2, DESIGN.md §5, §9): the point's key over HTTP Basic,
 * no credentials only for keyless points when profile 0 is allowed, and unknown identities
 * refused or, with auto-registration, registered with the password they presented.
 */
export function createAdmission({
  db,
  config,
  timeZone,
  loadPoint,
  audit,
  logger,
}: {
  db: Db;
  config: OcppConfig;
  timeZone: string;
  loadPoint: (serialNumber: string) => Promise<PointState | null>;
  audit: AuditLog | undefined;
  logger: { info(obj: unknown, msg?: string): void; warn(obj: unknown, msg?: string): void };
}) {
  /** A system-log row (mode ocpp, under the point's provider) of what a connection attempt did to the point. */
  const logged = (identity: string, req: IncomingMessage, providerId: number, operation: string, msg: string) =>
    audit
      ?.write({
        ctx: { lang: 'en', ip: req.socket.remoteAddress ?? '', principal: null },
        operation,
        operand: `point:${identity}`,
        method: 'GET',
        path: (req.url ?? '').slice(0, 255),
        request: { serialNumber: identity },
        result: 200,
        msg,
        mode: 'ocpp',
        operator: { providerId },
      })
      .catch((err: unknown) => logger.warn({ err, operation }, 'ocpp: connection audit failed'));

  /** Loads (or auto-registers) the point and checks credentials; the point, or why not. */
  return async function admit(identity: string, req: IncomingMessage): Promise<PointState | Refusal> {
    const credentials = basicAuth(req.headers.authorization);
    if (credentials && credentials.user !== identity) return { status: 401, reason: 'usernameMismatch' };
    let point = await loadPoint(identity);
    if (!point) {
      if (!config.autoRegister) return { status: 404, reason: 'unknownIdentity' };
      if (!credentials && !config.allowNoAuth) return { status: 401, reason: 'noCredentials' };
      const registered = await autoRegister(db, identity, {
        providerId: config.autoRegisterProvider,
        timeZone: timeZone,
        ocppKeyHash: credentials ? hashOcppKey(credentials.password) : null,
      });
      // The provider's authorised point count is reached: refused like an unknown identity, with its own reason.
      if (!registered) return { status: 403, reason: 'pointLimit' };
      const { pointId, providerId } = registered;
      logger.info({ serialNumber: identity, pointId, providerId }, 'ocpp: charger auto-registered');
      await logged(identity, req, providerId, 'autoRegister', 'auto-registered');
      point = await loadPoint(identity);
      if (!point) return { status: 404, reason: 'unknownIdentity' };
      return point;
    }
    const known = { id: point.id, providerId: point.providerId };
    if (!point.enabled) return { status: 404, reason: 'disabled', point: known };
    if (point.ocppKeyHash) {
      if (!credentials) return { status: 401, reason: 'noCredentials', point: known };
      if (verifyOcppKey(credentials.password, point.ocppKeyHash)) {
        // The key an operator sent it (sendKey) is in use: the previous one stops working.
        if (point.ocppKeyPreviousHash) {
          if (await keyChangeTaken(db, point.id, point.ocppKeyHash)) {
            logger.info({ serialNumber: identity, pointId: point.id }, 'ocpp: charger connected with the key sent to it');
            await logged(
              identity,
              req,
              point.providerId,
              'keyTaken',
              'connected with the key sent to it; the previous key no longer works',
            );
          }
          point.ocppKeyPreviousHash = null;
        }
        return point;
      }
      // A key was sent and the charger has not connected with it yet: the one it had still opens.
      if (point.ocppKeyPreviousHash && verifyOcppKey(credentials.password, point.ocppKeyPreviousHash)) return point;
      return { status: 401, reason: 'badKey', point: known };
    }
    // No key issued: only security profile 0, and only when allowed.
    return config.allowNoAuth ? point : { status: 401, reason: 'noKey', point: known };
  };
}
