import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { lazy, type ComponentType } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lazyScreen, preloadScreen } from './registry';
import { CHUNK_TIMEOUT_MS, ScreenElement } from './screen-element';

afterEach(() => vi.useRealTimers());

describe('screen element', () => {
  it("offers a reload once a screen's code has not arrived within the chunk timeout", async () => {
    vi.useFakeTimers();
    const never = lazy(() => new Promise<never>(() => {}));
    render(
      <QueryClientProvider client={new QueryClient()}>
        <ScreenElement screen={{ path: '/slow', component: never }} />
      </QueryClientProvider>,
    );
    await act(async () => {
      await vi.advanceTimersByTimeAsync(CHUNK_TIMEOUT_MS - 1000);
    });
    expect(screen.queryByText('The page failed to load; check the network and refresh')).toBeNull();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1000);
    });
    expect(screen.getByText('The page failed to load; check the network and refresh')).toBeTruthy();
  });

  const renderScreen = (def: Parameters<typeof ScreenElement>[0]['screen']) =>
    render(
      <QueryClientProvider client={new QueryClient()}>
        <ScreenElement screen={def} />
      </QueryClientProvider>,
    );

  it('a screen fetched early for its address is not fetched again when it renders; another address fetches nothing', async () => {
    const load = vi.fn(async () => ({ default: () => <p>station 7</p> }));
    const other = vi.fn(async () => ({ default: () => <p>other</p> }));
    const defs = [
      { path: '/station/edit/:id', component: lazyScreen(load) },
      { path: '/other', component: lazyScreen(other) },
    ];
    await preloadScreen('/station/edit/7', defs);
    await preloadScreen('/nowhere', defs);
    expect(load).toHaveBeenCalledTimes(1);
    expect(other).not.toHaveBeenCalled();
    renderScreen(defs[0]!);
    expect(await screen.findByText('station 7')).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('an early fetch that failed is forgotten: the screen fetches its code again when it renders', async () => {
    const load = vi
      .fn<() => Promise<{ default: ComponentType }>>()
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValue({ default: () => <p>back online</p> });
    const def = { path: '/later', component: lazyScreen(load) };
    await preloadScreen('/later', [def]);
    renderScreen(def);
    expect(await screen.findByText('back online')).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(2);
  });
});
