import { signInEn as vocabulary } from '@csms/contract';
import agreement from './locales/en-US/agreement';
import auth from './locales/en-US/auth';
import common from './locales/en-US/common';
import request from './locales/en-US/request';
import shell from './locales/en-US/shell';

/**
 * What the pages drawn without antd (sign-in, 404, the agreement pages; app/plain-pages.ts) show in
 * English: a small part of ./catalogue.en-US.ts, which the console loads after it (./index.ts).
 */
export const catalogue = { translation: { ...vocabulary, agreement, auth, common, request, shell } };
