import { render, screen } from '@testing-library/react';
import { lazy, Suspense } from 'react';
import { describe, expect, it } from 'vitest';
import { loadedLazy } from './loaded-lazy';

/** How many times the Suspense fallback was drawn while `Lazy` rendered. */
async function fallbacksWhile(Lazy: React.ComponentType) {
  let fallbacks = 0;
  const Fallback = () => {
    fallbacks++;
    return <p>loading</p>;
  };
  render(
    <Suspense fallback={<Fallback />}>
      <Lazy />
    </Suspense>,
  );
  expect(await screen.findByText('the screen')).toBeTruthy();
  return fallbacks;
}

describe('loadedLazy', () => {
  const module = { default: () => <p>the screen</p> };

  it('renders a module fetched beforehand without suspending (React would hold it 300 ms after a fallback)', async () => {
    const { component, fetch } = loadedLazy(() => Promise.resolve(module));
    await fetch();
    expect(await fallbacksWhile(component)).toBe(0);
  });

  it('suspends like lazy() while the module is still on its way, and fetches it once', async () => {
    let calls = 0;
    const { component, fetch } = loadedLazy(() => {
      calls++;
      return Promise.resolve(module);
    });
    void fetch();
    expect(await fallbacksWhile(component)).toBeGreaterThan(0);
    expect(calls).toBe(1);
    // lazy() itself suspends on a module fetched beforehand: the case loadedLazy is for.
    const plain = lazy(() => Promise.resolve(module));
    expect(await fallbacksWhile(plain)).toBeGreaterThan(0);
  });
});
