import type { UserInfo } from '@csms/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App, Form, type FormInstance } from 'antd';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { expect, vi } from 'vitest';
import { setSession } from '../auth/session';

/** jsdom lacks what antd's responsive parts ask for. */
export function polyfillDom() {
  // jsdom's getComputedStyle matches the element against every CSS rule on the page (antd's
  // CSS-in-JS injects some 2,000) on each call, and antd asks on every render (table widths, form
  // margins, every ancestor of an opening popup): it was most of the suite's time. jsdom lays
  // nothing out, so no answer here depends on the cascade: an element's style is its inline style
  // (pseudo-elements, which jsdom cannot style, included). What is hidden by a class is therefore
  // not hidden to Testing Library's role queries: tests find such things by CSS or by test id.
  const empty = document.createElement('div').style;
  window.getComputedStyle = ((elt: Element) => (elt as HTMLElement).style ?? empty) as typeof window.getComputedStyle;
  // No canvas in jsdom: image thumbnails simply do not draw.
  HTMLCanvasElement.prototype.getContext = (() => null) as typeof HTMLCanvasElement.prototype.getContext;
  // No layout in jsdom: the rich-text editor (ProseMirror) measures ranges to scroll the caret into view.
  const noRects = () => Object.assign([], { item: () => null }) as unknown as DOMRectList;
  const emptyRect = () => new DOMRect(0, 0, 0, 0);
  Range.prototype.getClientRects ??= noRects;
  Range.prototype.getBoundingClientRect ??= emptyRect;
  if (!('getClientRects' in Text.prototype)) Object.assign(Text.prototype, { getClientRects: noRects });
  document.elementFromPoint ??= () => null;
  if (typeof window.ResizeObserver === 'undefined') {
    window.ResizeObserver = class {
      observe() {}
      unobserve() {}
      disconnect() {}
    } as unknown as typeof ResizeObserver;
  }
  if (!window.matchMedia) {
    window.matchMedia = (query: string) =>
      ({
        matches: false,
        media: query,
        onchange: null,
        addListener: () => {},
        removeListener: () => {},
        addEventListener: () => {},
        removeEventListener: () => {},
        dispatchEvent: () => false,
      }) as MediaQueryList;
  }
}

/** A signed-in administrator (every permission check passes). */
export function signInAdmin() {
  setSession({ roles: ['admin'], permissions: ['*:*:*'], providerId: 1, providerName: 'P', isShowProvider: true } as unknown as UserInfo);
}

export type Reply = (url: URL, init?: RequestInit) => unknown;

/** Replace fetch: `reply` answers with an envelope body (or a Response). */
export function mockFetch(reply: Reply) {
  const fn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const body = reply(url, init);
    if (body instanceof Response) return body;
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fn);
  return fn;
}

export function renderWithProviders(ui: ReactNode, url = '/') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[url]}>
        <App>{ui}</App>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

/** Untranslated catalogue keys left in rendered text (`fields.x.y`, `kit.total`, …). */
export function rawKeys(text: string): string[] {
  return text.match(/\b(fields|enums|errors|validation|kit|common|upload|organization|request)\.[A-Za-z]+(\.[A-Za-z]+)*/g) ?? [];
}

// Buttons and dialogs found by CSS: the suite's getComputedStyle sees inline styles only (polyfillDom),
// so what antd hides by a class is not hidden to role queries.

/** The button whose text is `label` (spaces ignored: antd spaces two-character Chinese labels). */
export const buttonByText = (label: string, scope: ParentNode = document.body) =>
  [...scope.querySelectorAll('button')].find((b) => b.textContent?.replace(/\s/g, '') === label.replace(/\s/g, ''))!;

/** The dialog the page opened. */
export const dialogShown = () =>
  waitFor(() => {
    const dialog = document.querySelector<HTMLElement>('.ant-modal[role=dialog]');
    if (!dialog) throw new Error('no dialog open');
    return dialog;
  });

/** Opens an antd select by its label and chooses an option by its text. */
export async function chooseByLabel(container: HTMLElement, label: string, option: string) {
  const input = within(container).getByLabelText(label);
  // A picker waits for the one above it (the point for the station, …).
  await waitFor(() => expect(input.hasAttribute('disabled')).toBe(false));
  fireEvent.mouseDown(input);
  const options = await screen.findAllByText(option, { selector: '.ant-select-item-option-content, .ant-select-item-option-content *' });
  fireEvent.click(options[options.length - 1]!);
}

/**
 * Renders `ui` and collects its named forms (`<resource>-form`) as soon as a field of theirs
 * changes, for tests that set a form's values directly instead of driving every picker.
 */
export function renderCapturingForms(ui: ReactNode, url?: string) {
  const forms: Record<string, FormInstance> = {};
  const view = renderWithProviders(<Form.Provider onFormChange={(_, info) => Object.assign(forms, info.forms)}>{ui}</Form.Provider>, url);
  return { ...view, forms };
}
