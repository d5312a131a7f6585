import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { closeEvents, EVENTS_URL, subscribe } from './events';

class FakeSource {
  static CLOSED = 2;
  static all: FakeSource[] = [];
  readyState = 0;
  onopen: (() => void) | null = null;
  onmessage: ((e: MessageEvent<string>) => void) | null = null;
  onerror: (() => void) | null = null;
  named = new Map<string, (e: MessageEvent<string>) => void>();
  closed = false;
  constructor(
    readonly url: string,
    readonly init?: EventSourceInit,
  ) {
    FakeSource.all.push(this);
  }
  addEventListener(type: string, fn: (e: MessageEvent<string>) => void) {
    this.named.set(type, fn);
  }
  close() {
    this.closed = true;
  }
}

beforeEach(() => {
  FakeSource.all = [];
  vi.useFakeTimers();
  vi.stubGlobal('EventSource', FakeSource);
});
afterEach(() => {
  closeEvents();
  vi.useRealTimers();
});

describe('event stream', () => {
  it('opens one cookie-authenticated stream lazily and routes by type', () => {
    expect(FakeSource.all).toHaveLength(0);
    const a = vi.fn();
    const b = vi.fn();
    const offA = subscribe('export.progress', a);
    const offB = subscribe('point.status', b);
    expect(FakeSource.all).toHaveLength(1);
    const es = FakeSource.all[0]!;
    expect(es.url).toBe(EVENTS_URL);
    expect(es.init).toEqual({ withCredentials: true });
    es.onmessage!({ data: JSON.stringify({ type: 'export.progress', exportId: 'x', done: 1, total: 2 }) } as MessageEvent<string>);
    es.named.get('point.status')!({ data: JSON.stringify({ id: 3 }) } as MessageEvent<string>);
    expect(a).toHaveBeenCalledWith({ type: 'export.progress', exportId: 'x', done: 1, total: 2 });
    expect(b).toHaveBeenCalledWith({ type: 'point.status', id: 3 });
    offA();
    expect(es.closed).toBe(false);
    offB();
    expect(es.closed).toBe(true);
  });

  it('reopens a closed stream with back-off while someone listens', () => {
    const off = subscribe('export.progress', vi.fn());
    const first = FakeSource.all[0]!;
    first.readyState = FakeSource.CLOSED;
    first.onerror!();
    expect(FakeSource.all).toHaveLength(1);
    vi.advanceTimersByTime(1000);
    expect(FakeSource.all).toHaveLength(2);
    off();
  });
});
