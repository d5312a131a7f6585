import { randomUUID } from 'node:crypto';
import { eq, lt, sql } from 'drizzle-orm';
import svgCaptcha from 'svg-captcha';
import type { Db } from '../../db/client.js';
import { captcha } from '../../db/schema.js';

const TTL_MS = 2 * 60_000;

/** Captcha answers live in the database (any node may receive the sign-in) and are single-use. */
export function createCaptchaService({ db }: { db: Db }) {
  return {
    async issue(): Promise<{ uuid: string; img: string }> {
      const c = svgCaptcha.create({ size: 4, noise: 2, ignoreChars: '0oO1iIlL', color: true, background: '#f4f7f6' });
      const uuid = randomUUID();
      await db.delete(captcha).where(lt(captcha.expiresAt, sql`now()`));
      await db.insert(captcha).values({ uuid, answer: c.text.toLowerCase(), expiresAt: new Date(Date.now() + TTL_MS) });
      return { uuid, img: Buffer.from(c.data).toString('base64') };
    },
    /** 'ok', 'wrong' or 'expired'; the answer is consumed either way. */
    async check(uuid: string, code: string): Promise<'ok' | 'wrong' | 'expired'> {
      const [row] = await db.delete(captcha).where(eq(captcha.uuid, uuid)).returning();
      if (!row || row.expiresAt.getTime() < Date.now()) return 'expired';
      return row.answer === code.trim().toLowerCase() ? 'ok' : 'wrong';
    },
  };
}
