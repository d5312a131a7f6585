import { type WorkOrderDto, type WorkOrderStepDto, type WorkOrderStepKind, commonApi, workOrderApi, chargeRecordApi } from '@csms/contract';
import { useQuery } from '@tanstack/react-query';
import { Descriptions, Divider, Drawer, Empty, Flex, Image, Spin, Timeline, Typography } from 'antd';
import { lazy, Suspense } from 'react';
import { call } from '../../shared/api/client';
import { useAuth } from '../../shared/auth/useAuth';
import { formatDateTime, renderCell } from '../../shared/resource/cells';
import { useResourceText } from '../../shared/resource/labels';
import { PROVIDER_KEYS } from '../../shared/resource/provider-scope';
import type { ColumnDef } from '../../shared/resource/types';
import { fileUrl } from '../../shared/upload/rules';
import FlowChart from './flow-chart';
import { workOrderColumns } from './work-order.resource';

type Row = Record<string, unknown>;

/** The drawer's fields: the list's columns, and what the list leaves out. */
const fields: ColumnDef<WorkOrderDto>[] = [
  ...workOrderColumns,
  { key: 'pointName' },
  { key: 'vendorErrorCode' },
  { key: 'createdByName' },
  { key: 'description', wide: true },
];

const stepColor: Partial<Record<WorkOrderStepKind, string>> = { resolved: 'green', failed: 'red', archived: 'gray', faultCleared: 'green' };

function StepContent({ step }: { step: WorkOrderStepDto }) {
  const { t } = useResourceText('workOrder');
  return (
    <Flex vertical gap={2}>
      <Typography.Text type="secondary">{formatDateTime(step.at)}</Typography.Text>
      <Typography.Text>{step.actorName ? t('workOrder.byActor', { name: step.actorName }) : t('workOrder.bySystem')}</Typography.Text>
      {step.serviceManName && <Typography.Text>{t('workOrder.toServiceMan', { name: step.serviceManName })}</Typography.Text>}
      {step.note && <Typography.Paragraph style={{ marginBottom: 0, whiteSpace: 'pre-wrap' }}>{step.note}</Typography.Paragraph>}
    </Flex>
  );
}

// The session's curves are the charging record's own charts (ECharts), fetched when an order names a session.
const ProcessCharts = lazy(() => import('../../shared/charts/process-charts').then((m) => ({ default: m.ProcessCharts })));

/** Where the browser fetches a stored picture. */
const pictureUrl = (name: string) => fileUrl(`${commonApi.downloadResource.path.slice(1)}?resource=${encodeURIComponent(name)}`);

/**
 * The recommended fix of the order's fault code (`getRecommendedScheme`), in the user's language, and the
 * provider's own entry for the charger's vendor code when it keeps one.
 */
function Scheme({ order }: { order: WorkOrderDto }) {
  const { t } = useResourceText('workOrder');
  const body = {
    faultCode: order.faultCode,
    taskId: order.taskId,
    ...(order.vendorErrorCode ? { vendorErrorCode: order.vendorErrorCode } : {}),
  };
  const { data } = useQuery({
    queryKey: [workOrderApi.scheme.path, body],
    queryFn: ({ signal }) => call(workOrderApi.scheme, { body }, { signal }),
    staleTime: 60_000,
  });
  if (!data) return null;
  return (
    <>
      <Divider titlePlacement="start">{t('workOrder.scheme')}</Divider>
      <Typography.Title level={5} style={{ marginTop: 0 }} data-testid="work-order-scheme">
        {data.title}
      </Typography.Title>
      <ol style={{ paddingInlineStart: 20, marginBottom: 0 }}>
        {data.steps.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      {data.vendor && (
        <div data-testid="work-order-vendor-scheme" style={{ marginTop: 12 }}>
          <Typography.Title level={5}>{t('workOrder.vendorScheme', { code: data.vendor.code, title: data.vendor.title })}</Typography.Title>
          <ol style={{ paddingInlineStart: 20, marginBottom: 0 }}>
            {data.vendor.steps.map((step, i) => (
              <li key={i}>{step}</li>
            ))}
          </ol>
        </div>
      )}
    </>
  );
}

/** The session the order names (`getHisBmsData`): its process data, on the station's clock. */
function AffectedSession({ order }: { order: WorkOrderDto }) {
  const { t } = useResourceText('workOrder');
  const id = order.transactionId!;
  const process = useQuery({
    queryKey: [chargeRecordApi.processData.path, { id }],
    queryFn: ({ signal }) => call(chargeRecordApi.processData, { body: { transactionId: id } }, { signal }),
  });
  const zone = useQuery({
    queryKey: [commonApi.dayZone.path, { stationId: order.stationId }],
    queryFn: ({ signal }) => call(commonApi.dayZone, { query: { stationId: order.stationId } }, { signal }),
    staleTime: Infinity,
  });
  return (
    <>
      <Divider titlePlacement="start">{t('workOrder.affectedSession', { id })}</Divider>
      {process.data && zone.data ? (
        process.data.samples.length > 0 ? (
          <Suspense fallback={<Spin />}>
            <ProcessCharts samples={process.data.samples} timeZone={zone.data.timeZone} />
          </Suspense>
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('workOrder.noProcessData')} />
        )
      ) : (
        !process.isError && <Spin />
      )}
    </>
  );
}

/** One order (`getFaultDetails`): its fields and its history, step by step. */
export function WorkOrderDrawer({ row, onClose }: { row: WorkOrderDto | null; onClose: () => void }) {
  const text = useResourceText('workOrder');
  const { t } = text;
  const { info } = useAuth();
  const taskId = row?.taskId;
  const { data, isFetching } = useQuery({
    // The list's row says when the order last changed: a step taken since (from the list) fetches it again.
    queryKey: [workOrderApi.detail.path, taskId, row?.updateTime],
    queryFn: ({ signal }) => call(workOrderApi.detail, { body: { taskId: taskId! } }, { signal }),
    enabled: taskId !== undefined,
  });
  const { data: chart } = useQuery({
    queryKey: [workOrderApi.flowChart.path, taskId, data?.updateTime],
    queryFn: ({ signal }) => call(workOrderApi.flowChart, { query: { taskId: taskId! } }, { signal }),
    enabled: taskId !== undefined,
  });
  const order = (data ?? row ?? {}) as Row;
  const shown = fields.filter((c) => info?.isShowProvider === true || !PROVIDER_KEYS.has(c.key));
  const steps = data?.steps ?? [];
  return (
    <Drawer open={row !== null} onClose={onClose} size={900} title={t('workOrder.detailTitle', { taskId })} destroyOnHidden>
      <Spin spinning={isFetching}>
        <Descriptions
          bordered
          size="small"
          column={2}
          items={shown.map((c) => ({
            key: c.key,
            label: text.label(c.key, c.label),
            children: renderCell(c as ColumnDef<Row>, order),
            ...(c.wide ? { span: 'filled' as const } : {}),
          }))}
        />
        {data && data.pictures.length > 0 && (
          <>
            <Divider titlePlacement="start">{t('fields.workOrder.pictures')}</Divider>
            <Image.PreviewGroup>
              <Flex wrap gap={8} data-testid="work-order-pictures">
                {data.pictures.map((name) => (
                  <Image key={name} width={104} height={104} style={{ objectFit: 'cover' }} src={pictureUrl(name)} />
                ))}
              </Flex>
            </Image.PreviewGroup>
          </>
        )}
        {row && <Scheme order={row} />}
        {row?.transactionId != null && <AffectedSession order={row} />}
        <Divider titlePlacement="start">{t('workOrder.flowChart')}</Divider>
        {chart ? <FlowChart chart={chart} /> : <Spin />}
        <Divider titlePlacement="start">{t('workOrder.history')}</Divider>
        {steps.length > 0 ? (
          <Timeline
            data-testid="work-order-steps"
            items={steps.map((step, i) => ({
              key: i,
              color: stepColor[step.kind] ?? 'blue',
              title: t(`enums.workOrderStep.${step.kind}`),
              content: <StepContent step={step} />,
            }))}
          />
        ) : (
          !isFetching && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('workOrder.noHistory')} />
        )}
      </Spin>
    </Drawer>
  );
}
