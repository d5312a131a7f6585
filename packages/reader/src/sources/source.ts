/** What a read comes to: the UID of the card on the reader, or why there is none. */
export type ReadOutcome = { uid: string } | { error: 'noCard' | 'noDriver'; detail?: string };

/** Where UIDs come from: a simulated list, a keyboard-wedge stream, or a PC/SC reader. */
export interface CardSource {
  /**
   * The card on the reader, waiting at most `timeoutMs` for one to be presented. Never rejects;
   * resolves `noCard` early when `signal` aborts (the console went away).
   */
  read(timeoutMs: number, signal: AbortSignal): Promise<ReadOutcome>;
  close(): Promise<void>;
}

export type Log = (line: string) => void;

/** Resolves `noCard` after `timeoutMs` or on abort; `settle` resolves it earlier with an outcome. */
export function waitForCard(timeoutMs: number, signal: AbortSignal, onDone: () => void) {
  let settle!: (outcome: ReadOutcome) => void;
  const promise = new Promise<ReadOutcome>((resolve) => {
    const timer = setTimeout(() => done({ error: 'noCard' }), timeoutMs);
    const abort = () => done({ error: 'noCard', detail: 'cancelled' });
    signal.addEventListener('abort', abort, { once: true });
    let finished = false;
    function done(outcome: ReadOutcome) {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', abort);
      onDone();
      resolve(outcome);
    }
    settle = done;
    if (signal.aborted) abort();
  });
  return { promise, settle };
}
