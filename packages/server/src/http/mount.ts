import {
  checkPermi,
  checkRole,
  Code,
  toLang,
  translate,
  validate,
  type Access,
  type DataOf,
  type EndpointDef,
  type ParsedBody,
  type ParsedQuery,
} from '@csms/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { AuditLog } from './audit.js';
import type { Principal, RequestCtx } from './context.js';
import { AppError } from './errors.js';
import type { SessionStore } from './sessions.js';

export const API_PREFIX = '/prod-api';

/** A reply other than plain success: a warning (601), or 200 with a message of its own. */
export class Outcome<T> {
  constructor(
    readonly data: T,
    readonly code: number = Code.OK,
    readonly msgKey: string = 'errors.success',
    readonly params: Record<string, unknown> = {},
  ) {}
}

export interface AuditNote {
  /** What was operated on, e.g. `organization:12`; defaults from the body's id, ids or name. */
  operand?: string;
  /** Sign-in attempts name the account tried, since there is no principal yet. */
  operator?: { userId?: number; providerId?: number; username?: string };
}

export interface HandlerArgs<E extends EndpointDef> {
  query: ParsedQuery<E>;
  body: ParsedBody<E>;
  params: Record<string, string>;
  ctx: RequestCtx;
  req: FastifyRequest;
  reply: FastifyReply;
  audit: AuditNote;
}

export type Handler<E extends EndpointDef> = (
  args: HandlerArgs<E> & (E['access'] extends 'public' ? object : { ctx: RequestCtx & { principal: Principal } }),
) => Promise<DataOf<E> | Outcome<DataOf<E>> | void>;

export type Handlers<G extends Record<string, EndpointDef>> = { [K in keyof G]: Handler<G[K]> };

export interface MountDeps {
  sessions: SessionStore;
  audit: AuditLog;
  log: FastifyInstance['log'];
}

function tokenOf(req: FastifyRequest, ep: EndpointDef): string | undefined {
  const auth = req.headers.authorization;
  if (auth?.startsWith('Bearer ')) return auth.slice(7).trim() || undefined;
  const x = req.headers['x-token'];
  if (typeof x === 'string' && x) return x;
  const q = (req.query as Record<string, unknown> | undefined)?.token;
  if (typeof q === 'string' && q) return q;
  // The cookie only authenticates reads that a browser opens itself (event stream, file links),
  // so that a forged cross-site POST cannot ride on it.
  if (ep.method === 'GET' && ep.raw) return req.cookies?.['Admin-Token'] || undefined;
  return undefined;
}

export function langOf(req: FastifyRequest) {
  const h = req.headers['x-language'];
  return toLang(typeof h === 'string' ? h : req.cookies?.language);
}

function allowed(p: Principal, access: Exclude<Access, 'public'>): boolean {
  if (access === 'session') return true;
  if (!p.roleEnabled) return false;
  const roles = [p.roleKey];
  if ('role' in access) return checkRole(roles, access.role);
  return checkRole(roles, 'admin') || checkPermi(p.permissions, 'permi' in access ? access.permi : access.anyPermi);
}

function defaultOperand(ep: EndpointDef, body: unknown): string {
  const b = (body ?? {}) as Record<string, unknown>;
  const which = b.id ?? (Array.isArray(b.ids) ? b.ids.join(',') : undefined) ?? b.username ?? b.name;
  return which === undefined ? ep.resource : `${ep.resource}:${String(which)}`;
}

function parse<S extends z.ZodType>(schema: S | undefined, input: unknown, ctx: RequestCtx, resource: string) {
  if (!schema) return undefined;
  const r = validate(schema, input ?? {}, ctx.lang, resource);
  if (!r.ok) throw new AppError(Code.BAD_REQUEST, '', { msg: r.error.msg }, r.error.field);
  return r.value;
}

/** Register one contract endpoint: authenticate, authorise, validate, run, wrap in the envelope, audit. */
export function mountEndpoint<E extends EndpointDef>(app: FastifyInstance, deps: MountDeps, ep: E, handler: Handler<E>) {
  app.route({
    method: ep.method,
    url: API_PREFIX + ep.path,
    handler: async (req, reply) => {
      const started = performance.now();
      const ctx: RequestCtx = { lang: langOf(req), ip: req.ip, principal: null };
      const audit: AuditNote = {};
      let code: number = Code.OK;
      let msg = '';
      let data: unknown = null;
      try {
        if (ep.access !== 'public') {
          const token = tokenOf(req, ep);
          ctx.principal = token ? await deps.sessions.resolve(token) : null;
          if (!ctx.principal) throw new AppError(Code.UNAUTHORIZED, 'errors.unauthorized');
          if (!allowed(ctx.principal, ep.access)) throw new AppError(Code.FORBIDDEN, 'errors.forbidden');
        }
        const params = (parse(ep.params, req.params, ctx, ep.resource) ?? {}) as Record<string, string>;
        const query = parse(ep.query, req.query, ctx, ep.resource);
        const body = req.isMultipart() ? undefined : parse(ep.body, req.body, ctx, ep.resource);
        const result = await (handler as Handler<EndpointDef>)({ query, body, params, ctx, req, reply, audit } as never);
        if (ep.raw === 'download' || ep.raw === 'stream') {
          if (ep.mutation) await writeAudit(Code.OK, translate(ctx.lang, 'errors.success'));
          return reply;
        }
        if (result instanceof Outcome) {
          code = result.code;
          msg = translate(ctx.lang, result.msgKey, result.params);
          data = result.data;
        } else {
          msg = translate(ctx.lang, 'errors.success');
          data = result ?? null;
        }
      } catch (err) {
        data = null;
        if (err instanceof AppError) {
          code = err.code;
          msg = err.key ? translate(ctx.lang, err.key, err.params) : String(err.params.msg);
          if (err.field !== undefined) data = { field: err.field };
        } else {
          code = Code.SERVER_ERROR;
          msg = translate(ctx.lang, 'errors.serverError');
          req.log.error({ err, path: ep.path }, 'request failed');
        }
        if (reply.sent || reply.raw.headersSent) {
          req.log.warn({ path: ep.path, code }, 'failure after the reply started');
          return reply;
        }
      }
      if (ep.mutation) await writeAudit(code, msg);
      return reply
        .code(200)
        .send(
          ep.raw === 'flat'
            ? { code, msg, ...(code === Code.OK ? (data as object) : {}), ...(code !== Code.OK && data ? { data } : {}) }
            : { code, msg, data },
        );

      async function writeAudit(result: number, text: string) {
        try {
          await deps.audit.write({
            ctx,
            operation: ep.operation ?? 'other',
            operand: audit.operand ?? defaultOperand(ep, req.body),
            method: ep.method,
            path: ep.path,
            request: req.isMultipart() ? { query: req.query } : (req.body ?? req.query ?? null),
            result,
            msg: text,
            mode: req.headers['x-requested-with'] === 'csms-console' ? 'web' : 'api',
            durationMs: Math.round(performance.now() - started),
            operator: audit.operator,
          });
        } catch (err) {
          req.log.error({ err }, 'system log write failed');
        }
      }
    },
  });
}

export function mountAll<G extends Record<string, EndpointDef>>(app: FastifyInstance, deps: MountDeps, group: G, handlers: Handlers<G>) {
  for (const key of Object.keys(group) as (keyof G)[]) {
    mountEndpoint(app, deps, group[key], handlers[key]);
  }
}
