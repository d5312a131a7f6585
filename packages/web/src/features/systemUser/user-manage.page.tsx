import { useMemo } from 'react';
import { usePasswordPolicy } from '../../shared/auth/session';
import { useAuth } from '../../shared/auth/useAuth';
import { ResourceTabs, type ResourceTab } from '../../shared/resource/ResourceTabs';
import { MyProviderSettings } from './my-provider';
import { providerResource } from './provider.resource';
import { systemUserResource } from './system-user.resource';

/**
 * System management → system users. Providers have no menu of their own in the spec (§2 lists
 * userManage, systemLog and permissionManage), so they are the second tab of this page: the
 * provider panel, shown as the user info's `isShowProvider` says (users who see several providers).
 * A user who sees only its own provider gets "My provider" there instead: that provider's settings
 * form, for those who may edit providers.
 */
export default function UserManagePage() {
  const { info } = useAuth();
  const superUser = info?.providerType === 'super';
  const showProvider = info?.isShowProvider === true;
  const providers = useMemo(() => providerResource(superUser), [superUser]);
  const policy = usePasswordPolicy();
  const users = useMemo(() => systemUserResource(policy), [policy]);
  const providerId = info?.providerId;
  const providerTab: ResourceTab[] = showProvider
    ? [{ key: 'providers', label: 'provider.tab', resource: providers }]
    : providerId
      ? [
          {
            key: 'myProvider',
            label: 'provider.myTab',
            resource: providers,
            permi: 'system:provider:edit',
            render: () => <MyProviderSettings providerId={providerId} />,
          },
        ]
      : [];
  return <ResourceTabs tabs={[{ key: 'users', label: 'systemUser.tab', resource: users }, ...providerTab]} />;
}
