import type { UiCatalogue } from '../zh-CN';
import common from './common';
import request from './request';
import shell from './shell';
import menu from './menu';
import auth from './auth';
import kit from './kit';
import upload from './upload';
import richText from './richText';
import errorLog from './errorLog';
import organization from './organization';
import systemUser from './systemUser';
import provider from './provider';
import profile from './profile';
import role from './role';
import systemLog from './systemLog';
import message from './message';
import agreement from './agreement';
import price from './price';
import station, { point } from './station';
import cards from './cards';
import records from './records';
import cardReader from './cardReader';
import monitor from './monitor';
import ocpp from './ocpp';
import smart from './smart';
import reservation from './reservation';
import workOrder, { serviceArea } from './workOrder';
import material, { materialApply } from './material';
import { corporateTransfer, invoice, transferRecord } from './finance';
import apply from './apply';
import warn, { stationWeather } from './warn';
import operations from './operations';
import maintenance from './maintenance';
import maintainRecords from './maintainRecords';
import largeScreen from './largeScreen';
import statsReport from './statsReport';

export const enUS: UiCatalogue = {
  common,
  request,
  shell,
  menu,
  auth,
  kit,
  upload,
  richText,
  errorLog,
  organization,
  systemUser,
  provider,
  profile,
  role,
  systemLog,
  message,
  agreement,
  price,
  station,
  point,
  ...cards,
  ...records,
  cardReader,
  monitor,
  ocppLog: ocpp,
  ...smart,
  reservation,
  workOrder,
  serviceArea,
  material,
  materialApply,
  corporateTransfer,
  transferRecord,
  invoice,
  apply,
  warn,
  stationWeather,
  ...operations,
  ...maintenance,
  ...maintainRecords,
  largeScreen,
  ...statsReport,
};
