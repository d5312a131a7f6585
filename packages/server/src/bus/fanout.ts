import type { EventHub } from '../lib/events.js';

/**
 * Messages every node receives, this one included (`own` says which): the console's live events,
 * and what keeps each node's caches true when another node changes the data behind them.
 */
export interface Fanout {
  readonly nodeId: string;
  publish(topic: string, message: unknown): void;
  subscribe(topic: string, fn: (message: never, own: boolean) => void): () => void;
  /** Resolves once what was published so far has left this node. */
  flush(): Promise<void>;
}

/**
 * Console events through the fan-out: an event published on any node reaches the browsers of
 * every node (each delivers to its own streams, with the same provider and station filters).
 */
export function clusterEvents(hub: EventHub, fanout: Fanout): EventHub {
  fanout.subscribe('events', (event) => hub.publish(event));
  return {
    subscribe: (s) => hub.subscribe(s),
    publish: (event) => fanout.publish('events', event),
    get size() {
      return hub.size;
    },
  };
}

/**
 * Runs `apply` here at once and on every other node when its message arrives (a cache drop, a
 * running idTag): the caller never waits for the network, the others follow within a hop.
 */
export function everywhere<T>(fanout: Fanout | undefined, topic: string, apply: (message: T) => void): (message: T) => void {
  if (!fanout) return apply;
  fanout.subscribe(topic, (message: T, own) => {
    if (!own) apply(message);
  });
  return (message) => {
    apply(message);
    fanout.publish(topic, message);
  };
}
