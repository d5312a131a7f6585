import fs from 'node:fs';
import path from 'node:path';
import type { FtpSrv } from 'ftp-srv';
import { loadFtpSrv } from './lazy-packages.js';

/**
 * The embedded FTP server (DESIGN.md §10; issue 16): many chargers upload diagnostics, and some fetch
 * firmware, over FTP only. ftp-srv does the protocol; this decides, per login, which one directory
 * the session sees and whether it may only read (a firmware package) or only write (a diagnostics
 * upload). Credentials are per job: the username names the job, the password is its token.
 */

/** What a login may do: read files (RETR) or store them (STOR), never delete, rename or read another job's. */
export type FtpGrant = { mode: 'read'; root: string } | { mode: 'write'; root: string; onStored: (file: string) => void | Promise<void> };

const COMMON = [
  'USER',
  'PASS',
  'SYST',
  'FEAT',
  'OPTS',
  'TYPE',
  'MODE',
  'STRU',
  'PWD',
  'CWD',
  'NOOP',
  'QUIT',
  'PASV',
  'EPSV',
  'PORT',
  'EPRT',
];
const READ = [...COMMON, 'RETR', 'SIZE', 'MDTM', 'REST', 'LIST', 'NLST'];
const WRITE = [...COMMON, 'STOR'];

export interface FtpServer {
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createFtpServer({
  port,
  host = '0.0.0.0',
  pasvUrl,
  pasvMin,
  pasvMax,
  login,
  onError,
}: {
  port: number;
  host?: string;
  /** The address put in PASV replies: the one chargers reach the server by. */
  pasvUrl: string;
  pasvMin: number;
  pasvMax: number;
  login: (username: string, password: string) => Promise<FtpGrant | undefined>;
  onError: (err: unknown) => void;
}): FtpServer {
  let server: FtpSrv | undefined;
  return {
    async start() {
      const FtpSrv = await loadFtpSrv();
      const quiet = { child: () => quiet, trace() {}, debug() {}, info() {}, warn() {}, error() {}, fatal() {} };
      server = new FtpSrv({
        url: `ftp://${host}:${port}`,
        pasv_url: pasvUrl,
        pasv_min: pasvMin,
        pasv_max: pasvMax,
        anonymous: false,
        greeting: 'CSMS',
        // ftp-srv logs through bunyan by default; ours go through onError.
        log: quiet as never,
      });

      server.on('login', ({ connection, username, password }, resolve, reject) => {
        login(username, password)
          .then(async (grant) => {
            if (!grant) return reject(new Error('Invalid username or password'));
            await fs.promises.mkdir(grant.root, { recursive: true });
            if (grant.mode === 'write') {
              connection.on('STOR', (err: unknown, file: string) => {
                if (err) return;
                // Only a file directly in the job's directory counts.
                if (path.dirname(path.resolve(file)) !== path.resolve(grant.root)) return;
                Promise.resolve(grant.onStored(file)).catch(onError);
              });
            }
            resolve({ root: grant.root, cwd: '/', whitelist: grant.mode === 'read' ? READ : WRITE });
          })
          .catch((err: unknown) => {
            onError(err);
            reject(new Error('login failed'));
          });
      });
      server.on('client-error', ({ error }) => onError(error));
      await server.listen();
    },
    async stop() {
      await server?.close();
    },
  };
}
