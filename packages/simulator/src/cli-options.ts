import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { FleetOptions } from './fleet.js';
import type { ScenarioName } from './scenarios.js';

export const USAGE = `csms-sim: OCPP 1.6J / 2.0.1 charge-point simulator

Usage: csms-sim [options]

  --url <ws-url>          central system base URL; the serial number is appended
                          (default ws://127.0.0.1:8080/ocpp)
  --count <n>             number of charge points (default 1)
  --prefix <text>         serial number prefix; serials are <prefix>0001, … (default SIM-)
  --start-index <n>       first serial index (default 1)
  --ocpp <version>        1.6 or 2.0.1: the OCPP version the points speak (default 1.6)
  --key <key>             OCPP key (HTTP Basic password) for every point
  --keys <file.json>      {"<serial>": "<key>", …}: one key per point
  --ca <file.pem>         wss://: trust this CA (security profile 2)
  --insecure              wss://: accept any certificate (self-signed test servers)
  --scenario <name>       demo | charge | idle (default demo)
  --connectors <n>        connectors per point (default 2)
  --power-w <watts>       highest power per connector (default 22000)
  --id-tags <a,b,…>       idTags the simulated drivers use
  --sample-interval <s>   MeterValueSampleInterval (default 60)
  --aligned-interval <s>  ClockAlignedDataInterval, 0 = off (default 900)
  --concurrency <n>       connection attempts at once (default 200)
  --duration <s>          stop after this many seconds (default: run until Ctrl-C)
  --status-every <s>      seconds between status lines (default 5)
  --seed <n>              repeatable scripts
  --verbose               print every frame and warning
  -h, --help              this text
`;

export interface CliOptions {
  fleet: FleetOptions;
  durationS?: number;
  statusEveryS: number;
  verbose: boolean;
  help: boolean;
}

const SCENARIOS: readonly ScenarioName[] = ['demo', 'charge', 'idle'];

function int(name: string, value: string | undefined, min: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be a whole number ≥ ${min}, got "${value}"`);
  return n;
}

/** Parses the command line; throws an Error with a message for the user on bad input. */
export function parseCli(argv: string[], readFile: (path: string) => string = (p) => readFileSync(p, 'utf8')): CliOptions {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      url: { type: 'string', default: 'ws://127.0.0.1:8080/ocpp' },
      count: { type: 'string', default: '1' },
      prefix: { type: 'string', default: 'SIM-' },
      'start-index': { type: 'string' },
      ocpp: { type: 'string', default: '1.6' },
      key: { type: 'string' },
      keys: { type: 'string' },
      ca: { type: 'string' },
      insecure: { type: 'boolean', default: false },
      scenario: { type: 'string', default: 'demo' },
      connectors: { type: 'string', default: '2' },
      'power-w': { type: 'string' },
      'id-tags': { type: 'string' },
      'sample-interval': { type: 'string' },
      'aligned-interval': { type: 'string' },
      concurrency: { type: 'string' },
      duration: { type: 'string' },
      'status-every': { type: 'string', default: '5' },
      seed: { type: 'string' },
      verbose: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (!/^wss?:\/\//.test(values.url)) throw new Error(`--url must start with ws:// or wss://, got "${values.url}"`);
  const scenario = values.scenario as ScenarioName;
  if (!SCENARIOS.includes(scenario)) throw new Error(`--scenario must be one of ${SCENARIOS.join(', ')}, got "${values.scenario}"`);
  if (values.key && values.keys) throw new Error('give --key or --keys, not both');
  if (values.ocpp !== '1.6' && values.ocpp !== '2.0.1') throw new Error(`--ocpp must be 1.6 or 2.0.1, got "${values.ocpp}"`);
  const ocppVersion = values.ocpp;
  let keys: Record<string, string> | undefined;
  if (values.keys) {
    const parsed: unknown = JSON.parse(readFile(values.keys));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || Object.values(parsed).some((v) => typeof v !== 'string'))
      throw new Error(`--keys ${values.keys} must hold a JSON object of serial number → key`);
    keys = parsed as Record<string, string>;
  }
  const sample = int('sample-interval', values['sample-interval'], 0);
  const aligned = int('aligned-interval', values['aligned-interval'], 0);
  const power = int('power-w', values['power-w'], 1);
  const idTags = values['id-tags']
    ?.split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  if (idTags?.some((t) => t.length > 20)) throw new Error('--id-tags: an idTag has at most 20 characters');

  const fleet: FleetOptions = {
    url: values.url,
    count: int('count', values.count, 1)!,
    prefix: values.prefix,
    scenario,
    connectors: int('connectors', values.connectors, 1)!,
    ...(values['start-index'] ? { startIndex: int('start-index', values['start-index'], 0)! } : {}),
    ...(values.key ? { key: values.key } : {}),
    ...(keys ? { keys: (serial: string) => keys[serial] } : {}),
    ...(idTags?.length ? { idTags } : {}),
    ...(values.concurrency ? { concurrency: int('concurrency', values.concurrency, 1)! } : {}),
    ...(values.seed ? { seed: int('seed', values.seed, 0)! } : {}),
    point: {
      ...(ocppVersion === '2.0.1' ? { ocppVersion } : {}),
      ...(values.ca || values.insecure
        ? { tls: { ...(values.ca ? { ca: readFile(values.ca) } : {}), ...(values.insecure ? { rejectUnauthorized: false } : {}) } }
        : {}),
      ...(sample !== undefined ? { meterValueSampleInterval: sample } : {}),
      ...(aligned !== undefined ? { clockAlignedDataInterval: aligned } : {}),
      ...(power !== undefined ? { powerW: power } : {}),
    },
  };
  const durationS = int('duration', values.duration, 1);
  return {
    fleet,
    ...(durationS !== undefined ? { durationS } : {}),
    statusEveryS: int('status-every', values['status-every'], 1)!,
    verbose: values.verbose,
    help: values.help,
  };
}
