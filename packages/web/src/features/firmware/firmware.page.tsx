import { UploadOutlined } from '@ant-design/icons';
import type { FirmwareUpgradeDto } from '@csms/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Card, Tabs } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useAuth } from '../../shared/auth/useAuth';
import { OnceOpened } from '../../shared/resource/lazy-parts';
import { ResourcePage } from '../../shared/resource/ResourcePage';
import { TAB_PARAM } from '../../shared/resource/url-query';
import { firmwareUpgradeResource } from './firmware-upgrade.resource';
import { firmwareVersionResource } from './firmware-version.resource';
import { UpgradePointsDrawer, UploadDialog } from './lazy-parts';

type TabKey = 'versions' | 'upgrades';
/** The tab a bare link opens. */
const DEFAULT_TAB: TabKey = 'versions';

/**
 * Configuration → Version management (spec §2 `versionManage`; issue 16 items 1, 2): the firmware
 * packages and the upgrades sent with them, one tab each. As on the Smart Charging page, the open
 * tab lives in the URL (`?tab=`) and only it is mounted.
 */
export default function FirmwarePage() {
  const { t } = useTranslation();
  const { hasPermi } = useAuth();
  const [params, setParams] = useSearchParams();
  const queryClient = useQueryClient();
  const [uploading, setUploading] = useState(false);
  const [pointsOf, setPointsOf] = useState<FirmwareUpgradeDto | null>(null);
  // Made once (a new resource would reset an open form).
  const upgrades = useMemo(() => firmwareUpgradeResource({ points: setPointsOf }), []);

  const tabs = [
    { key: 'versions' as const, resource: firmwareVersionResource },
    { key: 'upgrades' as const, resource: upgrades },
  ].filter((tab) => !tab.resource.permissions.list || hasPermi(tab.resource.permissions.list));
  const fallback = tabs.find((tab) => tab.key === DEFAULT_TAB) ?? tabs[0];
  const active = tabs.find((tab) => tab.key === params.get(TAB_PARAM)) ?? fallback;
  const open = (key: string) => {
    // Opening a tab is like opening a page: its list may have changed meanwhile.
    const tab = tabs.find((x) => x.key === key);
    if (tab) void queryClient.invalidateQueries({ queryKey: [tab.resource.api.list.path] });
    // A new tab starts from its own defaults: the previous tab's filters mean nothing there.
    setParams(key === fallback?.key ? {} : { [TAB_PARAM]: key });
  };
  const canUpload = hasPermi('config:firmwareVersion:add');

  return (
    <Card variant="borderless" title={t('menu.versionManage')} styles={{ body: { paddingTop: 0 } }}>
      <Tabs
        activeKey={active?.key}
        onChange={open}
        destroyOnHidden
        items={tabs.map((tab) => ({
          key: tab.key,
          label: t(`firmware.tabs.${tab.key}`),
          children: <ResourcePage resource={tab.resource} />,
        }))}
        tabBarExtraContent={
          active?.key === 'versions' &&
          canUpload && (
            <Button type="primary" icon={<UploadOutlined />} onClick={() => setUploading(true)} data-testid="firmware-upload-open">
              {t('firmware.upload')}
            </Button>
          )
        }
      />
      <OnceOpened open={uploading}>
        <UploadDialog open={uploading} onClose={() => setUploading(false)} />
      </OnceOpened>
      <OnceOpened open={pointsOf !== null}>
        <UpgradePointsDrawer row={pointsOf} onClose={() => setPointsOf(null)} />
      </OnceOpened>
    </Card>
  );
}
