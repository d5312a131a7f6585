import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

type Module<C extends ComponentType> = { default: C };

/**
 * `lazy()` for code that is usually fetched before it renders (the shell and the screen of the
 * address, which a cold load fetches early: app/console-root.tsx). Once its module has arrived, the
 * component gets it synchronously instead of through a promise, so it renders in its parent's
 * commit. A promise, even a settled one, makes React suspend for a moment and show the Suspense
 * fallback, and React 19 holds the reveal of suspended content until 300 ms after the last fallback
 * it showed (its FALLBACK_THROTTLE_MS): a cold dashboard drew its first content 300 ms after the
 * shell (issue 14 item 7). `fetch` starts (or joins) the fetch; a failed one is forgotten, so the
 * next attempt (a reload offer) fetches again. `wrap` bounds a fetch in progress (the chunk timeout).
 */
export function loadedLazy<C extends ComponentType>(
  load: () => Promise<Module<C>>,
  wrap: (fetching: Promise<Module<C>>) => Promise<Module<C>> = (p) => p,
): { component: LazyExoticComponent<C>; fetch: () => Promise<Module<C>> } {
  let loaded: Module<C> | undefined;
  let loading: Promise<Module<C>> | undefined;
  const fetch = () =>
    (loading ??= load().then(
      (m) => (loaded = m),
      (err: unknown) => {
        loading = undefined;
        throw err;
      },
    ));
  const component = lazy(() => (loaded ? settled(loaded) : wrap(fetch())));
  return { component, fetch };
}

/** A thenable that calls back at once: React's lazy() reads it as resolved before it would suspend. */
function settled<T>(value: T): Promise<T> {
  return { status: 'fulfilled', value, then: (onFulfilled: (v: T) => unknown) => onFulfilled(value) } as unknown as Promise<T>;
}
