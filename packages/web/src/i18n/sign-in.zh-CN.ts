import { signInZh as vocabulary } from '@csms/contract';
import auth from './locales/zh-CN/auth';
import common from './locales/zh-CN/common';
import request from './locales/zh-CN/request';
import shell from './locales/zh-CN/shell';

/** What the sign-in page shows in Chinese: a small part of ./catalogue.zh-CN.ts, which the console loads after it (./index.ts). */
export const catalogue = { translation: { ...vocabulary, auth, common, request, shell } };
