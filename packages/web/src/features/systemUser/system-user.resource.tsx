import {
  passwordSchema,
  systemUserCreate,
  systemUserResetPwd,
  type PasswordPolicy,
  type SystemUserDto,
  systemUserApi,
} from '@csms/contract';
import { call } from '../../shared/api/client';
import { confirmAction } from '../../shared/resource/row-actions';
import { defineResource } from '../../shared/resource/types';
import { roleOptions, boundStationOptions, providerOptions } from './options';
import { StationNames } from './station-names';

const permi = (action: string) => `system:user:${action}`;

const setStatus = (status: 0 | 1) => (row: SystemUserDto) => call(systemUserApi.status, { body: { id: row.id, status } });

/**
 * System users (spec §3): account, role, provider, contact, avatar, status and last sign-in.
 * Passwords follow the server's rule (`policy`, from the user info).
 */
export const systemUserResource = (policy: PasswordPolicy) =>
  defineResource({
    name: 'systemUser',
    api: {
      list: systemUserApi.list,
      add: systemUserApi.add,
      edit: systemUserApi.edit,
      remove: systemUserApi.remove,
      export: systemUserApi.export,
    },
    // No get endpoint: detail needs its own permission rather than list's.
    permissions: { query: permi('query') },
    // Users whose role grants more than the caller holds, and the built-in admin for anyone but itself,
    // are the server's to refuse (DESIGN.md §5); their changes aren't offered.
    rowReadOnly: (row) => !row.manageable,
    // The server refuses to delete the seeded administrator; don't offer it.
    rowRemovable: (row) => row.username !== 'admin',
    columns: [
      { key: 'id', width: 80, sorter: true, defaultHidden: true },
      { key: 'username', width: 140, sorter: true },
      { key: 'name', width: 120 },
      { key: 'roleName', width: 130 },
      { key: 'providerName', width: 150 },
      { key: 'phone', width: 140 },
      { key: 'email', width: 180, ellipsis: true },
      { key: 'avatar', kind: 'image', width: 80, defaultHidden: true },
      { key: 'status', dict: 'userStatus', width: 90 },
      { key: 'isChargeUser', dict: 'yesNo', width: 100, defaultHidden: true },
      { key: 'stationIds', width: 200, ellipsis: true, render: (v) => <StationNames ids={v as number[]} /> },
      { key: 'lastLoginTime', kind: 'datetime', width: 170, sorter: true },
      { key: 'createTime', kind: 'datetime', width: 170, sorter: true },
    ],
    search: [
      { key: 'username', kind: 'text' },
      { key: 'phone', kind: 'text' },
      { key: 'providerId', kind: 'select', remote: providerOptions },
      { key: 'status', kind: 'dict', dict: 'userStatus' },
    ],
    form: [
      {
        key: 'username',
        kind: 'text',
        readOnlyOn: 'edit',
        validate: async (value, { mode, t }) => {
          if (mode !== 'create') return null;
          const taken = await call(systemUserApi.usernameExists, { query: { userName: String(value) } }, { silent: true }).catch(
            () => false,
          );
          return taken ? t('errors.systemUser.usernameTaken', { name: String(value).trim() }) : null;
        },
      },
      { key: 'password', kind: 'password', on: 'create' },
      { key: 'roleId', kind: 'select', remote: roleOptions },
      { key: 'providerId', kind: 'select', remote: providerOptions },
      { key: 'name', kind: 'text' },
      {
        key: 'phone',
        kind: 'text',
        validate: async (value, { record, t }) => {
          const phone = String(value).trim();
          if (record?.phone === phone) return null;
          const taken = await call(systemUserApi.phoneExists, { query: { phoneNumber: phone } }, { silent: true }).catch(() => false);
          return taken ? t('errors.systemUser.phoneTaken', { phone }) : null;
        },
      },
      { key: 'email', kind: 'text' },
      { key: 'avatar', kind: 'image', props: { limit: 1 } },
      // Bound stations: none means all of the provider's stations (DESIGN.md §9).
      {
        key: 'stationIds',
        kind: 'select',
        remote: boundStationOptions,
        span: 24,
        props: { mode: 'multiple', maxTagCount: 'responsive' },
        extra: () => 'station.boundStationsHint',
      },
    ],
    rowActions: [
      confirmAction<SystemUserDto>({
        key: 'disable',
        label: 'systemUser.disable',
        permi: [permi('status')],
        danger: true,
        // The server refuses to disable the seeded administrator; don't offer it.
        hidden: (row) => !row.manageable || row.status !== 1 || row.username === 'admin',
        content: 'systemUser.disableConfirm',
        params: (row) => ({ name: row.username }),
        run: setStatus(0),
      }),
      confirmAction<SystemUserDto>({
        key: 'enable',
        label: 'systemUser.enable',
        permi: [permi('status')],
        hidden: (row) => !row.manageable || row.status === 1,
        content: 'systemUser.enableConfirm',
        params: (row) => ({ name: row.username }),
        run: setStatus(1),
      }),
      {
        key: 'resetPwd',
        label: 'systemUser.resetPwd',
        permi: [permi('resetPwd')],
        hidden: (row) => !row.manageable,
        onClick: (row, ctx) =>
          ctx.prompt({
            title: 'systemUser.resetPwd',
            field: 'password',
            kind: 'password',
            schema: systemUserResetPwd.extend({ password: passwordSchema(policy) }),
            base: { id: row.id },
            success: 'systemUser.resetPwdDone',
            onOk: async (password) => {
              await call(systemUserApi.resetPwd, { body: { id: row.id, password } });
            },
          }),
      },
      confirmAction<SystemUserDto>({
        key: 'chargeUser',
        label: 'systemUser.setChargeUser',
        permi: [permi('chargeUser')],
        hidden: (row) => !row.manageable || row.isChargeUser,
        content: 'systemUser.setChargeUserConfirm',
        params: (row) => ({ name: row.username }),
        // Without a phone the server refuses with its reason, which the client shows.
        run: (row) => call(systemUserApi.chargeUserRel, { body: { id: row.id, isChargeUser: true } }),
      }),
    ],
    formSchema: { create: systemUserCreate.extend({ password: passwordSchema(policy) }) },
  });
