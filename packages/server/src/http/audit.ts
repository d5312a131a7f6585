import { hasBadText, replaceBadText } from '@csms/contract';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { systemLog } from '../db/schema.js';
import { maskLocation } from '../lib/secret-location.js';
import type { RequestCtx } from './context.js';

const SECRET = /pass|pwd|token|secret|authorization|authcode|captcha|^code$/i;
/** A firmware or diagnostics location an operator typed may hold a login's password (lib/secret-location.ts). */
const LOCATION = /location$/i;

/** Copy of a request body with secrets replaced, for the system log. */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 6 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.slice(0, 100).map((v) => redact(v, depth + 1));
  const obj = value as Record<string, unknown>;
  // A key/value pair naming a secret (ChangeConfiguration of `AuthorizationKey`) hides its value too.
  const secretPair = typeof obj.key === 'string' && SECRET.test(obj.key);
  return Object.fromEntries(
    Object.entries(obj).map(([k, v]) => [
      k,
      SECRET.test(k) || (secretPair && k === 'value')
        ? '***'
        : LOCATION.test(k) && typeof v === 'string'
          ? maskLocation(v)
          : redact(v, depth + 1),
    ]),
  );
}

const clean = (s: string) => (hasBadText(s) ? replaceBadText(s) : s);

/**
 * Copy of raw input that jsonb can store: NUL and unpaired UTF-16 halves replaced. Only input that
 * failed validation is logged raw (validated input never holds them); without this its row would fail.
 */
export function sanitizeForLog(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return clean(value);
  if (value === null || typeof value !== 'object' || depth > 6) return value ?? null;
  if (Array.isArray(value)) return value.slice(0, 100).map((v) => sanitizeForLog(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [clean(k), sanitizeForLog(v, depth + 1)]));
}

export interface AuditEntry {
  ctx: RequestCtx;
  operation: string;
  operand: string;
  method: string;
  path: string;
  request: unknown;
  result: number;
  msg: string;
  mode: 'web' | 'api' | 'ocpp';
  durationMs?: number;
  /** For sign-in attempts, who tried (there is no principal yet). */
  operator?: { userId?: number; providerId?: number; username?: string };
}

const PENDING = 0;

export function createAuditLog({ db }: { db: Db }) {
  const row = (e: AuditEntry) => {
    const p = e.ctx.principal;
    return {
      providerId: e.operator?.providerId ?? p?.providerId ?? null,
      userId: e.operator?.userId ?? p?.userId ?? null,
      operator: (e.operator?.username ?? p?.username ?? null)?.slice(0, 64) ?? null,
      operation: e.operation,
      operand: e.operand.slice(0, 255),
      method: e.method,
      path: e.path.slice(0, 255),
      ip: e.ctx.ip,
      request: redact(e.request) ?? null,
      result: e.result,
      msg: e.msg.slice(0, 500),
      mode: e.mode,
      durationMs: e.durationMs ?? null,
    };
  };
  return {
    /** One row, in the caller's transaction when there is one (a unit of work). */
    async write(e: AuditEntry): Promise<void> {
      await db.insert(systemLog).values(row(e));
    },
    /** A row written before an action outside the database runs (result 0 until `finish`). */
    async begin(e: AuditEntry): Promise<number> {
      const [r] = await db
        .insert(systemLog)
        .values({ ...row(e), result: PENDING, msg: null })
        .returning({ id: systemLog.id });
      return r!.id;
    },
    /** The outcome of the action `begin` recorded, and who it turned out to be (sign-in). */
    async finish(id: number, e: AuditEntry): Promise<void> {
      const { result, msg, durationMs, operand, providerId, userId, operator } = row(e);
      await db.update(systemLog).set({ result, msg, durationMs, operand, providerId, userId, operator }).where(eq(systemLog.id, id));
    },
  };
}

export type AuditLog = ReturnType<typeof createAuditLog>;
