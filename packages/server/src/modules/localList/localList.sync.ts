import type { LocalListService } from './localList.service.js';

/**
 * The automatic local list sync: every `intervalMs`, one sweep over the points this node holds
 * (what is due comes from the database, so a restart or a moved socket loses nothing). Sweeps never
 * overlap; a point that refused is retried after ten intervals.
 */
export function startLocalListSync({
  service,
  nodeId,
  intervalMs,
  onError,
  now = () => new Date(),
}: {
  service: Pick<LocalListService, 'sweep'>;
  nodeId: string;
  intervalMs: number;
  onError: (err: unknown) => void;
  now?: () => Date;
}) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  const tick = () => {
    if (running) return;
    running = service
      .sweep(nodeId, now(), intervalMs * 10)
      .catch(onError)
      .finally(() => (running = undefined));
  };
  return {
    start() {
      if (intervalMs <= 0 || timer) return;
      timer = setInterval(tick, intervalMs);
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}
