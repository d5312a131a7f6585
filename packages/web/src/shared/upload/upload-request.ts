import { commonApi } from '@csms/contract';
import { authHeaders, buildUrl, handleEnvelope, send } from '../api/client';
import type { UploadKind } from './rules';

export interface UploadReply {
  fileName: string;
  url: string;
  originalName: string;
}

/** Thrown when the file never reached the server (network, timeout, HTTP status): the widget says "upload failed, retry". */
export class UploadTransportError extends Error {}

/**
 * POST one file as multipart field `file` to /common/upload. A reply whose code is not 200
 * shows its msg (client's envelope handling) and rejects with ApiError.
 */
export async function uploadFile(kind: UploadKind, file: Blob): Promise<UploadReply> {
  const body = new FormData();
  body.append('file', file);
  let res: Response;
  try {
    res = await send(buildUrl(commonApi.upload, undefined, { kind }), { method: 'POST', headers: authHeaders(), body }, { silent: true });
  } catch (err) {
    throw new UploadTransportError(String(err));
  }
  let reply: { code: number; msg?: string } & Partial<UploadReply>;
  try {
    reply = (await res.json()) as typeof reply;
  } catch (err) {
    throw new UploadTransportError(String(err));
  }
  handleEnvelope(reply);
  return { fileName: reply.fileName ?? '', url: reply.url ?? '', originalName: reply.originalName ?? '' };
}
