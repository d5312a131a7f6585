import { z } from 'zod';
import { dictEntry } from './common.js';
import { crud, endpoint, optText, timeFilter } from '../endpoint.js';

export const systemLogDto = z.object({
  id: z.number(),
  operation: z.string(),
  operator: z.string().nullable(),
  operand: z.string(),
  method: z.string(),
  path: z.string(),
  ip: z.string().nullable(),
  result: z.number(),
  msg: z.string().nullable(),
  mode: z.string(),
  durationMs: z.number().nullable(),
  providerId: z.number().nullable(),
  createTime: z.string(),
});
export const systemLogDetail = systemLogDto.extend({ request: z.unknown() });

export const systemLogFilter = z.object({
  operation: optText(32),
  operator: optText(64),
  operand: optText(255),
  result: z.coerce.number().int().optional(),
  startTime: timeFilter,
  endTime: timeFilter,
});

const c = crud('systemLog', 'system:log', '/web/logs');

/** System log screen; list, search and operation types as spec §7 names them, detail and export keep the prefix. */
export const systemLogApi = {
  list: c.list(systemLogFilter, systemLogDto, { path: 'getOperateLogs' }),
  search: c.search(systemLogFilter, systemLogDto, { path: 'findOperateLogs' }),
  operations: endpoint({
    method: 'POST',
    path: c.path('getOperateDescription'),
    access: c.permi('list'),
    resource: 'systemLog',
    mutation: false,
    data: z.array(dictEntry),
    summary: 'Operation types with labels in the caller language (dictionary entries)',
  }),
  get: c.get(systemLogDetail, { path: 'getOperateLog' }),
  export: c.export(systemLogFilter, { path: 'exportOperateLogs' }),
};
