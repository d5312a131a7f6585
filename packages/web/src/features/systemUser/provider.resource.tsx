import { type ProviderDto, providerApi } from '@csms/contract';
import { useTranslation } from 'react-i18next';
import { call } from '../../shared/api/client';
import { formatDateTime } from '../../shared/resource/cells';
import { defineResource, type FormFieldCtx } from '../../shared/resource/types';
import { providerOptions } from './options';

const permi = (action: string) => `system:provider:${action}`;
type Values = Record<string, unknown>;

/** The super provider sits at the root: no parent, never expires. */
const isRootRecord = ({ record }: FormFieldCtx) => record?.providerType === 'super';

/**
 * Providers (tenants, DESIGN.md §9). Adding one, and its place in the tree, validity and licence
 * count, belong to the super provider's users: for others those controls are left out (the
 * server refuses them anyway).
 */
export function providerResource(superUser: boolean) {
  const superOnly = () => superUser;
  return defineResource({
    name: 'provider',
    keepProviderColumns: true,
    api: {
      list: providerApi.search,
      get: providerApi.get,
      edit: providerApi.edit,
      ...(superUser ? { add: providerApi.add } : {}),
    },
    columns: [
      { key: 'id', width: 80, sorter: true, defaultHidden: true },
      { key: 'providerName', width: 160, sorter: true },
      { key: 'providerType', dict: 'providerType', width: 130 },
      { key: 'parentName', width: 150 },
      { key: 'contact', width: 110 },
      { key: 'phone', width: 140 },
      { key: 'email', width: 180, ellipsis: true },
      {
        key: 'expirationTime',
        kind: 'datetime',
        width: 170,
        sorter: true,
        render: (v) => (v ? formatDateTime(v) : <NeverExpires />),
      },
      { key: 'authCount', width: 110, sorter: true },
      { key: 'userCount', width: 90, defaultHidden: true },
      { key: 'logoPath', kind: 'image', width: 80, defaultHidden: true },
      { key: 'mailAccount', width: 180, hideInTable: true },
      { key: 'smtpAddress', hideInTable: true },
      { key: 'smtpPort', hideInTable: true },
      { key: 'autoLocalListSync', dict: 'yesNo', hideInTable: true },
      { key: 'disclaimer', kind: 'html', hideInTable: true, wide: true },
      { key: 'privacyAgreement', kind: 'html', hideInTable: true, wide: true },
      { key: 'createTime', kind: 'datetime', width: 170, defaultHidden: true },
    ],
    search: [
      { key: 'providerName', kind: 'text' },
      { key: 'providerType', kind: 'dict', dict: 'providerType' },
      { key: 'contact', kind: 'text' },
      { key: 'phone', kind: 'text' },
    ],
    form: [
      { key: 'providerName', kind: 'text' },
      { key: 'parentId', kind: 'select', remote: providerOptions, visible: (ctx) => superOnly() && !isRootRecord(ctx) },
      {
        key: 'expiration',
        kind: 'dict',
        dict: 'providerValidity',
        visible: (ctx) => superOnly() && !isRootRecord(ctx),
        extra: ({ mode }) => (mode === 'edit' ? 'provider.expirationRenew' : undefined),
      },
      { key: 'authCount', kind: 'number', visible: superOnly, props: { min: 0, precision: 0 } },
      { key: 'contact', kind: 'text' },
      { key: 'phone', kind: 'text' },
      { key: 'email', kind: 'text' },
      { key: 'logoPath', kind: 'image', props: { limit: 1, fileSize: 2 } },
      { key: 'disclaimer', kind: 'richtext', span: 24 },
      { key: 'privacyAgreement', kind: 'richtext', span: 24 },
      { key: 'mailAccount', kind: 'text', section: 'provider.mailSection' },
      {
        key: 'mailAuthCode',
        kind: 'password',
        // Never sent back by the server: blank on edit keeps the stored code.
        extra: ({ mode, record }) => (mode === 'edit' && record?.hasMailAuthCode ? 'provider.mailAuthCodeKeep' : undefined),
      },
      { key: 'smtpAddress', kind: 'text' },
      { key: 'smtpPort', kind: 'number', props: { min: 1, max: 65535, precision: 0 } },
      { key: 'autoLocalListSync', kind: 'switch', extra: () => 'provider.autoLocalListSyncHelp' },
    ],
    toBody: (values: Values) => {
      const body = { ...values };
      if (body.expiration !== undefined && body.expiration !== '') body.expiration = Number(body.expiration);
      else delete body.expiration;
      if (!body.mailAuthCode) delete body.mailAuthCode;
      return body;
    },
    hideActions: ['remove'],
    rowActions: [
      // The public pages drivers see (no sign-in), offered once the provider has written them.
      {
        key: 'disclaimerPage',
        label: 'provider.disclaimerPage',
        hidden: (row: ProviderDto) => !row.disclaimer,
        onClick: (row: ProviderDto) => void window.open(`/disclaimer/${row.agreementKey}`, '_blank', 'noopener'),
      },
      {
        key: 'privacyPage',
        label: 'provider.privacyPage',
        hidden: (row: ProviderDto) => !row.privacyAgreement,
        onClick: (row: ProviderDto) => void window.open(`/privacyAgreement/${row.agreementKey}`, '_blank', 'noopener'),
      },
      {
        key: 'testMail',
        label: 'provider.testMail',
        permi: [permi('edit')],
        onClick: (row: ProviderDto, ctx) =>
          ctx.prompt({
            title: 'provider.testMail',
            field: 'to',
            schema: providerApi.testMail.body,
            base: { id: row.id },
            success: 'provider.testMailSent',
            onOk: async (to) => {
              const { messageId } = await call(providerApi.testMail, { body: { id: row.id, to: to.trim() } });
              return { to: to.trim(), messageId };
            },
          }),
      },
    ],
  });
}

/** A provider without an expiration time (the super provider, or one made without a validity). */
function NeverExpires() {
  const { t } = useTranslation();
  return <>{t('provider.neverExpires')}</>;
}
