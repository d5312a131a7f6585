import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Charge points' OCPP keys (security profiles 1 and 2, HTTP Basic password). Keys are high
 * entropy, so a salted SHA-256 is enough and keeps ten thousand reconnects within seconds
 * (DESIGN.md §5); argon2id is for people's passwords.
 */

/** 20 random bytes as 40 hex characters: within OCPP 1.6's AuthorizationKey limits (16–40 bytes). */
export function generateOcppKey(): string {
  return randomBytes(20).toString('hex');
}

const digest = (salt: string, key: string) => createHash('sha256').update(salt).update(':').update(key).digest('hex');

/** `salt:hex`, what `charge_point.ocpp_key_hash` stores. */
export function hashOcppKey(key: string): string {
  const salt = randomBytes(16).toString('hex');
  return `${salt}:${digest(salt, key)}`;
}

export function verifyOcppKey(key: string, stored: string | null | undefined): boolean {
  if (!stored) return false;
  const [salt, hex] = stored.split(':');
  if (!salt || !hex) return false;
  const expected = Buffer.from(hex, 'hex');
  const actual = Buffer.from(digest(salt, key), 'hex');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
