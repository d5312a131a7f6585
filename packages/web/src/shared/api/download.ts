import { type EndpointDef, commonApi } from '@csms/contract';
import i18n from 'i18next';
import { feedback } from '../feedback';
import { ApiError, authHeaders, buildUrl, handleEnvelope, send } from './client';

/** Save a blob under a file name through a temporary link. */
export function saveBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function fileNameFrom(res: Response, fallback: string): string {
  const header = res.headers.get('download-filename');
  if (!header) return fallback;
  try {
    return decodeURIComponent(header);
  } catch {
    return header;
  }
}

/** A JSON reply is an envelope (an error, spec §7); anything else is the file. */
async function saveReply(res: Response, fallbackName: string) {
  const type = res.headers.get('content-type') ?? '';
  const blob = await res.blob();
  if (type.includes('application/json')) {
    const env = JSON.parse(await blob.text()) as { code: number; msg?: string; data?: unknown };
    handleEnvelope(env);
    if (env.code !== 200) return;
  }
  saveBlob(blob, fileNameFrom(res, fallbackName));
}

async function run(task: () => Promise<void>) {
  try {
    await task();
  } catch (err) {
    // Transport and envelope failures were already shown by the client.
    if (!(err instanceof ApiError)) feedback.message.error(i18n.t('request.downloadFailed'));
    throw err;
  }
}

/** POST an export request as JSON and save the file it streams back. */
export function downloadExport(ep: EndpointDef, body: unknown, fileNameHint: string): Promise<void> {
  return run(async () => {
    const res = await send(buildUrl(ep), {
      method: 'POST',
      headers: { ...authHeaders(), 'Content-Type': 'application/json' },
      body: JSON.stringify(body ?? {}),
    });
    await saveReply(res, fileNameHint);
  });
}

/** A form field's values: one string, or a list sent as the field repeated. */
export type FormFields = Record<string, string | readonly string[] | undefined>;

/**
 * Spec §7's other download: POST the fields form-encoded and save the blob that comes back (a JSON
 * reply is the envelope of a refusal, shown as such). For endpoints the contract marks `form`.
 */
export function downloadForm(ep: EndpointDef, fields: FormFields, fileNameHint: string): Promise<void> {
  return run(async () => {
    const body = new URLSearchParams();
    for (const [key, value] of Object.entries(fields)) {
      for (const v of typeof value === 'string' ? [value] : (value ?? [])) body.append(key, v);
    }
    const res = await send(buildUrl(ep), {
      method: 'POST',
      headers: { ...authHeaders(), 'Content-Type': 'application/x-www-form-urlencoded;charset=UTF-8' },
      body: body.toString(),
    });
    await saveReply(res, fileNameHint);
  });
}

/** Several stored files (a station's images, sheets kept as files) in one zip the server streams. */
export function downloadZip(fileNames: readonly string[], name?: string): Promise<void> {
  return downloadForm(commonApi.downloadZip, { fileNames, name }, `${name || 'files'}.zip`);
}

/**
 * A file the server prepared (spec §7's download): GET /common/download, or, when it is to be deleted
 * once fetched, the same path as a POST, which the server accepts only with the header token.
 */
export function downloadFile(fileName: string, del = false): Promise<void> {
  return run(async () => {
    const res = del
      ? await send(buildUrl(commonApi.downloadByPost), {
          method: 'POST',
          headers: { ...authHeaders(), 'Content-Type': 'application/json' },
          body: JSON.stringify({ fileName, delete: true }),
        })
      : await send(buildUrl(commonApi.download, undefined, { fileName }), { method: 'GET', headers: authHeaders() });
    await saveReply(res, fileName.split('/').pop() || fileName);
  });
}

/**
 * A file a GET endpoint of the contract streams (a firmware package), fetched with the session
 * header and saved under the name the server gives (`download-filename`). The file passes through
 * memory as a blob, as every download of this helper does.
 */
export function downloadGet(ep: EndpointDef, query: Record<string, unknown>, fileNameHint: string): Promise<void> {
  return run(async () => {
    const res = await send(buildUrl(ep, undefined, query), { method: 'GET', headers: authHeaders() });
    await saveReply(res, fileNameHint);
  });
}
