import { z } from 'zod';
import { crud } from '../endpoint.js';

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

const c = crud('organization', 'system:organization', '/web/organizationManage');

/** Organisations: the spec names create, query and edit; get, delete and export keep its prefix and style. */
export const organizationApi = {
  list: c.list(organizationFilter, organization, { path: 'queryOrganizations' }),
  get: c.get(organization, { path: 'getOrganization' }),
  add: c.add(organizationCreate, organization, { path: 'createOrg' }),
  edit: c.edit(organizationEdit, organization, { path: 'editOrganization' }),
  remove: c.remove({ path: 'deleteOrganization' }),
  export: c.export(organizationFilter, { path: 'exportOrganizations' }),
};
