import { Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { useMonitorLive } from '../live';
import { StatusCountsBar } from '../status-counts';

/** Dashboard: connectors by status in the caller's scope, live. */
export default function CountsWidget() {
  const { t } = useTranslation();
  useMonitorLive();
  return (
    <Card title={t('monitor.widgets.counts')}>
      <StatusCountsBar bordered={false} drill />
    </Card>
  );
}
