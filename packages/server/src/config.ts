import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PasswordPolicy } from '@csms/contract';
import { isTimeZone, passwordClasses, passwordMaxLength, passwordMinLength, type PasswordClass } from '@csms/contract/settings';
import { DEFAULT_PGLITE_CACHE_MB } from './db/pglite-cache.js';
import { parseOutboundAllow, type OutboundAllowEntry } from './lib/outbound.js';
import { parseTrustProxy, type TrustProxy } from './lib/trust-proxy.js';

/** The repository root: two levels above this package (works from src/ and from dist/). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const serverRoot = path.join(repoRoot, 'packages/server');

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /**
   * The address chargers reach this server by (`CSMS_PUBLIC_URL`, e.g. `https://csms.example.com`), which the URLs of the files
   * they fetch (firmware) start with; absent: the host of the operator's request that made the job.
   */
  publicUrl: string | undefined;
  /**
   * The embedded FTP server chargers upload diagnostics to and may fetch firmware from (`CSMS_FTP_PORT`; absent: off),
   * its passive data ports (`CSMS_FTP_PASV_PORTS`, `min-max`) and the host chargers reach it by (`CSMS_FTP_HOST`,
   * default the host of CSMS_PUBLIC_URL, else of the operator's request).
   */
  ftp: { port: number; pasvMin: number; pasvMax: number; host: string | undefined } | undefined;
  databaseUrl: string | undefined;
  /** The embedded database's page cache in MB (`CSMS_PGLITE_CACHE_MB`, PostgreSQL's shared_buffers inside PGlite). */
  pgliteCacheMb: number;
  /**
   * Seconds between two ticks of the embedded database's vacuum and analyze, each running at most one
   * statement (`CSMS_PGLITE_VACUUM_SECONDS`, default 5; 0: off): PGlite runs no autovacuum of its own
   * (src/db/pglite-maintenance.ts).
   */
  pgliteVacuumSeconds: number;
  /** Statements sent again and again prepared on the database server (`CSMS_DB_NAMED_STATEMENTS`, default on; src/db/named-statements.ts). */
  namedStatements: boolean;
  natsUrl: string | undefined;
  /** First token of every NATS subject (`CSMS_NATS_SUBJECT_PREFIX`), so deployments can share one NATS. */
  natsSubjectPrefix: string;
  /** This node's name among several (`CSMS_NODE_ID`, default host:port): the owner of the chargers it holds. */
  nodeId: string;
  /** Server processes on this machine sharing the ports (`CSMS_WORKERS`: a count, or `auto` for the cores). */
  workers: number;
  adminPassword: string | undefined;
  /** Operators' passwords (`CSMS_PASSWORD_MIN_LENGTH`, `CSMS_PASSWORD_CLASSES`); the most common ones are refused whatever it says. */
  passwordPolicy: PasswordPolicy;
  captcha: boolean;
  /** Captcha images one client IP may fetch per minute (`CSMS_CAPTCHA_MAX_PER_IP`). */
  captchaMaxPerIp: number;
  sessionTtlHours: number;
  loginMaxAttempts: number;
  loginMaxAttemptsPerIp: number;
  loginLockMinutes: number;
  /** Applications (issue 21) from one client IP per hour, and for one e-mail per day; licence uploads per IP per hour. */
  applyMaxPerIp: number;
  applyMaxPerEmail: number;
  applyMaxUploadsPerIp: number;
  exportMaxRows: number;
  /** Proxies believed about the client's address (lib/trust-proxy.ts). */
  trustProxy: TrustProxy;
  logLevel: string;
  appDownloadUrl: string;
  mapTileUrl: string;
  /**
   * The SMS gateway (`CSMS_SMS_WEBHOOK_URL`, or its older name `CSMS_SMS_WEBHOOK`): system messages with the SMS flag
   * and issued invoices asking for SMS are POSTed to it as JSON; none: the console says SMS is off.
   */
  smsWebhook: string | undefined;
  /** Sent as `Authorization: Bearer …` with every SMS webhook call (`CSMS_SMS_WEBHOOK_TOKEN`). */
  smsWebhookToken: string | undefined;
  /** How long one SMS webhook call may take (ms). */
  smsTimeoutMs: number;
  /** Internal hosts (`host[:port]`) an operator's SMTP setting may still reach (`CSMS_OUTBOUND_ALLOW`). */
  outboundAllow: OutboundAllowEntry[];
  /** Loopback port of the card reader companion the console connects to (`csms.reader.port`). */
  readerPort: number;
  /** IANA time zone a new station gets unless one is chosen (`CSMS_TIME_ZONE`). */
  timeZone: string;
  /** Demo provider with simulated chargers in this process (`npm start` turns it on). */
  demo: boolean;
  /** Built console to serve; absent in API-only tests. */
  webDist: string | undefined;
  /** OCPP central system (README "OCPP"). */
  ocpp: OcppConfig;
  /** How often an open event stream is pinged and its session checked (ms); not an environment setting (tests shorten it). */
  eventStreamPingMs: number;
  /**
   * How often each node brings the local lists of the points it holds up to date, for providers with
   * automatic local list sync (`CSMS_LOCAL_LIST_SYNC_SECONDS`); 0 turns the sweep off.
   */
  localListSyncMs: number;
  /**
   * The forecast service (`CSMS_WEATHER_URL`): base URL of an Open-Meteo-compatible API such as
   * `https://api.open-meteo.com/v1/forecast`; absent: the feed is off and warnings are entered by hand.
   * Set by the administrator only (never through the API), so it does not go through the outbound guard.
   */
  weatherUrl: string | undefined;
  /** Hours between two fetches (`CSMS_WEATHER_REFRESH_HOURS`, 1–24, default 3). */
  weatherRefreshHours: number;
  /** How long one forecast request may take (ms); not an environment setting (tests shorten it). */
  weatherTimeoutMs: number;
  /** How often each node asks the job queue for due work (timed charging, reservation expiry), seconds; a job runs at most that late. */
  jobPollSeconds: number;
}

export interface OcppConfig {
  /** Heartbeat interval told to chargers at boot (s); also the WebSocket ping period, and 2× it the silence that counts as offline. */
  heartbeatIntervalSec: number;
  /** How long an operator command waits for the charger's answer by default (s). */
  callTimeoutSec: number;
  /** Largest frame handled; a larger one gets a CALLERROR (or close 1009 when its id cannot be read). */
  maxFrameBytes: number;
  /** Security profile 0: points without a key connect without credentials. */
  allowNoAuth: boolean;
  /** Register unknown identities into the "Unassigned" station instead of refusing them. */
  autoRegister: boolean;
  /** Provider id auto-registered points join; default the super provider. */
  autoRegisterProvider: number | undefined;
  /**
   * A point waiting for placement (auto-registered, not yet in a station of its own) gets BootNotification
   * Pending, so that it runs no sessions in the "Unassigned" station; placing it sends TriggerMessage BootNotification.
   */
  pendingUntilPlaced: boolean;
  /** Security profile 2: PEM certificate and key paths; both set turns on the TLS listener. */
  tlsCert: string | undefined;
  tlsKey: string | undefined;
  tlsPort: number;
  /**
   * Failed connection attempts (unknown identity, wrong key…) counted per identity and per source
   * address in the database; reaching a limit within `connectLockSeconds` refuses that identity or
   * address with 429 for `connectLockSeconds` (README "OCPP connection attempts").
   */
  connectMaxFailures: number;
  connectMaxFailuresPerIp: number;
  connectLockSeconds: number;
  /** A card needs more than zero and at least this balance to start (DESIGN.md §9). */
  minBalanceCents: number;
  /**
   * The group id of master passes (OCPP 2.0.1 C16): what Authorize answers as a master pass card's
   * groupIdToken (its parentIdTag to a 1.6 charger). Chargers recognise it by their
   * `AuthCtrlr.MasterPassGroupId`, which must be set to the same value.
   */
  masterPassGroupId: string;
  /**
   * After this many new charger connections (and at least half of those held), one compacting garbage
   * collection once they stop coming for `compactSettleMs` (`CSMS_OCPP_COMPACT_AFTER_CONNECTIONS`,
   * default 1,000; 0: never): gives back the memory a connect storm's garbage leaves committed, for one
   * pause (src/lib/heap-compaction.ts).
   */
  compactAfterConnections: number;
  /** Quiet time after a storm's last connection before that collection (ms); not an environment setting (tests shorten it). */
  compactSettleMs: number;
}

/** An id both an OCPP 1.6 parentIdTag and a 2.0.1 idToken can carry: at most 20 characters. */
function masterPassGroupId(v: string | undefined): string {
  const id = (v ?? '').trim() || 'MasterPass';
  if (id.length > 20 || !/^[\x21-\x7e]+$/.test(id))
    throw new Error(`CSMS_OCPP_MASTER_PASS_GROUP_ID must be 1 to 20 printable ASCII characters without spaces, got "${id}"`);
  return id;
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

function workers(v: string | undefined): number {
  if (!v) return 1;
  if (v === 'auto') return os.availableParallelism();
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 256) throw new Error(`CSMS_WORKERS must be a count from 1 to 256 or "auto", got "${v}"`);
  return n;
}

function natsToken(name: string, v: string): string {
  if (!/^[A-Za-z0-9_-]+$/.test(v)) throw new Error(`${name} must be letters, digits, '-' or '_', got "${v}"`);
  return v;
}

/**
 * `CSMS_PASSWORD_CLASSES`: empty (no class needed), a count `1`…`4` (that many of lower, upper,
 * digit, symbol) or a comma-separated list of those names (each one needed).
 */
function passwordPolicy(minLength: string | undefined, classes: string | undefined): PasswordPolicy {
  const min = int('CSMS_PASSWORD_MIN_LENGTH', minLength, passwordMinLength);
  if (min < passwordMinLength || min > passwordMaxLength) {
    throw new Error(`CSMS_PASSWORD_MIN_LENGTH must be between ${passwordMinLength} and ${passwordMaxLength}, got "${minLength}"`);
  }
  const v = (classes ?? '').trim().toLowerCase();
  if (v === '' || v === '0') return { minLength: min, classes: [], minClasses: 0 };
  if (/^[1-4]$/.test(v)) return { minLength: min, classes: [...passwordClasses], minClasses: Number(v) };
  const names = v.split(',').map((x) => x.trim());
  const known = (x: string): x is PasswordClass => (passwordClasses as readonly string[]).includes(x);
  if (!names.every(known) || new Set(names).size !== names.length) {
    throw new Error(
      `CSMS_PASSWORD_CLASSES must be a count 1-4 or a comma-separated list of ${passwordClasses.join(', ')} without repeats, got "${classes}"`,
    );
  }
  return { minLength: min, classes: names, minClasses: names.length };
}

function weatherUrl(v: string | undefined): string | undefined {
  if (!v) return undefined;
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new Error(`CSMS_WEATHER_URL must be an http(s) URL such as https://api.open-meteo.com/v1/forecast, got "${v}"`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error(`CSMS_WEATHER_URL must be an http(s) URL, got "${v}"`);
  return v;
}

/** `CSMS_SMS_WEBHOOK_URL`, or the older `CSMS_SMS_WEBHOOK`: one gateway, so two different URLs are a mistake. */
function smsWebhook(url: string | undefined, older: string | undefined): string | undefined {
  if (url && older && url !== older) throw new Error('CSMS_SMS_WEBHOOK_URL and CSMS_SMS_WEBHOOK name different URLs: set one of them');
  const v = url || older;
  if (!v) return undefined;
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new Error(`CSMS_SMS_WEBHOOK_URL must be an http(s) URL, got "${v}"`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error(`CSMS_SMS_WEBHOOK_URL must be an http(s) URL, got "${v}"`);
  return v;
}

/** The zone days are cut in when `CSMS_TIME_ZONE` is not set (the build's PGlite template is made for it). */
export const DEFAULT_TIME_ZONE = 'Asia/Shanghai';

/** Configuration from the environment; every name and default is in the README. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const dataDir = path.resolve(env.CSMS_DATA_DIR || path.join(repoRoot, 'data'));
  const timeZone = env.CSMS_TIME_ZONE || DEFAULT_TIME_ZONE;
  if (!isTimeZone(timeZone)) throw new Error(`CSMS_TIME_ZONE must be an IANA time zone such as Asia/Shanghai, got "${timeZone}"`);
  return {
    port: int('PORT', env.PORT, 8080),
    host: env.HOST || '0.0.0.0',
    dataDir,
    publicUrl: env.CSMS_PUBLIC_URL ? env.CSMS_PUBLIC_URL.replace(/\/+$/, '') : undefined,
    ftp: env.CSMS_FTP_PORT
      ? {
          port: int('CSMS_FTP_PORT', env.CSMS_FTP_PORT, 2121),
          pasvMin: Number((env.CSMS_FTP_PASV_PORTS ?? '30000-30049').split('-')[0]),
          pasvMax: Number((env.CSMS_FTP_PASV_PORTS ?? '30000-30049').split('-')[1]),
          host: env.CSMS_FTP_HOST || undefined,
        }
      : undefined,
    databaseUrl: env.DATABASE_URL || undefined,
    pgliteCacheMb: Math.min(4096, Math.max(1, int('CSMS_PGLITE_CACHE_MB', env.CSMS_PGLITE_CACHE_MB, DEFAULT_PGLITE_CACHE_MB))),
    pgliteVacuumSeconds: Math.max(0, int('CSMS_PGLITE_VACUUM_SECONDS', env.CSMS_PGLITE_VACUUM_SECONDS, 5)),
    namedStatements: bool(env.CSMS_DB_NAMED_STATEMENTS, true),
    natsUrl: env.NATS_URL || undefined,
    natsSubjectPrefix: natsToken('CSMS_NATS_SUBJECT_PREFIX', env.CSMS_NATS_SUBJECT_PREFIX || 'csms'),
    nodeId: (env.CSMS_NODE_ID || `${os.hostname()}:${env.PORT || 8080}`).slice(0, 128),
    workers: workers(env.CSMS_WORKERS),
    adminPassword: env.CSMS_ADMIN_PASSWORD || undefined,
    passwordPolicy: passwordPolicy(env.CSMS_PASSWORD_MIN_LENGTH, env.CSMS_PASSWORD_CLASSES),
    captcha: bool(env.CSMS_CAPTCHA, true),
    captchaMaxPerIp: int('CSMS_CAPTCHA_MAX_PER_IP', env.CSMS_CAPTCHA_MAX_PER_IP, 60),
    sessionTtlHours: int('CSMS_SESSION_TTL_HOURS', env.CSMS_SESSION_TTL_HOURS, 24),
    loginMaxAttempts: int('CSMS_LOGIN_MAX_ATTEMPTS', env.CSMS_LOGIN_MAX_ATTEMPTS, 5),
    loginMaxAttemptsPerIp: int('CSMS_LOGIN_MAX_ATTEMPTS_PER_IP', env.CSMS_LOGIN_MAX_ATTEMPTS_PER_IP, 30),
    loginLockMinutes: int('CSMS_LOGIN_LOCK_MINUTES', env.CSMS_LOGIN_LOCK_MINUTES, 15),
    applyMaxPerIp: int('CSMS_APPLY_MAX_PER_IP', env.CSMS_APPLY_MAX_PER_IP, 5),
    applyMaxPerEmail: int('CSMS_APPLY_MAX_PER_EMAIL', env.CSMS_APPLY_MAX_PER_EMAIL, 3),
    applyMaxUploadsPerIp: int('CSMS_APPLY_MAX_UPLOADS_PER_IP', env.CSMS_APPLY_MAX_UPLOADS_PER_IP, 20),
    exportMaxRows: int('CSMS_EXPORT_MAX_ROWS', env.CSMS_EXPORT_MAX_ROWS, 200_000),
    trustProxy: parseTrustProxy(env.CSMS_TRUST_PROXY),
    logLevel: env.CSMS_LOG_LEVEL || 'info',
    appDownloadUrl: env.CSMS_APP_DOWNLOAD_URL || '',
    mapTileUrl: env.CSMS_MAP_TILE_URL || '',
    smsWebhook: smsWebhook(env.CSMS_SMS_WEBHOOK_URL, env.CSMS_SMS_WEBHOOK),
    smsWebhookToken: env.CSMS_SMS_WEBHOOK_TOKEN || undefined,
    smsTimeoutMs: 10_000,
    outboundAllow: parseOutboundAllow(env.CSMS_OUTBOUND_ALLOW),
    readerPort: int('CSMS_READER_PORT', env.CSMS_READER_PORT, 8989),
    timeZone,
    demo: bool(env.CSMS_DEMO, false),
    webDist: env.CSMS_WEB_DIST ?? path.join(repoRoot, 'packages/web/dist'),
    eventStreamPingMs: 25_000,
    localListSyncMs: Math.max(0, int('CSMS_LOCAL_LIST_SYNC_SECONDS', env.CSMS_LOCAL_LIST_SYNC_SECONDS, 30)) * 1000,
    jobPollSeconds: 2,
    weatherUrl: weatherUrl(env.CSMS_WEATHER_URL),
    weatherRefreshHours: Math.min(24, Math.max(1, int('CSMS_WEATHER_REFRESH_HOURS', env.CSMS_WEATHER_REFRESH_HOURS, 3))),
    weatherTimeoutMs: 10_000,
    ocpp: {
      heartbeatIntervalSec: Math.max(1, int('CSMS_OCPP_HEARTBEAT_INTERVAL', env.CSMS_OCPP_HEARTBEAT_INTERVAL, 300)),
      callTimeoutSec: Math.max(1, int('CSMS_OCPP_CALL_TIMEOUT', env.CSMS_OCPP_CALL_TIMEOUT, 30)),
      maxFrameBytes: Math.max(1024, int('CSMS_OCPP_MAX_FRAME_BYTES', env.CSMS_OCPP_MAX_FRAME_BYTES, 64 * 1024)),
      allowNoAuth: bool(env.CSMS_OCPP_ALLOW_NO_AUTH, false),
      autoRegister: bool(env.CSMS_OCPP_AUTO_REGISTER, false),
      pendingUntilPlaced: bool(env.CSMS_OCPP_PENDING_UNTIL_PLACED, true),
      autoRegisterProvider: env.CSMS_OCPP_AUTO_REGISTER_PROVIDER
        ? int('CSMS_OCPP_AUTO_REGISTER_PROVIDER', env.CSMS_OCPP_AUTO_REGISTER_PROVIDER, 0)
        : undefined,
      tlsCert: env.CSMS_OCPP_TLS_CERT || undefined,
      tlsKey: env.CSMS_OCPP_TLS_KEY || undefined,
      tlsPort: int('CSMS_OCPP_TLS_PORT', env.CSMS_OCPP_TLS_PORT, 8443),
      connectMaxFailures: Math.max(1, int('CSMS_OCPP_CONNECT_MAX_FAILURES', env.CSMS_OCPP_CONNECT_MAX_FAILURES, 10)),
      connectMaxFailuresPerIp: Math.max(1, int('CSMS_OCPP_CONNECT_MAX_FAILURES_PER_IP', env.CSMS_OCPP_CONNECT_MAX_FAILURES_PER_IP, 100)),
      connectLockSeconds: Math.max(1, int('CSMS_OCPP_CONNECT_LOCK_SECONDS', env.CSMS_OCPP_CONNECT_LOCK_SECONDS, 900)),
      minBalanceCents: int('CSMS_MIN_BALANCE_CENTS', env.CSMS_MIN_BALANCE_CENTS, 0),
      masterPassGroupId: masterPassGroupId(env.CSMS_OCPP_MASTER_PASS_GROUP_ID),
      compactAfterConnections: Math.max(0, int('CSMS_OCPP_COMPACT_AFTER_CONNECTIONS', env.CSMS_OCPP_COMPACT_AFTER_CONNECTIONS, 1000)),
      compactSettleMs: 10_000,
    },
    ...overrides,
  };
}
