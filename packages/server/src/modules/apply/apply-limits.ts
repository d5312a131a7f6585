import type { WindowLimiter } from '../auth/window-limit.js';

/** The public application form's limits (per client IP, per e-mail, licence uploads per IP). */
export function createApplyLimiter({ windows }: { windows: WindowLimiter }) {
  return {
    /** An application from `ip` (per hour). */
    fromAddress: (ip: string, max: number) => windows.take(`apply:ip:${ip}`, max, 3600),
    /** An application for `email` (per day). */
    forEmail: (email: string, max: number) => windows.take(`apply:email:${email.toLowerCase()}`, max, 86_400),
    /** A licence image uploaded from `ip` (per hour). */
    upload: (ip: string, max: number) => windows.take(`applyUpload:ip:${ip}`, max, 3600),
  };
}
