/**
 * The values of a live map in rounds, a slice per tick: each call of the returned function gives
 * the next ⌈size / ticksPerRound⌉ values, so that every value comes once per `ticksPerRound`
 * ticks and no tick handles them all. A round goes in insertion order; values added during a
 * round join it, values deleted during it drop out of it (a Map iterator's own rules). When a
 * round ends inside a tick, that tick gives the rest and the next tick starts a new round.
 */
export function slicedRounds<T>(map: Map<unknown, T>, ticksPerRound: number): () => T[] {
  let round: Iterator<T> | undefined;
  return () => {
    const slice: T[] = [];
    round ??= map.values();
    for (let n = Math.ceil(map.size / Math.max(1, ticksPerRound)); n > 0; n--) {
      const next = round.next();
      if (next.done) {
        round = undefined;
        break;
      }
      slice.push(next.value);
    }
    return slice;
  };
}
