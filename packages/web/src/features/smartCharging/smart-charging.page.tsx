import { UnorderedListOutlined } from '@ant-design/icons';
import { type ChargingProfileDto, type ProfileSendResult, type TimedChargeDto, timedChargeApi } from '@csms/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Card, Flex, Spin, Tabs } from 'antd';
import { lazy, Suspense, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { call } from '../../shared/api/client';
import { useAuth } from '../../shared/auth/useAuth';
import { confirmThenCall } from '../../shared/resource/actions';
import { makeResourceText } from '../../shared/resource/labels';
import { ResourcePage } from '../../shared/resource/ResourcePage';
import type { Resource } from '../../shared/resource/types';
import { TAB_PARAM } from '../../shared/resource/url-query';
import { chargingProfileResource } from './charging-profile.resource';
import { ClearDialog, InForceDialog, SendResultDialog } from './dialogs';
import { localControllerResource } from './local-controller.resource';
import { timedChargeResource } from './timed-charge.resource';
import { TimedChargeRunsDialog } from './timed-charge-runs';

// Its own chunk: the live view (and, below it, the chart library) loads when the tab opens.
const LoadBalancing = lazy(() => import('./load-balancing'));

/** The tab a bare link opens: the spec's first, load balancing (its chart library comes only when there is something to draw). */
const DEFAULT_TAB = 'loadBalancing';

interface SmartTab {
  key: 'loadBalancing' | 'chargingProfile' | 'localController' | 'timedCharge';
  /** What the user needs to see the tab (the list permission of what it shows). */
  permi: string | undefined;
  /** The list the tab shows, refreshed when the tab is opened again. */
  resource?: Resource;
  render: () => ReactNode;
}

/**
 * Real-time monitoring → Smart Charging (spec §2; issue 15): load balancing (the local controllers
 * live), the central system's charging profiles, the local controllers and timed charging. As with `ResourceTabs`,
 * the open tab lives in the URL (`?tab=`) and only it is mounted: the lists never read each other's
 * filters, and the live view stops polling when it is left.
 */
export default function SmartChargingPage() {
  const { t, i18n } = useTranslation();
  const { hasPermi } = useAuth();
  const [params, setParams] = useSearchParams();
  const queryClient = useQueryClient();
  const [sent, setSent] = useState<{ profile: ChargingProfileDto; results: ProfileSendResult[] } | null>(null);
  const [clearing, setClearing] = useState<ChargingProfileDto | null>(null);
  const [inForce, setInForce] = useState(false);
  const profiles = useMemo(
    () => chargingProfileResource({ sent: (profile, results) => setSent({ profile, results }), clear: setClearing }),
    [],
  );
  const [runsOf, setRunsOf] = useState<TimedChargeDto | null>(null);
  // Made once (a new resource would reset an open form); the confirm's words are looked up when it opens.
  const timed = useMemo(
    () =>
      timedChargeResource({
        runs: setRunsOf,
        // `rows` are the selected ones still cancellable (the button's `applies`).
        cancel: (rows) =>
          confirmThenCall(
            makeResourceText(i18n.t, (k) => i18n.exists(k), i18n.language, 'timedCharge'),
            {
              content: 'timedCharge.cancelConfirm',
              params: { ids: rows.map((r) => r.id).join(', ') },
              onOk: () => call(timedChargeApi.cancel, { body: { ids: rows.map((r) => r.id) } }),
            },
            () => void queryClient.invalidateQueries({ queryKey: [timedChargeApi.list.path] }),
          ),
      }),
    [i18n, queryClient],
  );

  const tabs: SmartTab[] = [
    {
      key: 'loadBalancing',
      // The live view is part of the controllers' list permission (`localControllerApi.live`).
      permi: localControllerResource.permissions.list,
      render: () => (
        <Suspense
          fallback={
            <Flex justify="center" style={{ padding: 48 }}>
              <Spin />
            </Flex>
          }
        >
          <LoadBalancing onOpenControllers={shown('localController') ? () => open('localController') : undefined} />
        </Suspense>
      ),
    },
    {
      key: 'chargingProfile',
      permi: profiles.permissions.list,
      resource: profiles,
      render: () => <ResourcePage resource={profiles} />,
    },
    {
      key: 'localController',
      permi: localControllerResource.permissions.list,
      resource: localControllerResource,
      render: () => <ResourcePage resource={localControllerResource} />,
    },
    {
      key: 'timedCharge',
      permi: timed.permissions.list,
      resource: timed,
      render: () => <ResourcePage resource={timed} />,
    },
  ];
  const visible = tabs.filter((tab) => !tab.permi || hasPermi(tab.permi));
  function shown(key: SmartTab['key']) {
    return visible.some((tab) => tab.key === key);
  }
  const fallback = visible.find((tab) => tab.key === DEFAULT_TAB) ?? visible[0];
  const active = visible.find((tab) => tab.key === params.get(TAB_PARAM)) ?? fallback;
  function open(key: string) {
    // Opening a tab is like opening a page: its list may have changed meanwhile.
    const tab = visible.find((x) => x.key === key);
    if (tab?.resource) void queryClient.invalidateQueries({ queryKey: [tab.resource.api.list.path] });
    // A new tab starts from its own defaults: the previous tab's filters mean nothing there.
    setParams(key === fallback?.key ? {} : { [TAB_PARAM]: key });
  }

  return (
    <Card variant="borderless" title={t('menu.smartCharging')} styles={{ body: { paddingTop: 0 } }}>
      <Tabs
        activeKey={active?.key}
        onChange={open}
        destroyOnHidden
        items={visible.map((tab) => ({ key: tab.key, label: t(`smart.tabs.${tab.key}`), children: tab.render() }))}
        tabBarExtraContent={
          active?.key === 'chargingProfile' && (
            <Button icon={<UnorderedListOutlined />} onClick={() => setInForce(true)} data-testid="in-force-open">
              {t('chargingProfile.inForce')}
            </Button>
          )
        }
      />
      <SendResultDialog sent={sent} onClose={() => setSent(null)} />
      <ClearDialog profile={clearing} onClose={() => setClearing(null)} />
      <InForceDialog open={inForce} onClose={() => setInForce(false)} />
      <TimedChargeRunsDialog row={runsOf} onClose={() => setRunsOf(null)} />
    </Card>
  );
}
