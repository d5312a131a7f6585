import type { Db } from '../db/client.js';
import { systemLog } from '../db/schema.js';
import type { RequestCtx } from './context.js';

const SECRET = /pass|pwd|token|secret|authorization|authcode|captcha|^code$/i;

/** Copy of a request body with secrets replaced, for the system log. */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 6 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.slice(0, 100).map((v) => redact(v, depth + 1));
  const obj = value as Record<string, unknown>;
  // A key/value pair naming a secret (ChangeConfiguration of `AuthorizationKey`) hides its value too.
  const secretPair = typeof obj.key === 'string' && SECRET.test(obj.key);
  return Object.fromEntries(
    Object.entries(obj).map(([k, v]) => [k, SECRET.test(k) || (secretPair && k === 'value') ? '***' : redact(v, depth + 1)]),
  );
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

export function createAuditLog({ db }: { db: Db }) {
  return {
    async write(e: AuditEntry): Promise<void> {
      const p = e.ctx.principal;
      await db.insert(systemLog).values({
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
      });
    },
  };
}

export type AuditLog = ReturnType<typeof createAuditLog>;
