import type { UserGroupDto } from '@csms/contract';
import { useMemo, useState } from 'react';
import { ResourcePage } from '../../shared/resource/ResourcePage';
import { MembersDialog } from './members-dialog';
import { userGroupResource } from './user-group.resource';

/** User management → user groups, with each group's members. */
export default function UserGroupPage() {
  const [group, setGroup] = useState<UserGroupDto | null>(null);
  const resource = useMemo(() => userGroupResource(setGroup), []);
  return (
    <>
      <ResourcePage resource={resource} />
      <MembersDialog group={group} onClose={() => setGroup(null)} />
    </>
  );
}
