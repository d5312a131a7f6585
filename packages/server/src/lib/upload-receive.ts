import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fieldLabel, hasBadText, type Lang } from '@csms/contract';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/client.js';
import { storedFile } from '../db/schema.js';
import { badField } from '../http/errors.js';
import { sniffUpload } from './stored-files.js';

export interface UploadRule {
  maxMb: number;
  types: readonly string[];
  /** The message key of a wrong type. */
  badTypeKey: string;
}

/**
 * Receive the multipart field `file` of a request into `uploadDir` under a new unguessable name and
 * record it in `stored_file`: the console's upload and the public application form's licence image
 * share it. Written aside and moved into place only once its bytes passed: a refused or broken upload
 * leaves nothing. `owner` is who the file belongs to (a signed-out applicant's has no uploader).
 */
export async function receiveUpload(
  deps: { db: Db; uploadDir: string },
  req: FastifyRequest,
  lang: Lang,
  rule: UploadRule,
  owner: { providerId: number | null; uploadedBy: number | null },
  onName?: (originalName: string) => void,
): Promise<{ fileName: string; originalName: string }> {
  const badType = () => badField('file', rule.badTypeKey, { types: rule.types.join('/') });
  if (!req.isMultipart()) throw badField('file', 'errors.upload.missing');
  const part = await req.file({ limits: { fileSize: rule.maxMb * 1024 * 1024, files: 1 } });
  if (!part) throw badField('file', 'errors.upload.missing');
  const originalName = path.basename(part.filename).slice(0, 255);
  if (hasBadText(originalName)) {
    part.file.resume();
    throw badField('file', 'validation.badCharacter', { field: fieldLabel(lang, 'upload', 'file') });
  }
  onName?.(originalName);
  const ext = path.extname(originalName).slice(1).toLowerCase();
  if (!rule.types.includes(ext)) {
    part.file.resume();
    throw badType();
  }
  const day = new Date().toISOString().slice(0, 10).replace(/-/g, '/');
  const fileName = `${day}/${randomUUID()}.${ext}`;
  const full = path.join(deps.uploadDir, fileName);
  const incoming = path.join(deps.uploadDir, '.incoming', randomUUID());
  await fs.promises.mkdir(path.dirname(incoming), { recursive: true });
  try {
    await pipeline(part.file, fs.createWriteStream(incoming));
    if (part.file.truncated) throw badField('file', 'errors.upload.tooLarge', { n: rule.maxMb });
    const mime = await sniffUpload(incoming, ext);
    if (!mime) throw badType();
    const { size } = await fs.promises.stat(incoming);
    await fs.promises.mkdir(path.dirname(full), { recursive: true });
    await fs.promises.rename(incoming, full);
    await deps.db
      .insert(storedFile)
      .values({ ...owner, fileName, originalName, mime, sizeBytes: size })
      .catch(async (err: unknown) => {
        await fs.promises.rm(full, { force: true });
        throw err;
      });
  } finally {
    await fs.promises.rm(incoming, { force: true });
  }
  return { fileName, originalName };
}
