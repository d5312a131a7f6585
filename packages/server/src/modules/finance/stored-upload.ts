import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { corporateTransfer, invoice, storedFile } from '../../db/schema.js';
import type { Principal } from '../../http/context.js';
import { canSeeProvider } from '../../lib/scope.js';
import { storedType } from '../../lib/stored-files.js';

/** An upload of this server the caller may see (its provider's, or one of no provider), with its stored type. */
export async function visibleUpload(db: Db, p: Principal, fileName: string) {
  const [row] = await db.select().from(storedFile).where(eq(storedFile.fileName, fileName)).limit(1);
  if (!row || (row.providerId !== null && !canSeeProvider(p, row.providerId))) return undefined;
  return { ...row, type: storedType(row) };
}

/** Whether an invoice (its issued PDF) or a transfer (its receipt) names the file: such a file is kept. */
export async function financeHolds(db: Db, fileName: string): Promise<boolean> {
  const [i] = await db.select({ id: invoice.id }).from(invoice).where(eq(invoice.fileName, fileName)).limit(1);
  if (i) return true;
  const [t] = await db
    .select({ id: corporateTransfer.id })
    .from(corporateTransfer)
    .where(eq(corporateTransfer.receiptFile, fileName))
    .limit(1);
  return t !== undefined;
}
