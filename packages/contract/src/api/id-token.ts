import { z } from 'zod';

/** OCPP 1.6 CiString: printable ASCII only (space to tilde). */
const PRINTABLE_ASCII = /^[\x20-\x7E]*$/;

/**
 * An OCPP 1.6 `IdToken` (CiString20): the charger's idTag, a card's physical id. Trimmed, 1 to 20
 * printable ASCII characters, kept as issued (the charger gets it so); compared without regard to
 * case wherever it is looked up (DESIGN.md §9).
 */
export const idToken = z
  .string()
  .trim()
  .min(1)
  .max(20)
  .refine((s) => PRINTABLE_ASCII.test(s), { message: 'validation.idToken' });
