import Cookies from 'js-cookie';

/** Cookie names of spec §3. */
export const cookieKeys = {
  token: 'Admin-Token',
  loginName: 'Login-Name',
  language: 'language',
  size: 'size',
  sidebarStatus: 'sidebarStatus',
} as const;

/**
 * The session token the console sends in its headers, kept from the sign-in answer. The server's
 * `Admin-Token` cookie (HttpOnly: script cannot read it) only serves what the browser opens by
 * itself: the event stream and file links.
 */
const TOKEN_KEY = cookieKeys.token;
export const getToken = () => window.localStorage.getItem(TOKEN_KEY) ?? undefined;
export const setToken = (token: string) => window.localStorage.setItem(TOKEN_KEY, token);
export const removeToken = () => window.localStorage.removeItem(TOKEN_KEY);

export const getCookie = (key: string) => Cookies.get(key);
export const setCookie = (key: string, value: string) => Cookies.set(key, value, { sameSite: 'strict', expires: 365 });
export const removeCookie = (key: string) => Cookies.remove(key);
