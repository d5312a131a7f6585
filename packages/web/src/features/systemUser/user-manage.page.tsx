import { useMemo } from 'react';
import { usePasswordPolicy } from '../../shared/auth/session';
import { useAuth } from '../../shared/auth/useAuth';
import { ResourceTabs } from '../../shared/resource/ResourceTabs';
import { providerResource } from './provider.resource';
import { systemUserResource } from './system-user.resource';

/**
 * System management → system users. Providers have no menu of their own in the spec (§2 lists
 * userManage, systemLog and permissionManage), so they are the second tab of this page.
 */
export default function UserManagePage() {
  const { info } = useAuth();
  const superUser = info?.providerType === 'super';
  const providers = useMemo(() => providerResource(superUser), [superUser]);
  const policy = usePasswordPolicy();
  const users = useMemo(() => systemUserResource(policy), [policy]);
  return (
    <ResourceTabs
      tabs={[
        { key: 'users', label: 'systemUser.tab', resource: users },
        { key: 'providers', label: 'provider.tab', resource: providers },
      ]}
    />
  );
}
