/** How a keyboard-wedge reader prints the UID: hex digits, or the UID bytes read as one decimal number. */
export type WedgeFormat = 'hex' | 'dec' | 'dec-le';
export const wedgeFormats: readonly WedgeFormat[] = ['hex', 'dec', 'dec-le'];

/** ISO 14443 UIDs are 4, 7 or 10 bytes; anything 4 to 10 whole bytes is accepted (OCPP idTag ≤ 20 characters). */
const UID = /^(?:[0-9A-F]{2}){4,10}$/;
const UID_LENGTHS = [8, 14, 20];

/**
 * The UID as the console stores it: upper-case hex without separators, e.g. "04A1B2C3".
 * `dec` reads the line as a big-endian number, `dec-le` as a little-endian one (readers that
 * print the first UID byte last). Returns null for anything that is not a UID.
 */
export function normaliseUid(raw: string, format: WedgeFormat = 'hex'): string | null {
  const text = raw.trim().replace(/[\s:.-]/g, '');
  let hex: string;
  if (format === 'hex') {
    hex = text.toUpperCase().replace(/^0X/, '');
  } else {
    if (!/^\d{1,25}$/.test(text)) return null;
    hex = BigInt(text).toString(16).toUpperCase();
    const length = UID_LENGTHS.find((n) => n >= hex.length);
    if (length === undefined) return null;
    hex = hex.padStart(length, '0');
    if (format === 'dec-le') hex = (hex.match(/../g) ?? []).reverse().join('');
  }
  return UID.test(hex) ? hex : null;
}
