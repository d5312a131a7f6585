import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: two levels above this package (works from src/ and from dist/). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const serverRoot = path.join(repoRoot, 'packages/server');

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  natsUrl: string | undefined;
  adminPassword: string | undefined;
  captcha: boolean;
  sessionTtlHours: number;
  loginMaxAttempts: number;
  loginMaxAttemptsPerIp: number;
  loginLockMinutes: number;
  exportMaxRows: number;
  trustProxy: boolean;
  logLevel: string;
  appDownloadUrl: string;
  mapTileUrl: string;
  /** URL that system messages with the SMS flag are POSTed to as JSON; none: the console says SMS is off. */
  smsWebhook: string | undefined;
  /** Built console to serve; absent in API-only tests. */
  webDist: string | undefined;
}

function bool(v: string | undefined, dflt: boolean): boolean {
  if (v === undefined || v === '') return dflt;
  return !/^(0|false|no|off)$/i.test(v);
}

function int(name: string, v: string | undefined, dflt: number): number {
  if (v === undefined || v === '') return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${v}"`);
  return n;
}

/** Configuration from the environment; every name and default is in the README. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const dataDir = path.resolve(env.CSMS_DATA_DIR || path.join(repoRoot, 'data'));
  return {
    port: int('PORT', env.PORT, 8080),
    host: env.HOST || '0.0.0.0',
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    natsUrl: env.NATS_URL || undefined,
    adminPassword: env.CSMS_ADMIN_PASSWORD || undefined,
    captcha: bool(env.CSMS_CAPTCHA, true),
    sessionTtlHours: int('CSMS_SESSION_TTL_HOURS', env.CSMS_SESSION_TTL_HOURS, 24),
    loginMaxAttempts: int('CSMS_LOGIN_MAX_ATTEMPTS', env.CSMS_LOGIN_MAX_ATTEMPTS, 5),
    loginMaxAttemptsPerIp: int('CSMS_LOGIN_MAX_ATTEMPTS_PER_IP', env.CSMS_LOGIN_MAX_ATTEMPTS_PER_IP, 30),
    loginLockMinutes: int('CSMS_LOGIN_LOCK_MINUTES', env.CSMS_LOGIN_LOCK_MINUTES, 15),
    exportMaxRows: int('CSMS_EXPORT_MAX_ROWS', env.CSMS_EXPORT_MAX_ROWS, 200_000),
    trustProxy: bool(env.CSMS_TRUST_PROXY, false),
    logLevel: env.CSMS_LOG_LEVEL || 'info',
    appDownloadUrl: env.CSMS_APP_DOWNLOAD_URL || '',
    mapTileUrl: env.CSMS_MAP_TILE_URL || '',
    smsWebhook: env.CSMS_SMS_WEBHOOK || undefined,
    webDist: env.CSMS_WEB_DIST ?? path.join(repoRoot, 'packages/web/dist'),
    ...overrides,
  };
}
