import DataLoader from 'dataloader';

/**
 * Lookups that share one query under load (DataLoader, no cache): a load made while a batch's query
 * runs waits for it and goes with the others in the next one, as the batch writer's group commit
 * does for writes; the first after a quiet spell waits one turn of the event loop (`setImmediate`)
 * for the requests already read from the network. At low load each load is one query, as before;
 * in a reconnect storm a query serves every charger that arrived while the last one ran.
 *
 * `batch` gets the keys (repeats included) and returns a map by key (objects by identity); a key it
 * leaves out resolves to `missing`. When it throws, every load of the batch rejects.
 */
export function coalescing<K, V, M = undefined>(
  batch: (keys: readonly K[]) => Promise<ReadonlyMap<K, V>>,
  { missing }: { missing?: M } = {},
): (key: K) => Promise<V | M> {
  let running = false;
  let next: (() => void) | undefined;
  const loader = new DataLoader<K, V | M>(
    async (keys) => {
      running = true;
      try {
        const found = await batch(keys);
        return keys.map((k) => (found.has(k) ? found.get(k)! : (missing as M)));
      } finally {
        running = false;
        const go = next;
        next = undefined;
        go?.();
      }
    },
    {
      cache: false,
      batchScheduleFn: (dispatch) => {
        if (running) next = dispatch;
        else setImmediate(dispatch);
      },
    },
  );
  return (key) => loader.load(key);
}
