import { TeamOutlined } from '@ant-design/icons';
import { type UserGroupDto, userGroupApi } from '@csms/contract';
import { useTranslation } from 'react-i18next';
import { defineResource } from '../../shared/resource/types';
import { formatKwh } from '../../shared/format/units';
import { KwhInput } from './inputs';
import { providerOptions } from './options';

/** User groups (spec §3): name, members, description, provider, monthly electricity limit per member. */
export function userGroupResource(openMembers: (group: UserGroupDto) => void) {
  return defineResource({
    name: 'userGroup',
    api: {
      list: userGroupApi.list,
      get: userGroupApi.get,
      add: userGroupApi.add,
      edit: userGroupApi.edit,
      remove: userGroupApi.remove,
      export: userGroupApi.export,
    },
    exportSource: 'userGroup',
    columns: [
      { key: 'id', width: 80, sorter: true, defaultHidden: true },
      { key: 'name', width: 160, sorter: true },
      { key: 'memberCount', width: 110, sorter: true },
      {
        key: 'monthlyLimitWh',
        width: 200,
        sorter: true,
        render: (v, row) => (row.monthlyLimitWh === null ? <NoLimit /> : formatKwh(v)),
      },
      { key: 'description', ellipsis: true },
      { key: 'providerName', width: 150 },
      { key: 'createTime', kind: 'datetime', width: 170, sorter: true },
    ],
    search: [
      { key: 'name', kind: 'text' },
      { key: 'providerId', kind: 'select', remote: providerOptions },
    ],
    form: [
      { key: 'name', kind: 'text' },
      { key: 'providerId', kind: 'select', remote: providerOptions, readOnlyOn: 'edit' },
      {
        key: 'monthlyLimitWh',
        kind: 'custom',
        extra: () => 'userGroup.limitHint',
        render: ({ t }) => <KwhInput placeholder={t('cards.noLimit')} />,
      },
      { key: 'description', kind: 'textarea' },
    ],
    rowActions: [
      {
        key: 'members',
        label: 'userGroup.members',
        icon: <TeamOutlined />,
        permi: ['user:group:query'],
        onClick: (row) => openMembers(row),
      },
    ],
  });
}

function NoLimit() {
  const { t } = useTranslation();
  return <>{t('cards.noLimit')}</>;
}
