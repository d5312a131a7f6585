import { UnorderedListOutlined } from '@ant-design/icons';
import type { ChargingProfileDto, ProfileSendResult } from '@csms/contract';
import { Button, Card, Tabs } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ResourcePage } from '../../shared/resource/ResourcePage';
import { chargingProfileResource } from './charging-profile.resource';
import { ClearDialog, InForceDialog, SendResultDialog } from './dialogs';

/**
 * Real-time monitoring → Smart Charging (spec §2). Its tabs land one by one with their
 * capabilities (issue 15): the central system's charging profiles first.
 */
export default function SmartChargingPage() {
  const { t } = useTranslation();
  const [sent, setSent] = useState<{ profile: ChargingProfileDto; results: ProfileSendResult[] } | null>(null);
  const [clearing, setClearing] = useState<ChargingProfileDto | null>(null);
  const [inForce, setInForce] = useState(false);
  const resource = useMemo(
    () => chargingProfileResource({ sent: (profile, results) => setSent({ profile, results }), clear: setClearing }),
    [],
  );
  return (
    <Card variant="borderless" title={t('menu.smartCharging')} styles={{ body: { paddingTop: 0 } }}>
      <Tabs
        items={[
          {
            key: 'chargingProfile',
            label: t('smart.tabs.chargingProfile'),
            children: <ResourcePage resource={resource} />,
          },
        ]}
        tabBarExtraContent={
          <Button icon={<UnorderedListOutlined />} onClick={() => setInForce(true)} data-testid="in-force-open">
            {t('chargingProfile.inForce')}
          </Button>
        }
      />
      <SendResultDialog sent={sent} onClose={() => setSent(null)} />
      <ClearDialog profile={clearing} onClose={() => setClearing(null)} />
      <InForceDialog open={inForce} onClose={() => setInForce(false)} />
    </Card>
  );
}
