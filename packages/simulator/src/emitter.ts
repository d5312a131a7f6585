/**
 * A small typed event emitter. Listener lists are created on first subscription, so the
 * thousands of points of a fleet that nobody watches carry none.
 */
export interface Emitter<E extends Record<string, unknown>> {
  /** Subscribes; returns the function that unsubscribes. */
  on<K extends keyof E>(event: K, listener: (payload: E[K]) => void): () => void;
  /** Resolves with the next event of this kind that satisfies `match`. */
  next<K extends keyof E>(event: K, match?: (payload: E[K]) => boolean): Promise<E[K]>;
  emit<K extends keyof E>(event: K, payload: E[K]): void;
}

export function createEmitter<E extends Record<string, unknown>>(): Emitter<E> {
  let listeners: Map<keyof E, Set<(payload: never) => void>> | undefined;
  const on: Emitter<E>['on'] = (event, listener) => {
    listeners ??= new Map();
    let set = listeners.get(event);
    if (!set) listeners.set(event, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) listeners?.delete(event);
    };
  };
  return {
    on,
    next: (event, match) =>
      new Promise((resolve) => {
        const off = on(event, (payload) => {
          if (match && !match(payload)) return;
          off();
          resolve(payload);
        });
      }),
    emit(event, payload) {
      const set = listeners?.get(event);
      if (!set) return;
      for (const listener of [...set]) (listener as (p: E[typeof event]) => void)(payload);
    },
  };
}
