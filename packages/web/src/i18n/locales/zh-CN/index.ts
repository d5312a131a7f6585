import common from './common';
import request from './request';
import shell from './shell';
import menu from './menu';
import auth from './auth';
import kit from './kit';
import upload from './upload';
import organization from './organization';

/** Console copy in Chinese. Each area adds one file here; en-US must mirror it key for key. */
export const zhCN = { common, request, shell, menu, auth, kit, upload, organization };

type Strings<T> = { [K in keyof T]: T[K] extends string ? string : Strings<T[K]> };
export type UiCatalogue = Strings<typeof zhCN>;
