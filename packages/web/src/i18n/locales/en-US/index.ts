import type { UiCatalogue } from '../zh-CN';
import common from './common';
import request from './request';
import shell from './shell';
import menu from './menu';
import auth from './auth';
import kit from './kit';
import upload from './upload';
import organization from './organization';
import systemUser from './systemUser';
import provider from './provider';
import profile from './profile';
import role from './role';
import systemLog from './systemLog';
import message from './message';
import agreement from './agreement';

export const enUS: UiCatalogue = {
  common,
  request,
  shell,
  menu,
  auth,
  kit,
  upload,
  organization,
  systemUser,
  provider,
  profile,
  role,
  systemLog,
  message,
  agreement,
};
