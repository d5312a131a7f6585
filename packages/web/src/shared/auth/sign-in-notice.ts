const KEY = 'sign-in-notice';

/**
 * Why the user was sent back to the sign-in page (a disabled role, a failed verification),
 * shown by that page: the console's own toasts do not survive leaving it for the sign-in page,
 * which is drawn without antd.
 */
export const signInNotice = {
  set(text: string) {
    sessionStorage.setItem(KEY, text);
  },
  take(): string | undefined {
    const text = sessionStorage.getItem(KEY) ?? undefined;
    sessionStorage.removeItem(KEY);
    return text;
  },
};
