#!/usr/bin/env node
// csms-sim: runs a fleet of simulated OCPP 1.6J charge points against a central system.
import { parseCli, USAGE } from './cli-options.js';
import { runFleet, type FleetStats } from './fleet.js';

function statusLine(s: FleetStats, elapsedS: number): string {
  const top = Object.entries(s.actions)
    .sort(([, a], [, b]) => b.count - a.count)
    .slice(0, 4)
    .map(([action, a]) => `${action} p50 ${a.p50Ms} p99 ${a.p99Ms}`)
    .join(' · ');
  return (
    `[${String(Math.round(elapsedS)).padStart(5)}s] connected ${s.connected}/${s.points} booted ${s.booted} charging ${s.charging}` +
    ` | calls ${s.callsSent} replies ${s.replies} errors ${s.errors} timeouts ${s.timeouts}` +
    (s.connectFailures ? ` connect-failures ${s.connectFailures}` : '') +
    (top ? ` | ${top} ms` : '')
  );
}

function summary(s: FleetStats): string {
  const rows = Object.entries(s.actions).map(
    ([action, a]) =>
      `  ${action.padEnd(30)} ${String(a.count).padStart(9)} ${String(a.errors).padStart(7)} ${String(a.timeouts).padStart(8)}` +
      ` ${a.p50Ms.toFixed(2).padStart(9)} ${a.p99Ms.toFixed(2).padStart(9)}`,
  );
  return [
    `  ${'action'.padEnd(30)} ${'answered'.padStart(9)} ${'errors'.padStart(7)} ${'timeouts'.padStart(8)} ${'p50 ms'.padStart(9)} ${'p99 ms'.padStart(9)}`,
    ...rows,
  ].join('\n');
}

async function main() {
  let options;
  try {
    options = parseCli(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n\n${USAGE}`);
    process.exit(2);
  }
  if (options.help) {
    process.stdout.write(USAGE);
    return;
  }
  const { fleet: fleetOptions } = options;
  process.stdout.write(
    `csms-sim: ${fleetOptions.count} point(s) ${fleetOptions.prefix}… → ${fleetOptions.url}, scenario ${fleetOptions.scenario}` +
      (options.durationS ? `, ${options.durationS} s` : ', Ctrl-C to stop') +
      '\n',
  );
  const started = Date.now();
  const fleet = runFleet(fleetOptions);
  if (options.verbose) {
    for (const p of fleet.points) {
      p.on('traffic', (e) => process.stdout.write(`${p.serialNumber} ${JSON.stringify(e)}\n`));
      p.on('warning', (w) =>
        process.stdout.write(`${p.serialNumber} warning: ${w.message} ${w.error instanceof Error ? w.error.message : ''}\n`),
      );
      p.on('connection', (c) => {
        if (c.error) process.stdout.write(`${p.serialNumber} connection: ${c.error.message}\n`);
      });
    }
  }
  const print = () => process.stdout.write(`${statusLine(fleet.stats(), (Date.now() - started) / 1000)}\n`);
  const ticker = setInterval(print, options.statusEveryS * 1000);

  let stopping = false;
  const stop = async (why: string) => {
    if (stopping) {
      process.stderr.write('csms-sim: forced exit\n');
      process.exit(1);
    }
    stopping = true;
    clearInterval(ticker);
    clearTimeout(deadline);
    process.stdout.write(`csms-sim: ${why}, closing connections…\n`);
    await fleet.stop();
    print();
    process.stdout.write(`${summary(fleet.stats())}\n`);
    process.exit(0);
  };
  const deadline = options.durationS ? setTimeout(() => void stop('duration reached'), options.durationS * 1000) : undefined;
  process.on('SIGINT', () => void stop('interrupted'));
  process.on('SIGTERM', () => void stop('terminated'));
}

void main();
