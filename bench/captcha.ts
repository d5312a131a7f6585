/**
 * Cost of the sign-in captcha (issue 12 item 4): it is drawn on every load of the sign-in page, so
 * it must not stall the event loop. Draws captchas one after another (latency) and then several at
 * a time (throughput), and measures how long the event loop was busy per captcha (event-loop
 * utilisation) and the worst delay a timer on the loop saw meanwhile.
 *
 *   npm run bench:captcha            # BENCH_COUNT (default 300), BENCH_CONCURRENCY (default 8)
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { drawCaptcha } from '../packages/server/src/modules/auth/captcha-image.js';

const count = Number(process.env.BENCH_COUNT ?? 300);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8);

interface Row {
  run: string;
  perCaptchaMs: number;
  loopBusyMsPerCaptcha: number;
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
  pngBytes: number;
}

async function measure(run: string, parallel: number): Promise<Row> {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  let bytes = 0;
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next++;
      const { png } = await drawCaptcha();
      bytes += png.length;
    }
  };
  const elu = performance.eventLoopUtilization();
  const started = performance.now();
  delay.enable();
  await Promise.all(Array.from({ length: parallel }, worker));
  delay.disable();
  const wall = performance.now() - started;
  const busy = performance.eventLoopUtilization(elu);
  return {
    run,
    perCaptchaMs: wall / count,
    loopBusyMsPerCaptcha: busy.active / count,
    loopDelayP99Ms: delay.percentile(99) / 1e6,
    loopDelayMaxMs: delay.max / 1e6,
    pngBytes: bytes / count,
  };
}

await drawCaptcha(); // loads the font and the renderer once
const rows = [await measure('one at a time', 1), await measure(`${concurrency} at a time`, concurrency)];
const f = (n: number) => n.toFixed(2);
console.log(`captcha: ${count} per run, Node ${process.version}, ${new Date().toISOString()}`);
console.log('| run | wall ms / captcha | event-loop busy ms / captcha | loop delay p99 ms | loop delay max ms | PNG bytes |');
console.log('|---|---|---|---|---|---|');
for (const r of rows) {
  console.log(
    `| ${r.run} | ${f(r.perCaptchaMs)} | ${f(r.loopBusyMsPerCaptcha)} | ${f(r.loopDelayP99Ms)} | ${f(r.loopDelayMaxMs)} | ${Math.round(r.pngBytes)} |`,
  );
}
