import { ApartmentOutlined, BookOutlined } from '@ant-design/icons';
import { type WorkOrderDto, workOrderApi } from '@csms/contract';
import { Button, Card, Space } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Authorized } from '../../shared/auth/authorized';
import { OnceOpened } from '../../shared/resource/lazy-parts';
import { ResourcePage } from '../../shared/resource/ResourcePage';
import type { FlowRequest } from './flow-dialog';
import { FaultCodesDialog, FlowDialog, ServiceAreasDialog, WorkOrderDrawer } from './lazy-parts';
import { permiOf, workOrderResource } from './work-order.resource';

/** Work orders → Fault treatment: the orders, their flow steps and history, the service areas behind the flow and the vendor fault codes. */
export default function WorkOrderPage() {
  const { t } = useTranslation();
  const [detail, setDetail] = useState<WorkOrderDto | null>(null);
  const [flow, setFlow] = useState<FlowRequest | null>(null);
  const [areas, setAreas] = useState(false);
  const [faultCodes, setFaultCodes] = useState(false);
  // Made once (a new resource would reset an open form).
  const resource = useMemo(() => workOrderResource({ detail: setDetail, flow: (action, row) => setFlow({ action, row }) }), []);
  return (
    <Card
      variant="borderless"
      title={t('menu.list')}
      extra={
        <Space>
          <Authorized permi={permiOf(workOrderApi.faultCodes)}>
            <Button icon={<BookOutlined />} onClick={() => setFaultCodes(true)} data-testid="fault-codes-open">
              {t('faultCode.title')}
            </Button>
          </Authorized>
          <Authorized permi={permiOf(workOrderApi.areas)}>
            <Button icon={<ApartmentOutlined />} onClick={() => setAreas(true)} data-testid="service-areas-open">
              {t('workOrder.serviceAreas')}
            </Button>
          </Authorized>
        </Space>
      }
      styles={{ body: { padding: 0 } }}
    >
      <ResourcePage resource={resource} />
      <OnceOpened open={detail !== null}>
        <WorkOrderDrawer row={detail} onClose={() => setDetail(null)} />
      </OnceOpened>
      <OnceOpened open={flow !== null}>
        <FlowDialog request={flow} onClose={() => setFlow(null)} />
      </OnceOpened>
      <OnceOpened open={areas}>
        <ServiceAreasDialog open={areas} onClose={() => setAreas(false)} />
      </OnceOpened>
      <OnceOpened open={faultCodes}>
        <FaultCodesDialog open={faultCodes} onClose={() => setFaultCodes(false)} />
      </OnceOpened>
    </Card>
  );
}
