import { signInEn as vocabulary } from '@csms/contract';
import auth from './locales/en-US/auth';
import common from './locales/en-US/common';
import request from './locales/en-US/request';
import shell from './locales/en-US/shell';

/** What the sign-in page shows in English: a small part of ./catalogue.en-US.ts, which the console loads after it (./index.ts). */
export const catalogue = { translation: { ...vocabulary, auth, common, request, shell } };
