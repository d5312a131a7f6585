import { vi } from 'vitest';

/** A stand-in for the browser's EventSource in tests: `emit` delivers a named server event. */
export class FakeSource {
  static CLOSED = 2;
  static all: FakeSource[] = [];
  readyState = 1;
  onopen: (() => void) | null = null;
  onmessage: ((e: MessageEvent<string>) => void) | null = null;
  onerror: (() => void) | null = null;
  named = new Map<string, (e: MessageEvent<string>) => void>();
  constructor(readonly url: string) {
    FakeSource.all.push(this);
  }
  addEventListener(type: string, fn: (e: MessageEvent<string>) => void) {
    this.named.set(type, fn);
  }
  close() {}
  emit(type: string, payload: Record<string, unknown>) {
    this.named.get(type)?.({ data: JSON.stringify(payload) } as MessageEvent<string>);
  }
  static latest() {
    return FakeSource.all[FakeSource.all.length - 1]!;
  }
  static install() {
    FakeSource.all = [];
    vi.stubGlobal('EventSource', FakeSource);
  }
}
