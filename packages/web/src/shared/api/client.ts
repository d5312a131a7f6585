import { Code, type BodyOf, type DataOf, type EndpointDef, type QueryOf } from '@csms/contract';
import i18n from 'i18next';
import { apiLang } from '../../i18n/lang';
import { getToken } from '../cookies';
import { toasts } from './toasts';

export const API_BASE = '/prod-api';
export const REQUEST_TIMEOUT_MS = 90_000;

/** A call that did not succeed: the envelope's code and message, and the field at fault for 400. */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    msg: string,
    readonly field?: string,
  ) {
    super(msg);
  }
}

export interface CallInput<E extends EndpointDef> {
  query?: QueryOf<E>;
  body?: BodyOf<E> | FormData;
  params?: Record<string, string | number>;
}

export interface CallOptions {
  /** Do not toast a 400: the caller (a form) shows it on the field. */
  fieldErrors?: boolean;
  /** Show nothing at all; the caller handles every failure. */
  silent?: boolean;
  signal?: AbortSignal;
}

/**
 * Set when the page starts to unload (a reload, or leaving for another address): the browser then
 * aborts the fetches in flight, which are no failures of the server or of the session.
 */
let unloading = false;
if (typeof window !== 'undefined') {
  window.addEventListener('pagehide', () => {
    unloading = true;
  });
  window.addEventListener('pageshow', () => {
    unloading = false;
  });
}
export const pageUnloading = () => unloading;

type Handler401 = () => void;
let on401: Handler401 = () => {};
/** The shell decides what a 401 does (re-login confirm, one at a time). */
export function setUnauthorizedHandler(h: Handler401) {
  on401 = h;
}

export function buildUrl(ep: EndpointDef, params?: Record<string, string | number>, query?: Record<string, unknown>): string {
  const path = ep.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String(params?.[name] ?? '')));
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v === undefined || v === null || v === '') continue;
    if (Array.isArray(v)) v.forEach((item) => qs.append(k, String(item)));
    else qs.append(k, String(v));
  }
  const s = qs.toString();
  return `${API_BASE}${path}${s ? `?${s}` : ''}`;
}

export function authHeaders(): Record<string, string> {
  const token = getToken();
  return {
    'X-Language': apiLang(),
    'X-Requested-With': 'csms-console',
    ...(token ? { Authorization: `Bearer ${token}`, 'X-Token': token } : {}),
  };
}

/** fetch with the console's timeout and the spec's transport toasts (network, timeout, HTTP status). */
export async function send(url: string, init: RequestInit, opts: CallOptions = {}): Promise<Response> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException('timeout', 'TimeoutError')), REQUEST_TIMEOUT_MS);
  opts.signal?.addEventListener('abort', () => controller.abort(opts.signal?.reason));
  let res: Response;
  try {
    res = await fetch(url, { ...init, credentials: 'include', signal: controller.signal });
  } catch {
    const timeout = controller.signal.reason instanceof DOMException && controller.signal.reason.name === 'TimeoutError';
    const text = i18n.t(timeout ? 'request.timeout' : 'request.network');
    if (!opts.silent && !opts.signal?.aborted && !unloading) toasts.error(text);
    throw new ApiError(0, text);
  } finally {
    clearTimeout(timer);
  }
  if (!res.ok) {
    const text = i18n.t('request.httpStatus', { path: url.split('?')[0], status: res.status });
    if (!opts.silent) toasts.error({ content: text, duration: 5 });
    throw new ApiError(res.status, text);
  }
  return res;
}

/** Show what an envelope's code means (DESIGN.md §4) and turn failures into ApiError. */
export function handleEnvelope(env: { code: number; msg?: string; data?: unknown }, opts: CallOptions = {}): void {
  const code = env.code;
  if (code === Code.OK) return;
  const text = env.msg || i18n.t('request.unknown');
  if (code === Code.WARN) {
    if (!opts.silent) toasts.warning(text);
    return;
  }
  // 400 names the field at fault; so does a 409 on a unique field ("name already exists").
  const field =
    code === Code.BAD_REQUEST || code === Code.CONFLICT ? ((env.data as { field?: string } | null)?.field ?? undefined) : undefined;
  if (code === Code.UNAUTHORIZED) {
    if (!opts.silent) on401();
  } else if (!opts.silent && !(opts.fieldErrors && field)) {
    toasts.error(text);
  }
  throw new ApiError(code, text, field);
}

/** Call one contract endpoint; resolves with `data` (for `flat` replies, the whole reply). */
export async function call<E extends EndpointDef>(ep: E, input: CallInput<E> = {}, opts: CallOptions = {}): Promise<DataOf<E>> {
  const isForm = typeof FormData !== 'undefined' && input.body instanceof FormData;
  const res = await send(
    buildUrl(ep, input.params, input.query as Record<string, unknown> | undefined),
    {
      method: ep.method,
      headers: { ...authHeaders(), ...(ep.method === 'POST' && !isForm ? { 'Content-Type': 'application/json' } : {}) },
      body: ep.method === 'POST' ? (isForm ? (input.body as FormData) : JSON.stringify(input.body ?? {})) : undefined,
    },
    opts,
  );
  const env = (await res.json()) as { code: number; msg?: string; data?: unknown };
  handleEnvelope(env, opts);
  return (ep.raw === 'flat' ? env : env.data) as DataOf<E>;
}
