import { z } from 'zod';
import { endpoint, exportOptions, idsBody, listOf, pageQuery } from '../endpoint.js';

export const organization = z.object({
  id: z.number(),
  orgName: z.string(),
  description: z.string().nullable(),
  providerId: z.number(),
  providerName: z.string(),
  roleCount: z.number(),
  createTime: z.string(),
});
export type Organization = z.infer<typeof organization>;

export const organizationFilter = z.object({
  orgName: z.string().trim().max(50).optional(),
});

export const organizationCreate = z.object({
  orgName: z.string().trim().min(1).max(50),
  description: z.string().trim().max(500).optional(),
});

export const organizationEdit = organizationCreate.extend({ id: z.number().int().positive() });

const base = '/web/organizationManage';
const permi = (action: string) => ({ permi: `system:organization:${action}` });

/** Organisations: the spec names create, query and edit; get, delete and export keep its prefix and style. */
export const organizationApi = {
  list: endpoint({
    method: 'GET',
    path: `${base}/queryOrganizations`,
    access: permi('list'),
    resource: 'organization',
    query: pageQuery.extend(organizationFilter.shape),
    data: listOf(organization),
  }),
  get: endpoint({
    method: 'GET',
    path: `${base}/getOrganization`,
    access: permi('query'),
    resource: 'organization',
    query: z.object({ id: z.coerce.number().int().positive() }),
    data: organization,
  }),
  add: endpoint({
    method: 'POST',
    path: `${base}/createOrg`,
    access: permi('add'),
    resource: 'organization',
    operation: 'add',
    body: organizationCreate,
    data: organization,
  }),
  edit: endpoint({
    method: 'POST',
    path: `${base}/editOrganization`,
    access: permi('edit'),
    resource: 'organization',
    operation: 'edit',
    body: organizationEdit,
    data: organization,
  }),
  remove: endpoint({
    method: 'POST',
    path: `${base}/deleteOrganization`,
    access: permi('remove'),
    resource: 'organization',
    operation: 'remove',
    body: idsBody,
    data: z.object({ removed: z.number() }),
  }),
  export: endpoint({
    method: 'POST',
    path: `${base}/exportOrganizations`,
    access: permi('export'),
    resource: 'organization',
    operation: 'export',
    mutation: false,
    body: organizationFilter.extend(exportOptions.shape),
    raw: 'download',
  }),
};
