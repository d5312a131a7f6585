import type { UiCatalogue } from '../zh-CN';
import common from './common';
import request from './request';
import shell from './shell';
import menu from './menu';
import auth from './auth';
import kit from './kit';
import upload from './upload';
import organization from './organization';

export const enUS: UiCatalogue = { common, request, shell, menu, auth, kit, upload, organization };
