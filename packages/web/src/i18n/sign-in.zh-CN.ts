import { signInZh as vocabulary } from '@csms/contract';
import agreement from './locales/zh-CN/agreement';
import auth from './locales/zh-CN/auth';
import common from './locales/zh-CN/common';
import request from './locales/zh-CN/request';
import shell from './locales/zh-CN/shell';

/**
 * What the pages drawn without antd (sign-in, 404, the agreement pages; app/plain-pages.ts) show in
 * Chinese: a small part of ./catalogue.zh-CN.ts, which the console loads after it (./index.ts).
 */
export const catalogue = { translation: { ...vocabulary, agreement, auth, common, request, shell } };
