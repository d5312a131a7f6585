import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { storedFile } from '../db/schema.js';
import type { Principal } from '../http/context.js';
import { badField } from '../http/errors.js';
import { API_PREFIX } from '../http/mount.js';
import { canSeeProvider } from './scope.js';
import { IMAGE_TYPES, storedType } from './stored-files.js';

/** What the upload endpoint names a file (`2025/01/31/<uuid>.png`). */
const STORED_NAME = /^\d{4}\/\d{2}\/\d{2}\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.[a-z]{3,4}$/;
/** The `url` of an upload reply, which the console's image widgets keep as the field's value. */
const RESOURCE_URL = `${API_PREFIX}/common/download/resource?resource=`;

/** The stored file an image field names: its bare name or the server's own resource URL for it; never another URL. */
export function storedFileNameOf(value: string): string | null {
  let name = value;
  if (value.startsWith(RESOURCE_URL)) {
    const query = new URLSearchParams(value.slice(value.indexOf('?') + 1));
    if ([...query.keys()].length !== 1) return null;
    name = query.get('resource') ?? '';
  }
  return STORED_NAME.test(name) ? name : null;
}

export interface ImageField {
  /** Field named in the 400. */
  field: string;
  /** Vocabulary key of the message (it names the field and the rule). */
  key: string;
  maxMb?: number;
  /** More parameters of the message (the field's label). */
  params?: Record<string, unknown>;
}

/**
 * Image fields (avatars, provider logos, station pictures) hold only images this server stored and
 * the caller may see: never a URL, which the console would make every viewer's browser fetch.
 */
export function createStoredImages({ db }: { db: Db }) {
  return {
    /** Empty is fine (the field is cleared); anything else must be such an image, or 400 naming the field. */
    async check(p: Principal, value: string | null | undefined, rule: ImageField): Promise<void> {
      if (!value) return;
      const refuse = () => badField(rule.field, rule.key, { n: rule.maxMb ?? 0, ...rule.params });
      const name = storedFileNameOf(value);
      if (!name) throw refuse();
      const [file] = await db.select().from(storedFile).where(eq(storedFile.fileName, name)).limit(1);
      if (!file || (file.providerId !== null && !canSeeProvider(p, file.providerId))) throw refuse();
      if (!IMAGE_TYPES.has(storedType(file))) throw refuse();
      if (rule.maxMb !== undefined && file.sizeBytes > rule.maxMb * 1024 * 1024) throw refuse();
    },
    /** A stored image by its name, unscoped: for public pages that have already checked the text naming it. */
    async find(name: string) {
      const [file] = await db.select().from(storedFile).where(eq(storedFile.fileName, name)).limit(1);
      return file && IMAGE_TYPES.has(storedType(file)) ? file : undefined;
    },
  };
}

export type StoredImages = ReturnType<typeof createStoredImages>;
