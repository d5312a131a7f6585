/**
 * What the server's settings check needs (`packages/server/src/config.ts`), without zod or the
 * endpoints' schemas: the server loads this entry before it opens its database and the rest of the
 * contract while the database opens (`@csms/contract/settings`).
 */
export { isTimeZone } from './zone-time.js';
export { passwordClasses, passwordMaxLength, passwordMinLength, type PasswordClass } from './password-limits.js';
