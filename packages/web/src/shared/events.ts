import { commonApi } from '@csms/contract';
import { API_BASE } from './api/client';

/** One server-sent event: `type` names it, the rest is its payload. */
export interface ServerEvent {
  type: string;
  [key: string]: unknown;
}
export type EventHandler<E extends ServerEvent = ServerEvent> = (event: E) => void;

export const EVENTS_URL = `${API_BASE}${commonApi.events.path}`;
/**
 * A pseudo event delivered to its subscribers when the stream opens again after a break (the
 * browser's retry or our reconnect): events may have been missed, so live views refetch.
 */
export const STREAM_REOPENED = 'stream.reopened';
const MAX_BACKOFF_MS = 30_000;

const handlers = new Map<string, Set<EventHandler>>();
let source: EventSource | null = null;
let retries = 0;
let retryTimer: ReturnType<typeof setTimeout> | undefined;
/** Whether the stream has been open since the first subscriber came (a later open is a reopen). */
let opened = false;

function dispatch(raw: string, eventName?: string) {
  let payload: unknown;
  try {
    payload = JSON.parse(raw);
  } catch {
    return;
  }
  if (payload === null || typeof payload !== 'object') return;
  const event = payload as ServerEvent;
  const type = typeof event.type === 'string' ? event.type : eventName;
  if (!type) return;
  for (const h of handlers.get(type) ?? []) h({ ...event, type });
}

/** The server may name events (`event: export.progress`) or put `type` in the data; both reach the same handlers. */
function listenNamed(es: EventSource, type: string) {
  es.addEventListener(type, (e) => dispatch((e as MessageEvent<string>).data, type));
}

function open() {
  if (source || typeof EventSource === 'undefined') return;
  const es = new EventSource(EVENTS_URL, { withCredentials: true });
  source = es;
  es.onopen = () => {
    retries = 0;
    if (opened) for (const h of handlers.get(STREAM_REOPENED) ?? []) h({ type: STREAM_REOPENED });
    opened = true;
  };
  es.onmessage = (e: MessageEvent<string>) => dispatch(e.data);
  es.onerror = () => {
    // The browser retries by itself while CONNECTING; a CLOSED stream (401, proxy error) is ours to reopen.
    if (es.readyState !== EventSource.CLOSED) return;
    if (source === es) source = null;
    scheduleReconnect();
  };
  for (const type of handlers.keys()) listenNamed(es, type);
}

function scheduleReconnect() {
  clearTimeout(retryTimer);
  if (handlers.size === 0) return;
  const delay = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** retries);
  retries += 1;
  retryTimer = setTimeout(open, delay);
}

/**
 * Listen to one event type on the tab's single event stream (GET /prod-api/web/events, cookie
 * authenticated). The stream opens with the first subscriber and closes with the last.
 */
export function subscribe<E extends ServerEvent = ServerEvent>(type: string, handler: EventHandler<E>): () => void {
  let set = handlers.get(type);
  if (!set) {
    set = new Set();
    handlers.set(type, set);
    if (source) listenNamed(source, type);
  }
  set.add(handler as EventHandler);
  open();
  return () => {
    const current = handlers.get(type);
    current?.delete(handler as EventHandler);
    if (current && current.size === 0) handlers.delete(type);
    if (handlers.size === 0) closeEvents();
  };
}

/** Close the stream (sign-out, or no subscriber left). */
export function closeEvents() {
  clearTimeout(retryTimer);
  source?.close();
  source = null;
  retries = 0;
  opened = false;
}
