#!/usr/bin/env node
// csms-card-reader: the card reader companion the console talks to when issuing a card.
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { DEFAULT_PORT, DEFAULT_TIMEOUT_MS, readerModes, startReaderServer, type ReaderMode } from './server.js';
import { checkUids } from './sources/simulated.js';
import { wedgeFormats, type WedgeFormat } from './uid.js';

const usage = `Usage: csms-card-reader [--mode simulated|keyboard|pcsc] [options]

Serves ws://127.0.0.1:<port>: the console sends {"type":"read"} and gets
{"type":"card","uid":"04A1B2C3"} or {"type":"error","code":"noCard"|"noDriver"}.

  --mode M          simulated (default): made-up or configured UIDs, for demos and tests
                    keyboard: a keyboard-wedge reader typing UID + Enter into this window
                    pcsc: a PC/SC reader (e.g. ACR122U) through the optional nfc-pcsc package
  --port N          port to listen on (default $CSMS_READER_PORT or ${DEFAULT_PORT}); the server's
                    CSMS_READER_PORT must say the same
  --origin URL      also allow pages from URL (the console's address); repeatable; '*' = any
                    (default: pages on localhost / 127.0.0.1 / [::1] only)
  --timeout S       keyboard, pcsc: seconds to wait for a card before answering noCard (default ${DEFAULT_TIMEOUT_MS / 1000})
  --uid U[,U…]      simulated: answer with these UIDs in turn (default: a new random UID per read)
  --uid-file F      simulated: UIDs from F, one a line, re-read on every request (empty: noCard)
  --input F         keyboard: read lines from F (e.g. a serial device) instead of stdin
  --wedge-format X  keyboard: hex (default) | dec | dec-le (the UID printed as a decimal number,
                    big- or little-endian)
  --help
`;

function fail(message: string): never {
  process.stderr.write(`csms-card-reader: ${message}\n\n${usage}`);
  process.exit(2);
}

function parse() {
  try {
    return parseArgs({
      options: {
        mode: { type: 'string', default: 'simulated' },
        port: { type: 'string', default: process.env.CSMS_READER_PORT || String(DEFAULT_PORT) },
        origin: { type: 'string', multiple: true, default: [] },
        timeout: { type: 'string', default: String(DEFAULT_TIMEOUT_MS / 1000) },
        uid: { type: 'string', multiple: true },
        'uid-file': { type: 'string' },
        input: { type: 'string' },
        'wedge-format': { type: 'string', default: 'hex' },
        help: { type: 'boolean', default: false },
      },
      allowPositionals: false,
    }).values;
  } catch (err) {
    return fail((err as Error).message);
  }
}

const args = parse();
if (args.help) {
  process.stdout.write(usage);
  process.exit(0);
}
const mode = args.mode as ReaderMode;
if (!readerModes.includes(mode)) fail(`unknown mode "${args.mode}"`);
const port = Number(args.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be a port number (0: any free one), got "${args.port}"`);
const timeoutS = Number(args.timeout);
if (!(timeoutS > 0 && timeoutS <= 120)) fail(`--timeout must be 1 to 120 seconds, got "${args.timeout}"`);
const wedgeFormat = args['wedge-format'] as WedgeFormat;
if (!wedgeFormats.includes(wedgeFormat)) fail(`--wedge-format must be one of ${wedgeFormats.join(', ')}`);

let uids: string[] | undefined;
try {
  uids = args.uid ? checkUids(args.uid.flatMap((u) => u.split(',')).filter(Boolean)) : undefined;
} catch (err) {
  fail((err as Error).message);
}
const input = mode !== 'keyboard' ? undefined : args.input ? fs.createReadStream(args.input) : process.stdin;

const server = await startReaderServer({
  mode,
  port,
  origins: args.origin.flatMap((o) => o.split(',')).filter(Boolean),
  timeoutMs: Math.round(timeoutS * 1000),
  uids,
  uidFile: args['uid-file'],
  input,
  wedgeFormat,
}).catch((err: NodeJS.ErrnoException) => {
  if (err.code === 'EADDRINUSE') fail(`port ${port} is in use: is the companion already running? (--port to choose another)`);
  return fail(err.message);
});

const what: Record<ReaderMode, string> = {
  simulated: args['uid-file']
    ? `SIMULATED reader: UIDs from ${args['uid-file']}`
    : uids
      ? `SIMULATED reader: answers ${uids.join(', ')} in turn`
      : 'SIMULATED reader: answers a new random UID for every read',
  keyboard: args.input
    ? `keyboard-wedge reader on ${args.input} (${wedgeFormat})`
    : `keyboard-wedge reader: keep this window focused and tap a card (${wedgeFormat})`,
  pcsc: 'PC/SC reader through nfc-pcsc',
};
process.stderr.write(`csms-card-reader listening on ${server.url}: ${what[mode]}\n`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    void server.close().then(() => {
      if (input && input !== process.stdin) input.destroy();
      process.exit(0);
    });
  });
}
