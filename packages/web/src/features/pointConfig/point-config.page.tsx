import { Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useAuth } from '../../shared/auth/useAuth';
import { ResourcePage } from '../../shared/resource/ResourcePage';
import { TAB_PARAM } from '../../shared/resource/url-query';
import { ConfigPanel } from './config-panel';
import { DiagnosticsPanel } from './diagnostics-panel';
import { diagnosticsResource } from './diagnostics.resource';
import { ocppLogResource } from './ocpp-log.resource';

/**
 * Configuration → point configuration: the charger's configuration keys, the OCPP log as a second
 * tab and diagnostics (GetDiagnostics and the files received) as a third. The open tab lives in the
 * URL (`?tab=`) beside its own state.
 */
export default function PointConfigPage() {
  const { t } = useTranslation();
  const { hasPermi } = useAuth();
  const [params, setParams] = useSearchParams();
  const tabs = [
    { key: 'config', label: t('ocppLog.tabs.config'), show: hasPermi(['config:pointConfig:query', 'config:pointConfig:edit']) },
    { key: 'log', label: t('ocppLog.tabs.log'), show: hasPermi(ocppLogResource.permissions.list ?? 'config:ocppLog:list') },
    {
      key: 'diagnostics',
      label: t('ocppLog.tabs.diagnostics'),
      show: hasPermi(diagnosticsResource.permissions.list ?? 'config:diagnostics:list'),
    },
  ].filter((tab) => tab.show);
  const active = tabs.find((tab) => tab.key === params.get(TAB_PARAM)) ?? tabs[0];
  return (
    <Card
      variant="borderless"
      activeTabKey={active?.key}
      tabList={tabs.map(({ key, label }) => ({ key, label }))}
      onTabChange={(key) => setParams(key === tabs[0]?.key ? {} : { [TAB_PARAM]: key })}
      styles={{ body: { padding: active?.key === 'config' ? undefined : 0 } }}
    >
      {active?.key === 'config' && <ConfigPanel />}
      {active?.key === 'log' && <ResourcePage resource={ocppLogResource} />}
      {active?.key === 'diagnostics' && <DiagnosticsPanel />}
    </Card>
  );
}
