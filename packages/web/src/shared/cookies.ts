import Cookies from 'js-cookie';

/** Cookie names of spec §3. */
export const cookieKeys = {
  token: 'Admin-Token',
  loginName: 'Login-Name',
  language: 'language',
  size: 'size',
  sidebarStatus: 'sidebarStatus',
} as const;

export const getToken = () => Cookies.get(cookieKeys.token);
export const setToken = (token: string) => Cookies.set(cookieKeys.token, token, { sameSite: 'strict' });
export const removeToken = () => Cookies.remove(cookieKeys.token);

export const getCookie = (key: string) => Cookies.get(key);
export const setCookie = (key: string, value: string) => Cookies.set(key, value, { sameSite: 'strict', expires: 365 });
export const removeCookie = (key: string) => Cookies.remove(key);
