import { randomUUID } from 'node:crypto';
import { eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { captcha } from '../../db/schema.js';
import { drawCaptcha } from './captcha-image.js';

const TTL_MS = 2 * 60_000;

/** Captcha answers live in the database (any node may receive the sign-in) and are single-use. */
export function createCaptchaService({ db }: { db: Db }) {
  return {
    /** `img` is the PNG in base64 (the spec's shape: the console prefixes the data-URL header). */
    async issue(): Promise<{ uuid: string; img: string }> {
      const { answer, png } = await drawCaptcha();
      const uuid = randomUUID();
      await db.delete(captcha).where(lt(captcha.expiresAt, sql`now()`));
      await db.insert(captcha).values({ uuid, answer, expiresAt: new Date(Date.now() + TTL_MS) });
      return { uuid, img: png.toString('base64') };
    },
    /** 'ok', 'wrong' or 'expired'; the answer is consumed either way. */
    async check(uuid: string, code: string): Promise<'ok' | 'wrong' | 'expired'> {
      const [row] = await db.delete(captcha).where(eq(captcha.uuid, uuid)).returning();
      if (!row || row.expiresAt.getTime() < Date.now()) return 'expired';
      return row.answer === code.trim().toLowerCase() ? 'ok' : 'wrong';
    },
  };
}
