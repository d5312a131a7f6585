import type { DataOf, EndpointDef, QueryOf } from '@csms/contract';
import i18n from 'i18next';
import { ApiError, authHeaders, buildUrl, handleEnvelope, pageUnloading, type CallOptions } from '../api/client';
import { toasts } from '../api/toasts';

export interface ProgressUploadInput<E extends EndpointDef> {
  /** The endpoint's query (a multipart endpoint takes its fields there). */
  query?: QueryOf<E>;
  file: Blob;
  /** The multipart field; `file` by default. */
  field?: string;
  /** Percent of the file sent, 0…100. */
  onProgress?: (percent: number) => void;
}

/**
 * POST one file as multipart to a contract endpoint, reporting the share sent (fetch cannot; this
 * is an XMLHttpRequest). No time limit: a large file takes as long as the link needs. Failures show
 * as `call` shows them (transport and HTTP status toasts, the envelope's code), and the promise
 * rejects with ApiError; with `fieldErrors` a 400 naming a field is left to the caller. Aborting
 * `signal` stops the upload quietly.
 */
export function uploadWithProgress<E extends EndpointDef>(
  ep: E,
  input: ProgressUploadInput<E>,
  opts: CallOptions = {},
): Promise<DataOf<E>> {
  const url = buildUrl(ep, undefined, input.query as Record<string, unknown> | undefined);
  const body = new FormData();
  body.append(input.field ?? 'file', input.file);
  return new Promise<DataOf<E>>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    let aborted = false;
    const fail = (text: string, status = 0, toast: 'plain' | 'long' = 'plain') => {
      if (!opts.silent && !aborted && !pageUnloading()) toasts.error(toast === 'long' ? { content: text, duration: 5 } : text);
      reject(new ApiError(status, text));
    };
    xhr.open(ep.method, url);
    xhr.withCredentials = true;
    for (const [k, v] of Object.entries(authHeaders())) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) input.onProgress?.(Math.min(100, Math.floor((e.loaded / e.total) * 100)));
    };
    xhr.onerror = () => fail(i18n.t('request.network'));
    xhr.onabort = () => fail(i18n.t('request.network'));
    xhr.onload = () => {
      if (xhr.status < 200 || xhr.status >= 300) {
        fail(i18n.t('request.httpStatus', { path: url.split('?')[0], status: xhr.status }), xhr.status, 'long');
        return;
      }
      let env: { code: number; msg?: string; data?: unknown };
      try {
        env = JSON.parse(xhr.responseText) as typeof env;
      } catch {
        fail(i18n.t('request.unknown'));
        return;
      }
      try {
        handleEnvelope(env, opts);
        resolve((ep.raw === 'flat' ? env : env.data) as DataOf<E>);
      } catch (err) {
        reject(err as Error);
      }
    };
    opts.signal?.addEventListener('abort', () => {
      aborted = true;
      xhr.abort();
    });
    xhr.send(body);
  });
}
