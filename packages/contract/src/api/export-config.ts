import { z } from 'zod';
import { endpoint } from '../endpoint.js';

/**
 * Columns each export offers, in default order; the export configuration picks and orders a
 * subset per provider. Labels are `fields.<source>.<column>` (or `fields.common.<column>`).
 */
export const exportColumns = {
  organization: ['id', 'orgName', 'description', 'providerName', 'roleCount', 'createTime'],
  systemUser: ['id', 'username', 'name', 'phone', 'email', 'roleName', 'providerName', 'status', 'lastLoginTime', 'createTime'],
  systemLog: ['id', 'operation', 'operator', 'operand', 'ip', 'result', 'msg', 'mode', 'createTime'],
  message: ['msgId', 'title', 'content', 'createTime'],
} as const satisfies Record<string, readonly string[]>;
export type ExportSource = keyof typeof exportColumns;
export const exportSources = Object.keys(exportColumns) as ExportSource[];

const source = z.enum(exportSources as [ExportSource, ...ExportSource[]]);

export const exportConfigDto = z.object({
  exportSource: source,
  exportItemList: z.array(z.string()),
  /** Every column the export offers, in default order. */
  available: z.array(z.string()),
  /** False when the provider stored nothing and the defaults apply. */
  configured: z.boolean(),
});

export const exportConfigApi = {
  save: endpoint({
    method: 'POST',
    path: '/web/config/exportConfig',
    access: { permi: 'system:exportConfig:edit' },
    resource: 'exportConfig',
    operation: 'edit',
    body: z.object({ exportSource: source, exportItemList: z.array(z.string().max(64)).min(1).max(100) }),
    data: exportConfigDto,
  }),
  get: endpoint({
    method: 'GET',
    path: '/web/config/getExportConfig',
    access: 'session',
    resource: 'exportConfig',
    query: z.object({ exportSource: source }),
    data: exportConfigDto,
  }),
};
