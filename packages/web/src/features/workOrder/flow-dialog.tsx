import { workOrderArchive, workOrderAssign, workOrderReport, type WorkOrderDto, workOrderApi } from '@csms/contract';
import { Radio, Typography } from 'antd';
import { useMemo } from 'react';
import { call } from '../../shared/api/client';
import { ActionFormDialog } from '../../shared/resource/ActionFormDialog';
import { useResourceText } from '../../shared/resource/labels';
import { defineResource, type FormFieldDef, type RemoteOptions } from '../../shared/resource/types';
import { ComponentLines, type ComponentLine } from './component-lines';
import type { FlowAction } from './work-order.resource';

export interface FlowRequest {
  action: FlowAction;
  row: WorkOrderDto;
}

type Values = Record<string, unknown>;

/** The service men of the order's area (`serviceMen`), for the assign and reassign dialogs. */
const serviceMenOf = (taskId: string): RemoteOptions => ({
  key: `workOrderServiceMen:${taskId}`,
  load: async () =>
    (await call(workOrderApi.serviceMen, { query: { taskId } })).map((u) => ({ value: u.id, label: `${u.name} (${u.username})` })),
});

const note: FormFieldDef<'note'> = { key: 'note', kind: 'textarea', props: { rows: 3, maxLength: 500 } };

/** The form's values plus the order's task ID; an empty note is no note. */
const withTask =
  (taskId: string) =>
  ({ note: text, ...rest }: Values): Values => ({
    ...rest,
    ...(typeof text === 'string' && text.trim() ? { note: text } : {}),
    taskId,
  });

/**
 * One step's form, declared for the kit (labels `fields.workOrder.*`, validated by the step's contract
 * schema, so the messages are the server's): what it saves is the step's call, and it refreshes the list.
 */
function flowForm(action: FlowAction, row: WorkOrderDto) {
  const common = {
    name: 'workOrder',
    columns: [],
    texts: { saved: `workOrder.${action}Done` },
    toBody: withTask(row.taskId),
  };
  switch (action) {
    case 'assign':
    case 'reassign':
      return defineResource({
        ...common,
        api: { list: workOrderApi.list, add: action === 'assign' ? workOrderApi.assign : workOrderApi.reassign },
        formSchema: { create: workOrderAssign },
        form: [{ key: 'serviceManId', kind: 'select', remote: serviceMenOf(row.taskId), extra: () => 'workOrder.serviceManHint' }, note],
      });
    case 'report':
      return defineResource({
        ...common,
        api: { list: workOrderApi.list, add: workOrderApi.report },
        formSchema: { create: workOrderReport },
        // Components go with a resolved repair only; a line left without a name is no line, an empty note no note.
        toBody: (values: Values) =>
          withTask(row.taskId)({
            ...values,
            components:
              values.result === 'resolved'
                ? ((values.components as ComponentLine[] | undefined) ?? [])
                    .filter((l) => l.component.trim())
                    .map(({ note: n, ...l }) => ({ ...l, ...(n?.trim() ? { note: n } : {}) }))
                : [],
          }),
        form: [
          {
            key: 'result',
            kind: 'custom',
            render: ({ t }) => (
              <Radio.Group
                options={workOrderReport.shape.result.options.map((r) => ({ value: r, label: t(`enums.workOrderResult.${r}`) }))}
                data-testid="report-result"
              />
            ),
          },
          {
            key: 'description',
            kind: 'textarea',
            extra: () => 'workOrder.reportHint',
            props: { rows: 4, maxLength: 1000, showCount: true },
          },
          { key: 'components', kind: 'custom', render: (ctx) => <ComponentLines {...ctx} /> },
        ],
      });
    case 'archive':
      return defineResource({
        ...common,
        api: { list: workOrderApi.list, add: workOrderApi.archive },
        formSchema: { create: workOrderArchive },
        form: [note],
      });
  }
}

/** Assign, reassign, report or archive one order: the kit's form in a dialog, closed once the call succeeds. */
export function FlowDialog({ request, onClose }: { request: FlowRequest | null; onClose: () => void }) {
  if (!request) return null;
  return <OpenFlowDialog key={`${request.action}:${request.row.id}`} request={request} onClose={onClose} />;
}

function OpenFlowDialog({ request: { action, row }, onClose }: { request: FlowRequest; onClose: () => void }) {
  const text = useResourceText('workOrder');
  const { t } = text;
  const resource = useMemo(() => flowForm(action, row), [action, row]);
  return (
    <ActionFormDialog
      resource={resource}
      text={text}
      title={t(`workOrder.${action}Title`, { taskId: row.taskId })}
      width={action === 'report' ? 760 : 560}
      onClose={onClose}
    >
      <Typography.Paragraph type="secondary" data-testid="flow-summary">
        {t('workOrder.summary', { station: row.stationName, serialNumber: row.serialNumber, faultCode: row.faultCode })}
      </Typography.Paragraph>
      {action === 'archive' && <Typography.Paragraph>{t('workOrder.archiveHint')}</Typography.Paragraph>}
    </ActionFormDialog>
  );
}
