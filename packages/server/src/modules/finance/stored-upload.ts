import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { storedFile } from '../../db/schema.js';
import type { Principal } from '../../http/context.js';
import { canSeeProvider } from '../../lib/scope.js';
import { storedType } from '../../lib/stored-files.js';

/** An upload of this server the caller may see (its provider's, or one of no provider), with its stored type. */
export async function visibleUpload(db: Db, p: Principal, fileName: string) {
  const [row] = await db.select().from(storedFile).where(eq(storedFile.fileName, fileName)).limit(1);
  if (!row || (row.providerId !== null && !canSeeProvider(p, row.providerId))) return undefined;
  return { ...row, type: storedType(row) };
}
