import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { lazy } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
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
});
