import { SyncOutlined } from '@ant-design/icons';
import { memberApi } from '@csms/contract';
import { Button } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../shared/api/client';
import { Authorized } from '../../shared/auth/authorized';
import { feedback } from '../../shared/feedback';
import { ResourceTabs, type ResourceTab } from '../../shared/resource/ResourceTabs';
import { memberLevelResource } from './member-level.resource';
import { memberResource } from './member.resource';

/** Recomputes every visible user's level now (what the nightly job does). */
function Recompute() {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  return (
    <Authorized permi={['operate:member:recompute']}>
      <Button
        icon={<SyncOutlined />}
        loading={busy}
        data-testid="member-recompute"
        onClick={async () => {
          setBusy(true);
          try {
            const r = await call(memberApi.recompute, { body: {} });
            void feedback.message.success(t('member.recomputed', { users: r.users }));
          } finally {
            setBusy(false);
          }
        }}
      >
        {t('member.recompute')}
      </Button>
    </Authorized>
  );
}

/**
 * Operations → Membership (spec §2 `/operateManagement/membershipManage`; issue 19 item 1): the
 * provider's levels, and the members with their computed level and the operator's overrides.
 */
export default function MembershipPage() {
  const tabs = useMemo<ResourceTab[]>(
    () => [
      { key: 'levels', label: 'memberLevel.tab', resource: memberLevelResource },
      { key: 'members', label: 'member.tab', resource: memberResource, extra: () => <Recompute /> },
    ],
    [],
  );
  return <ResourceTabs tabs={tabs} />;
}
