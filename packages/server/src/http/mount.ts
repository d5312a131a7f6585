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
import type { UnitOfWork } from '../db/unit-of-work.js';
import { plannedEachCall } from '../db/named-statements.js';
import { sanitizeForLog, type AuditLog } from './audit.js';
import type { Principal, RequestCtx } from './context.js';
import { AppError } from './errors.js';
import { clientError } from './errors-reply.js';
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
  /** The transaction a mutation and its system-log row share. */
  uow: UnitOfWork;
  log: FastifyInstance['log'];
}

const EXTERNAL = Symbol('external');

/**
 * Marks a mutation whose effect lies outside the database or behind a slow wait (a charger's
 * answer, a mail server, a streamed upload, a password check): holding a transaction open across
 * it would stall every other query (PGlite runs one at a time). Its system-log row is written
 * before it runs, so that without the row nothing happens, and completed with the outcome after.
 */
export function external<H extends (...args: never[]) => unknown>(handler: H): H {
  return Object.assign(handler, { [EXTERNAL]: true });
}
/** `external` for every handler of a group (operator commands to chargers). */
export function externalAll<T extends Record<string, (...args: never[]) => unknown>>(handlers: T): T {
  for (const h of Object.values(handlers)) external(h);
  return handlers;
}
const isExternal = (h: unknown) => (h as { [EXTERNAL]?: boolean })[EXTERNAL] === true;

/** Name of the session cookie the server sets on sign-in (spec §3's `Admin-Token`), HttpOnly. */
export const SESSION_COOKIE = 'Admin-Token';

/**
 * The session token of a request: the header (Authorization: Bearer, or X-Token; both present
 * must agree, else `conflict`), never the URL. The cookie only authenticates reads that a
 * browser opens itself (event stream, file links), so that a forged cross-site POST cannot ride on it.
 */
export function tokenOf(req: FastifyRequest, ep: Pick<EndpointDef, 'method' | 'raw'>): string | undefined | 'conflict' {
  const auth = req.headers.authorization;
  const bearer = auth?.startsWith('Bearer ') ? auth.slice(7).trim() || undefined : undefined;
  const x = req.headers['x-token'];
  const xToken = typeof x === 'string' && x ? x : undefined;
  if (bearer && xToken && bearer !== xToken) return 'conflict';
  if (bearer ?? xToken) return bearer ?? xToken;
  if (ep.method === 'GET' && ep.raw) return req.cookies?.[SESSION_COOKIE] || undefined;
  return undefined;
}

export function langOf(req: FastifyRequest) {
  const h = req.headers['x-language'];
  return toLang(typeof h === 'string' ? h : req.cookies?.language);
}

function allowed(p: Principal, access: Exclude<Access, 'public'>, resource: string): boolean {
  // A disabled role opens nothing but its own sign-in endpoints: `/web/info` (which tells the console to
  // sign out), sign-out and the password. Every other session read (the dashboard's figures, stations,
  // files, the event stream) is refused like a permission.
  if (access === 'session') return p.roleEnabled || resource === 'auth';
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
  const outside = isExternal(handler);
  app.route({
    method: ep.method,
    url: API_PREFIX + ep.path,
    // The console's statements are planned for their values at every call (src/db/named-statements.ts).
    handler: (req, reply) => plannedEachCall(() => answer(req, reply)),
  });

  async function answer(req: FastifyRequest, reply: FastifyReply) {
    const started = performance.now();
    const ctx: RequestCtx = { lang: langOf(req), ip: req.ip, principal: null };
    const audit: AuditNote = {};
    let code: number = Code.OK;
    let msg = '';
    let data: unknown = null;
    /** What the system log keeps of the request: the validated input once it passed. */
    let logged: unknown = req.isMultipart() ? { query: sanitizeForLog(req.query) } : sanitizeForLog(req.body ?? req.query ?? null);
    let rawReply = false;

    /** Authenticate, validate and run the handler; a refusal (AppError) becomes the envelope, anything else throws. */
    async function run(): Promise<void> {
      try {
        if (ep.access !== 'public') {
          const token = tokenOf(req, ep);
          ctx.principal = token && token !== 'conflict' ? await deps.sessions.resolve(token) : null;
          if (!ctx.principal) throw new AppError(Code.UNAUTHORIZED, 'errors.unauthorized');
          // A one-time password (an approved application's) opens nothing until it is changed: the session's
          // reads (the console's frame) and its own sign-in endpoints (change password, sign out) only.
          if (ctx.principal.mustChangePassword && (ep.access !== 'session' || (ep.mutation && ep.resource !== 'auth'))) {
            throw new AppError(Code.FORBIDDEN, 'errors.auth.mustChangePassword');
          }
          if (!allowed(ctx.principal, ep.access, ep.resource)) throw new AppError(Code.FORBIDDEN, 'errors.forbidden');
        }
        const params = (parse(ep.params, req.params, ctx, ep.resource) ?? {}) as Record<string, string>;
        const query = parse(ep.query, req.query, ctx, ep.resource);
        // Only the upload endpoints read a multipart body; anywhere else it is not a body they understand.
        if (req.isMultipart() && ep.body) {
          throw new AppError(Code.BAD_REQUEST, 'errors.request.unsupportedType', { type: 'multipart/form-data' });
        }
        // Form-encoded bodies only where the contract asks for them (the download helper's form POST).
        if (!ep.form && /^application\/x-www-form-urlencoded/i.test(req.headers['content-type'] ?? '')) {
          throw new AppError(Code.BAD_REQUEST, 'errors.request.unsupportedType', { type: 'application/x-www-form-urlencoded' });
        }
        const body = req.isMultipart() ? undefined : parse(ep.body, req.body, ctx, ep.resource);
        if (!req.isMultipart()) logged = ep.body ? (body ?? null) : ep.query ? (query ?? null) : null;
        const call = () => (handler as Handler<EndpointDef>)({ query, body, params, ctx, req, reply, audit } as never);
        // Inside a unit of work the handler runs in a savepoint: a refusal undoes what it wrote, and a
        // database error it turned into a refusal (a unique or foreign-key violation) leaves the
        // transaction usable for the system-log row.
        const result = ep.mutation && !outside ? await deps.uow.db.transaction(() => call()) : await call();
        if (ep.raw === 'download' || ep.raw === 'stream') {
          rawReply = true;
          msg = translate(ctx.lang, 'errors.success');
          return;
        }
        if (result instanceof Outcome) {
          code = result.code;
          msg = translate(ctx.lang, result.msgKey, result.params);
          data = result.data;
        } else {
          msg = translate(ctx.lang, 'errors.success');
          data = result ?? null;
        }
      } catch (thrown) {
        // The framework's own refusals (a multipart limit) are bad input too, never a 500.
        const err = thrown instanceof AppError ? thrown : clientError(thrown);
        if (!err) throw thrown;
        code = err.code;
        msg = err.key ? translate(ctx.lang, err.key, err.params) : String(err.params.msg);
        data = err.field !== undefined ? { field: err.field } : null;
      }
    }

    const entry = () => ({
      ctx,
      operation: ep.operation ?? 'other',
      operand: audit.operand ?? defaultOperand(ep, logged),
      method: ep.method,
      path: ep.path,
      request: logged,
      result: code,
      msg,
      mode: (req.headers['x-requested-with'] === 'csms-console' ? 'web' : 'api') as 'web' | 'api',
      durationMs: Math.round(performance.now() - started),
      operator: audit.operator,
    });

    try {
      if (!ep.mutation) await run();
      else if (outside) {
        // No row, no action: the row is written first and completed with the outcome.
        const id = await deps.audit.begin(entry());
        try {
          await run();
        } catch (err) {
          code = Code.SERVER_ERROR;
          msg = translate(ctx.lang, 'errors.serverError');
          throw err;
        } finally {
          await deps.audit.finish(id, entry()).catch((err: unknown) => req.log.error({ err }, 'system log completion failed'));
        }
      } else {
        // The change and its system-log row commit together, or neither does.
        await deps.uow.run(async () => {
          await run();
          await deps.audit.write(entry());
        });
      }
    } catch (err) {
      code = Code.SERVER_ERROR;
      msg = translate(ctx.lang, 'errors.serverError');
      data = null;
      req.log.error({ err, path: ep.path }, 'request failed');
      // The change was rolled back; the failure itself is still recorded where it can be.
      if (ep.mutation && !outside) {
        await deps.audit.write(entry()).catch((e: unknown) => req.log.error({ err: e }, 'system log write failed'));
      }
    }
    if (reply.sent || reply.raw.headersSent || (rawReply && code === Code.OK)) {
      if (code !== Code.OK) req.log.warn({ path: ep.path, code }, 'failure after the reply started');
      return reply;
    }
    return reply
      .code(200)
      .send(
        ep.raw === 'flat'
          ? { code, msg, ...(code === Code.OK ? (data as object) : {}), ...(code !== Code.OK && data ? { data } : {}) }
          : { code, msg, data },
      );
  }
}

export function mountAll<G extends Record<string, EndpointDef>>(app: FastifyInstance, deps: MountDeps, group: G, handlers: Handlers<G>) {
  for (const key of Object.keys(group) as (keyof G)[]) {
    mountEndpoint(app, deps, group[key], handlers[key]);
  }
}
