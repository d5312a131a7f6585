/**
 * Whether JSON text may hold an escape of text PostgreSQL cannot store (`\u0000`, a UTF-16 surrogate
 * half): a cheap test on a raw frame, so that the contract's `findBadText` walks only the payloads that
 * may hold one (false positives cost only that walk). Raw bytes cannot produce such text: a raw
 * control character is not JSON, and invalid UTF-8 decodes to U+FFFD.
 */
export const mayHoldBadText = (json: string) => /\\u(?:0000|[dD][89a-fA-F])/.test(json);
