import { PlayCircleOutlined } from '@ant-design/icons';
import { Button, Flex } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Authorized } from '../../shared/auth/authorized';
import { ResourcePage } from '../../shared/resource/ResourcePage';
import { ActionDialog } from './action-dialog';
import { permiOf, type ActionRequest } from './actions';
import { chargingResource } from './charging.resource';
import { useMonitorLive } from './live';
import { StatusCountsBar } from './status-counts';

/** Real-time monitoring → remote start and stop: counts, sessions in progress, live. */
export default function ChargingPage() {
  const { t } = useTranslation();
  useMonitorLive();
  const [request, setRequest] = useState<ActionRequest | null>(null);
  const resource = useMemo(() => chargingResource(setRequest), []);
  return (
    <Flex vertical gap={16}>
      <StatusCountsBar />
      <Authorized permi={[permiOf('remoteStart')]}>
        <Flex justify="flex-end">
          <Button
            type="primary"
            icon={<PlayCircleOutlined />}
            onClick={() => setRequest({ action: 'remoteStart' })}
            data-testid="remote-start"
          >
            {t('monitor.actions.remoteStart')}
          </Button>
        </Flex>
      </Authorized>
      <ResourcePage resource={resource} />
      <ActionDialog request={request} onClose={() => setRequest(null)} />
    </Flex>
  );
}
