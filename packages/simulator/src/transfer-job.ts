import type { Task } from './scheduler.js';
import type { PointInternals } from './types.js';

/** A file transfer the CSMS asked for (a firmware download, a diagnostics upload), tried again on failure. */
export interface TransferJob {
  request: { retries: number; retryIntervalS: number };
  /** 1 for the first try, 2 for the first retry… */
  attempt: number;
  cancelled: boolean;
  task?: Task;
  abort?: AbortController;
}

/**
 * The lifecycle both transfers share: one job at a time (a new one cancels the one in progress),
 * each try with its own abort signal, a failed try retried `retries` times `retryIntervalS` apart,
 * and back to idle when the job ends, is cancelled, or throws (reported as a warning).
 */
export function transferJobs<J extends TransferJob>(
  p: Pick<PointInternals, 'scheduler' | 'emit'>,
  o: { failure: string; idle: () => void; attempt: (j: J, signal: AbortSignal) => Promise<void> },
) {
  let current: J | undefined;

  function finish(j: J) {
    if (current !== j) return;
    current = undefined;
    o.idle();
  }

  function cancel() {
    if (!current) return;
    current.cancelled = true;
    current.task?.cancel();
    current.abort?.abort();
    current = undefined;
    o.idle();
  }

  function run(j: J) {
    j.task = undefined;
    j.attempt += 1;
    j.abort = new AbortController();
    void o.attempt(j, j.abort.signal).catch((error: unknown) => {
      p.emit('warning', { message: o.failure, error });
      finish(j);
    });
  }

  return {
    finish,
    run,
    /** Makes `j` the job in progress, cancelling the one before. */
    begin(j: J) {
      cancel();
      current = j;
    },
    cancel,
    /**
     * After a failed try: schedules the next when tries are left (before the status goes out, so
     * whoever waits for it can move the clock) and says whether it did; else the job ends.
     */
    retryLater(j: J): boolean {
      if (j.attempt <= j.request.retries) j.task = p.scheduler.after(j.request.retryIntervalS * 1000, () => run(j));
      return j.task !== undefined;
    },
  };
}
