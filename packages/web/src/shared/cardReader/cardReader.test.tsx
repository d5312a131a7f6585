import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import i18n from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../resource/test-kit';
import { CardReaderError, cardReaderMessageKey, readCardUid, ReadCardButton, type CardReaderErrorCode } from './index';

/** A WebSocket that the test drives: `behave` decides what the "companion" does with each socket. */
class FakeWebSocket {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  readonly CONNECTING = 0;
  readonly OPEN = 1;
  readonly CLOSING = 2;
  readonly CLOSED = 3;
  static sockets: FakeWebSocket[] = [];
  static behave: (socket: FakeWebSocket) => void = () => {};
  readyState = 0;
  sent: unknown[] = [];
  onopen: ((e: unknown) => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  onerror: ((e: unknown) => void) | null = null;
  onclose: ((e: { code: number }) => void) | null = null;
  onSend: (message: Record<string, unknown>) => void = () => {};
  constructor(readonly url: string) {
    FakeWebSocket.sockets.push(this);
    setTimeout(() => FakeWebSocket.behave(this), 0);
  }
  send(data: string) {
    const message = JSON.parse(data) as Record<string, unknown>;
    this.sent.push(message);
    this.onSend(message);
  }
  close() {
    this.readyState = 3;
  }
  // The companion's side.
  accept(answer?: (message: Record<string, unknown>) => unknown) {
    this.readyState = 1;
    if (answer) this.onSend = (m) => setTimeout(() => this.reply(answer(m)), 0);
    this.onopen?.({});
  }
  refuse() {
    this.readyState = 3;
    this.onerror?.({});
    this.onclose?.({ code: 1006 });
  }
  reply(message: unknown) {
    this.onmessage?.({ data: typeof message === 'string' ? message : JSON.stringify(message) });
  }
}

beforeEach(() => {
  FakeWebSocket.sockets = [];
  vi.stubGlobal('WebSocket', FakeWebSocket);
  mockFetch(() => ({ code: 200, msg: 'ok', data: '9123' }));
});
afterEach(() => vi.unstubAllGlobals());

async function failure(promise: Promise<unknown>): Promise<CardReaderErrorCode> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CardReaderError);
  return (err as CardReaderError).code;
}

describe('readCardUid', () => {
  it('asks the companion on the port the server names and resolves with the UID', async () => {
    FakeWebSocket.behave = (s) => s.accept(() => ({ type: 'card', uid: '04A1B2C3' }));
    expect(await readCardUid({ timeoutMs: 10_000 })).toBe('04A1B2C3');
    const [socket] = FakeWebSocket.sockets;
    expect(socket!.url).toBe('ws://127.0.0.1:9123');
    // The companion is told to give up first, so it can say noCard before the console times out.
    expect(socket!.sent).toEqual([{ type: 'read', timeoutMs: 8_000 }]);
    expect(socket!.readyState).toBe(socket!.CLOSED);
  });

  it('uses the port given, or 8989 when the server cannot say', async () => {
    FakeWebSocket.behave = (s) => s.accept(() => ({ type: 'card', uid: '0A0B0C0D' }));
    const fetch = mockFetch(() => ({ code: 200, data: '9123' }));
    await readCardUid({ port: 7000 });
    expect(FakeWebSocket.sockets[0]!.url).toBe('ws://127.0.0.1:7000');
    expect(fetch).not.toHaveBeenCalled();
    mockFetch(() => new Response('down', { status: 502 }));
    await readCardUid();
    expect(FakeWebSocket.sockets[1]!.url).toBe('ws://127.0.0.1:8989');
    mockFetch(() => ({ code: 200, data: 'not a port' }));
    await readCardUid();
    expect(FakeWebSocket.sockets[2]!.url).toBe('ws://127.0.0.1:8989');
  });

  it('says noWebSocket in a browser without WebSocket, or one that may not open it', async () => {
    vi.stubGlobal('WebSocket', undefined);
    expect(await failure(readCardUid({ port: 8989 }))).toBe('noWebSocket');
    vi.stubGlobal(
      'WebSocket',
      class {
        constructor() {
          throw new DOMException('insecure', 'SecurityError');
        }
      },
    );
    expect(await failure(readCardUid({ port: 8989 }))).toBe('noWebSocket');
  });

  it('says notStarted when nothing listens (or the companion refuses this origin) or it goes away mid-read', async () => {
    FakeWebSocket.behave = (s) => s.refuse();
    expect(await failure(readCardUid())).toBe('notStarted');
    FakeWebSocket.behave = (s) => {
      s.onSend = () => setTimeout(() => s.onclose?.({ code: 1001 }), 0);
      s.accept();
    };
    expect(await failure(readCardUid())).toBe('notStarted');
  });

  it('maps the companion’s error codes; anything it should not say is notStarted', async () => {
    const cases: [unknown, CardReaderErrorCode][] = [
      [{ type: 'error', code: 'noDriver' }, 'noDriver'],
      [{ type: 'error', code: 'noCard' }, 'noCard'],
      [{ type: 'error', code: 'badRequest', detail: 'x' }, 'notStarted'],
      [{ type: 'card', uid: '' }, 'notStarted'],
      ['<html>', 'notStarted'],
    ];
    for (const [answer, code] of cases) {
      FakeWebSocket.behave = (s) => s.accept(() => answer);
      expect(await failure(readCardUid())).toBe(code);
    }
  });

  it('says timeout when the companion never answers', async () => {
    FakeWebSocket.behave = (s) => s.accept();
    expect(await failure(readCardUid({ timeoutMs: 30 }))).toBe('timeout');
    expect(FakeWebSocket.sockets[0]!.readyState).toBe(FakeWebSocket.CLOSED);
  });
});

describe('messages', () => {
  const codes: CardReaderErrorCode[] = ['noWebSocket', 'notStarted', 'noDriver', 'noCard', 'timeout'];
  it('has a text for every failure in both languages', async () => {
    for (const lng of ['zh-CN', 'en-US']) {
      await act(() => i18n.changeLanguage(lng));
      const texts = codes.map((c) => i18n.t(cardReaderMessageKey(c)));
      texts.forEach((text, i) => expect(text, codes[i]).not.toBe(cardReaderMessageKey(codes[i]!)));
      expect(new Set(texts).size).toBe(codes.length);
    }
    expect(i18n.t(cardReaderMessageKey('notStarted'))).toMatch(/not running/);
    await act(() => i18n.changeLanguage('zh-CN'));
    expect(i18n.t(cardReaderMessageKey('noWebSocket'))).toMatch(/不支持 WebSocket/);
    expect(i18n.t(cardReaderMessageKey('notStarted'))).toMatch(/读卡插件未启动/);
    expect(i18n.t(cardReaderMessageKey('noDriver'))).toMatch(/未安装读卡器驱动/);
  });
});

describe('ReadCardButton', () => {
  it('shows that it is reading, then hands over the UID', async () => {
    let answer!: () => void;
    FakeWebSocket.behave = (s) => {
      s.onSend = () => (answer = () => s.reply({ type: 'card', uid: '04A1B2C3' }));
      s.accept();
    };
    const onRead = vi.fn();
    render(<ReadCardButton onRead={onRead} />);
    fireEvent.click(screen.getByRole('button', { name: /Read card/ }));
    expect(await screen.findByText('Place the card on the reader…')).toBeTruthy();
    await waitFor(() => expect(answer).toBeTypeOf('function'));
    act(() => answer());
    await waitFor(() => expect(onRead).toHaveBeenCalledWith('04A1B2C3'));
    expect(await screen.findByText('Read card')).toBeTruthy();
  });

  it('toasts what went wrong and tells the form', async () => {
    FakeWebSocket.behave = (s) => s.accept(() => ({ type: 'error', code: 'noDriver' }));
    const onRead = vi.fn();
    const onError = vi.fn();
    render(<ReadCardButton onRead={onRead} onError={onError} port={8989} />);
    fireEvent.click(screen.getByTestId('read-card-button'));
    expect(await screen.findByText(i18n.t('cardReader.errors.noDriver'))).toBeTruthy();
    expect(onError).toHaveBeenCalledWith('noDriver');
    expect(onRead).not.toHaveBeenCalled();
  });
});
