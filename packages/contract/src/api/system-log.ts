import { z } from 'zod';
import { dictEntry } from './common.js';
import { endpoint, exportOptions, idQuery, listOf, optText, pageQuery, timeFilter } from '../endpoint.js';

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

const base = '/web/logs';
const permi = (action: string) => ({ permi: `system:log:${action}` });

/** System log screen; list, search and operation types as spec §7 names them, detail and export keep the prefix. */
export const systemLogApi = {
  list: endpoint({
    method: 'GET',
    path: `${base}/getOperateLogs`,
    access: permi('list'),
    resource: 'systemLog',
    query: pageQuery.extend(systemLogFilter.shape),
    data: listOf(systemLogDto),
  }),
  search: endpoint({
    method: 'POST',
    path: `${base}/findOperateLogs`,
    access: permi('list'),
    resource: 'systemLog',
    mutation: false,
    body: pageQuery.extend(systemLogFilter.shape),
    data: listOf(systemLogDto),
  }),
  operations: endpoint({
    method: 'POST',
    path: `${base}/getOperateDescription`,
    access: permi('list'),
    resource: 'systemLog',
    mutation: false,
    data: z.array(dictEntry),
    summary: 'Operation types with labels in the caller language (dictionary entries)',
  }),
  get: endpoint({
    method: 'GET',
    path: `${base}/getOperateLog`,
    access: permi('query'),
    resource: 'systemLog',
    query: idQuery,
    data: systemLogDetail,
  }),
  export: endpoint({
    method: 'POST',
    path: `${base}/exportOperateLogs`,
    access: permi('export'),
    resource: 'systemLog',
    operation: 'export',
    mutation: false,
    body: systemLogFilter.extend(exportOptions.shape),
    raw: 'download',
  }),
};
