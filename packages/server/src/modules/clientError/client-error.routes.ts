import { createHash } from 'node:crypto';
import type { clientErrorApi } from '@csms/contract';
import type { Handlers } from '../../http/mount.js';
import type { SessionStore } from '../../http/sessions.js';
import type { ClientErrorRepo } from './client-error.repo.js';

/** Reports one session (or one address without a session) may send per window; more are dropped. */
export const REPORTS_PER_WINDOW = 30;
export const REPORT_WINDOW_MS = 10 * 60_000;

/**
 * The same error, wherever it happens: build, message, and the stack's first frames with line and
 * column kept (they tell errors apart within one build) and query strings dropped (cache busters).
 */
export function fingerprintOf(r: { buildId: string; message: string; stack?: string | undefined }): string {
  const frames = (r.stack ?? '')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => /^at |@/.test(l))
    .slice(0, 5)
    .map((l) => l.replace(/\?[^:)\s]*/g, ''));
  return createHash('sha256')
    .update([r.buildId, r.message, ...frames].join('\n'))
    .digest('hex');
}

export function clientErrorRoutes({ repo, sessions }: { repo: ClientErrorRepo; sessions: SessionStore }): Handlers<typeof clientErrorApi> {
  return {
    async report({ body, req, ctx }) {
      const auth = req.headers.authorization;
      const token = auth?.startsWith('Bearer ') ? auth.slice(7).trim() : (req.headers['x-token'] as string | undefined);
      const p = token ? await sessions.resolve(token) : null;
      const key = p ? `session:${p.sessionId}` : `ip:${ctx.ip}`;
      if (!(await repo.take(key, REPORTS_PER_WINDOW, REPORT_WINDOW_MS))) return { accepted: false };
      const ua = req.headers['user-agent'];
      await repo.record({
        fingerprint: fingerprintOf(body),
        message: body.message,
        stack: body.stack ?? null,
        source: body.source,
        route: body.route,
        buildId: body.buildId,
        userId: p?.userId ?? null,
        username: p?.username ?? null,
        providerId: p?.providerId ?? null,
        userAgent: typeof ua === 'string' ? ua.slice(0, 300) : null,
      });
      return { accepted: true };
    },
    async list({ query, ctx }) {
      const { page, limit, ...f } = query;
      return repo.list(ctx.principal, f, page, limit);
    },
  };
}
