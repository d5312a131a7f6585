import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LoginLangMenu } from '../../app/layout/login-lang-menu';
import { signInNotice } from '../../shared/auth/sign-in-notice';
import LoginPage from './login-page';

const reply = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });

/** Base64 of the PNGs the server sends (their first bytes are enough here): a new one per request. */
const pngs = ['iVBORw0KGgoAAAANSUhEUgAAAPA', 'iVBORw0KGgoAAAANSUhEUgAAAPB', 'iVBORw0KGgoAAAANSUhEUgAAAPC'];

function mockServer(login: unknown) {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      calls.push(url);
      if (url.includes('/captchaImage')) {
        const n = calls.filter((u) => u.includes('/captchaImage')).length;
        return reply({ code: 200, msg: 'ok', captchaEnabled: true, uuid: `u${n}`, img: pngs[(n - 1) % pngs.length] });
      }
      return reply(login);
    }),
  );
  return calls;
}

function renderLogin() {
  return render(
    <MemoryRouter initialEntries={['/login']}>
      <LoginPage toolbar={<LoginLangMenu />} />
    </MemoryRouter>,
  );
}

describe('sign-in screen', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows the captcha when enabled and the expired-account message for systemUserStatus 0', async () => {
    const calls = mockServer({ code: 200, msg: 'ok', data: { systemUserStatus: 0 } });
    renderLogin();
    const img = await screen.findByAltText('Hard to read? Click to refresh');
    expect(img.getAttribute('src')).toBe(`data:image/png;base64,${pngs[0]}`);
    fireEvent.change(screen.getByPlaceholderText('Account'), { target: { value: '  admin ' } });
    fireEvent.change(screen.getByPlaceholderText('Password'), { target: { value: 'secret' } });
    fireEvent.change(screen.getByPlaceholderText('Captcha'), { target: { value: 'abcd' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: /Sign in/ }));
    });
    expect(await screen.findByText('Your back-office account has expired, please contact after-sales')).toBeTruthy();
    const loginCall = (fetch as unknown as { mock: { calls: [string, RequestInit][] } }).mock.calls.find(([u]) => u.includes('/web/login'));
    expect(JSON.parse(String(loginCall?.[1].body))).toEqual({ username: 'admin', password: 'secret', code: 'abcd', uuid: 'u1' });
    // a failed sign-in fetches a new captcha
    await waitFor(() => expect(calls.filter((u) => u.includes('/captchaImage')).length).toBe(2));
  });

  it('a click on the captcha shows a new one and sends its uuid', async () => {
    mockServer({ code: 200, msg: 'ok', data: { systemUserStatus: 0 } });
    renderLogin();
    const img = await screen.findByAltText('Hard to read? Click to refresh');
    expect(img.getAttribute('src')).toBe(`data:image/png;base64,${pngs[0]}`);
    fireEvent.change(screen.getByPlaceholderText('Captcha'), { target: { value: 'abcd' } });
    await act(async () => {
      fireEvent.click(img);
    });
    await waitFor(() => expect(img.getAttribute('src')).toBe(`data:image/png;base64,${pngs[1]}`));
    // The old answer is cleared with the old picture.
    expect((screen.getByPlaceholderText('Captcha') as HTMLInputElement).value).toBe('');
    fireEvent.change(screen.getByPlaceholderText('Account'), { target: { value: 'admin' } });
    fireEvent.change(screen.getByPlaceholderText('Password'), { target: { value: 'secret' } });
    fireEvent.change(screen.getByPlaceholderText('Captcha'), { target: { value: 'wxyz' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: /Sign in/ }));
    });
    const loginCall = await waitFor(() => {
      const found = (fetch as unknown as { mock: { calls: [string, RequestInit][] } }).mock.calls.find(([u]) => u.includes('/web/login'));
      expect(found).toBeTruthy();
      return found!;
    });
    expect(JSON.parse(String(loginCall[1].body))).toMatchObject({ code: 'wxyz', uuid: 'u2' });
  });

  it('says why when the server refuses a captcha, keeps the field, and draws one on the next click', async () => {
    const refusal = 'Too many captcha requests from this address, please try again in 1 minutes';
    let refuse = true;
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        reply(refuse ? { code: 409, msg: refusal } : { code: 200, msg: 'ok', captchaEnabled: true, uuid: 'u9', img: pngs[2] }),
      ),
    );
    renderLogin();
    expect((await screen.findByRole('alert')).textContent).toBe(refusal);
    expect(screen.queryByAltText('Hard to read? Click to refresh')).toBeNull();
    expect(screen.getByPlaceholderText('Captcha')).toBeTruthy();
    refuse = false;
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Hard to read? Click to refresh' }));
    });
    const img = await screen.findByAltText('Hard to read? Click to refresh');
    expect(img.getAttribute('src')).toBe(`data:image/png;base64,${pngs[2]}`);
  });

  it('asks for the account with the contract message', async () => {
    mockServer({ code: 200, msg: 'ok', data: null });
    renderLogin();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: /Sign in/ }));
    });
    expect(await screen.findByText('Account is required')).toBeTruthy();
  });

  it('says why the console sent the user back, once, and shows or hides the password', async () => {
    mockServer({ code: 200, msg: 'ok', data: null });
    signInNotice.set('Account has been disabled, please contact the system administrator');
    renderLogin();
    expect((await screen.findByRole('alert')).textContent).toBe('Account has been disabled, please contact the system administrator');
    expect(signInNotice.take()).toBeUndefined();
    const password = screen.getByPlaceholderText('Password') as HTMLInputElement;
    expect(password.type).toBe('password');
    fireEvent.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password.type).toBe('text');
    fireEvent.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(password.type).toBe('password');
  });

  it('offers both languages, the current one checked, and closes on Escape', async () => {
    mockServer({ code: 200, msg: 'ok', data: null });
    renderLogin();
    fireEvent.click(screen.getByRole('button', { name: 'Language' }));
    const items = screen.getAllByRole('menuitemradio');
    expect(items.map((i) => [i.textContent, i.getAttribute('aria-checked')])).toEqual([
      ['中文', 'false'],
      ['English', 'true'],
    ]);
    await waitFor(() => expect(document.activeElement).toBe(items[1]));
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
  });
});
