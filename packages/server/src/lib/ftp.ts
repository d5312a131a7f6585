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

/**
 * What a login may do: read files (RETR) or store them (STOR) of at most `maxBytes` each, never delete,
 * rename or read another job's.
 */
export type FtpGrant =
  { mode: 'read'; root: string } | { mode: 'write'; root: string; maxBytes: number; onStored: (file: string) => void | Promise<void> };

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
      const { FtpSrv, FileSystem } = await loadFtpSrv();
      /**
       * ftp-srv pipes an upload to disk with no limit of its own: past `maxBytes` the file stream fails, which
       * removes the partial file (ftp-srv's FileSystem unlinks on error), closes the data connection and
       * answers 550, as the HTTP upload answers 413.
       */
      class LimitedFileSystem extends FileSystem {
        constructor(
          connection: ConstructorParameters<typeof FileSystem>[0],
          opts: { root: string; cwd: string },
          private readonly maxBytes: number,
        ) {
          super(connection, opts);
        }
        override write(fileName: string, opts?: { append?: boolean; start?: unknown }) {
          const out = super.write(fileName, opts) as { stream: NodeJS.WritableStream & { destroy(err?: Error): void }; clientPath: string };
          const write = out.stream.write.bind(out.stream) as (chunk: Buffer, ...rest: unknown[]) => boolean;
          let bytes = 0;
          out.stream.write = ((chunk: Buffer, ...rest: unknown[]) => {
            bytes += chunk.length;
            if (bytes <= this.maxBytes) return write(chunk, ...rest);
            out.stream.destroy(new Error(`File too large: at most ${this.maxBytes} bytes`));
            return false;
          }) as typeof out.stream.write;
          return out;
        }
      }
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
            if (grant.mode === 'read') return resolve({ root: grant.root, cwd: '/', whitelist: READ });
            const files = new LimitedFileSystem(connection, { root: grant.root, cwd: '/' }, grant.maxBytes);
            resolve({ fs: files, whitelist: WRITE });
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
