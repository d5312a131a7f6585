import { isExternal, uploadKinds, type UploadKindName } from '@csms/contract';
import { API_BASE } from '../api/client';

export type UploadKind = UploadKindName;

export interface UploadLimits {
  /** Most files the field holds. */
  limit: number;
  /** Largest file, in MB; 0 for no limit. */
  fileSize: number;
  /** Allowed extensions; empty for any. */
  fileType: readonly string[];
}

/** Widget defaults of spec §5 (a screen narrows them, e.g. station image: 1 file, 2 MB, jpg/png/gif). */
export const uploadDefaults: Record<UploadKind, UploadLimits> = {
  image: { limit: 5, fileSize: 5, fileType: ['png', 'jpg', 'jpeg'] },
  file: { limit: 5, fileSize: 5, fileType: ['doc', 'xls', 'ppt', 'txt', 'pdf'] },
  // A scanned paper: the server's rule for the kind, one file.
  scan: { limit: 1, fileSize: uploadKinds.scan.maxMb, fileType: uploadKinds.scan.types },
};

/** A refused file: a catalogue key of `upload.*` and its parameters. */
export interface UploadProblem {
  key: string;
  params: Record<string, unknown>;
}

/** Format and size checks before a file is sent (RuoYi's rules: `docx` passes for `doc`, the MIME type counts too). */
export function checkFile(
  kind: UploadKind,
  file: { name: string; size: number; type?: string },
  limits: UploadLimits,
): UploadProblem | null {
  if (limits.fileType.length > 0) {
    const ext = file.name.includes('.') ? (file.name.split('.').pop() ?? '').toLowerCase() : '';
    const mime = (file.type ?? '').toLowerCase();
    const ok = limits.fileType.some(
      (t) => (ext !== '' && ext.includes(t.toLowerCase())) || (kind === 'image' && mime.includes(t.toLowerCase())),
    );
    if (!ok) return { key: kind === 'image' ? 'upload.imageBadType' : 'upload.fileBadType', params: { types: limits.fileType.join('/') } };
  }
  if (limits.fileSize > 0 && file.size / 1024 / 1024 > limits.fileSize) {
    return { key: kind === 'image' ? 'upload.imageTooLarge' : 'upload.fileTooLarge', params: { n: limits.fileSize } };
  }
  return null;
}

/** Count check: files already held plus the ones being added. */
export function checkCount(held: number, adding: number, limit: number): UploadProblem | null {
  return held + adding > limit ? { key: 'upload.tooMany', params: { limit } } : null;
}

/** The field's value is a comma-separated list (RuoYi); arrays are accepted too. */
export function splitValue(value: string | readonly string[] | null | undefined): string[] {
  if (!value) return [];
  const list = typeof value === 'string' ? value.split(',') : [...value];
  return list.map((s) => s.trim()).filter(Boolean);
}

/** Where the browser fetches a stored value: absolute and rooted paths as they are, others below the API prefix. */
export function fileUrl(value: string): string {
  if (isExternal(value) || value.startsWith('/') || value.startsWith('blob:') || value.startsWith('data:')) return value;
  return `${API_BASE}/${value}`;
}

/** A readable name for a stored value; download links (`…?resource=a/b.pdf`) name the file in their query. */
export function baseName(value: string): string {
  const [path = '', qs = ''] = value.split('?');
  const params = new URLSearchParams(qs);
  const named = params.get('resource') ?? params.get('fileName') ?? path;
  try {
    return decodeURIComponent(named.split('/').pop() || value);
  } catch {
    return named.split('/').pop() || value;
  }
}

/** The stored file a field's value names (what downloads take): the `resource` of the server's own link, else the value. */
export function storedFileName(value: string): string {
  const [path = '', qs = ''] = value.split('?');
  if (!path.endsWith('/common/download/resource')) return value;
  return new URLSearchParams(qs).get('resource') ?? value;
}
