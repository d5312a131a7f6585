import type { WorkOrderPriority, WorkOrderSource, WorkOrderStatus } from '@csms/contract';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { ChosenConnectorField, ChosenPointField, type FieldValue } from '../../shared/options/chosen-point-fields';
import type { FormFieldCtx } from '../../shared/resource/types';

const statusColor: Record<WorkOrderStatus, string> = {
  new: 'orange',
  assigned: 'blue',
  processing: 'processing',
  resolved: 'success',
  failed: 'error',
  archived: 'default',
};

export function StatusTag({ status }: { status: WorkOrderStatus }) {
  const { t } = useTranslation();
  return (
    <Tag color={statusColor[status]} data-status={status}>
      {t(`enums.workOrderStatus.${status}`)}
    </Tag>
  );
}

const priorityColor: Record<WorkOrderPriority, string> = { low: 'default', normal: 'blue', high: 'orange', urgent: 'red' };

export function PriorityTag({ priority }: { priority: WorkOrderPriority }) {
  const { t } = useTranslation();
  return (
    <Tag color={priorityColor[priority]} data-priority={priority}>
      {t(`enums.workOrderPriority.${priority}`)}
    </Tag>
  );
}

/** A connector number; 0 is the point as a whole. */
export function Connector({ n }: { n: number }) {
  const { t } = useTranslation();
  return <>{n === 0 ? t('workOrder.wholePoint') : n}</>;
}

/** One point of the chosen station; choosing another puts the connector back to the whole point. */
export function OrderPointField(ctx: FormFieldCtx & FieldValue<string>) {
  return (
    <ChosenPointField
      {...ctx}
      chooseStationFirst="workOrder.chooseStationFirst"
      fieldKey="fields.workOrder.serialNumber"
      onPicked={() => ctx.form.setFieldValue('connectorNo', 0)}
      testId="order-point"
    />
  );
}

/** The whole point (0) or one of the chosen point's connectors. */
export function OrderConnectorField(ctx: FormFieldCtx & FieldValue<number>) {
  return (
    <ChosenConnectorField
      {...ctx}
      zeroLabel="workOrder.wholePoint"
      choosePointFirst="workOrder.choosePointFirst"
      testId="order-connector"
    />
  );
}

export function SourceText({ source }: { source: WorkOrderSource }) {
  const { t } = useTranslation();
  return <>{t(`enums.workOrderSource.${source}`)}</>;
}
