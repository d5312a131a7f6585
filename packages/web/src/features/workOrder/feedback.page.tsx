import { MAX_FEEDBACK_PICTURES, workOrderFeedback, type WorkOrderDto, workOrderApi } from '@csms/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Flex, Row, Table, Typography } from 'antd';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { call } from '../../shared/api/client';
import { stationOptions } from '../../shared/options/station-point-options';
import { formatDateTime } from '../../shared/resource/cells';
import { FormFields } from '../../shared/resource/FormFields';
import { useResourceText } from '../../shared/resource/labels';
import { defineResource, type FormFieldCtx } from '../../shared/resource/types';
import { useResourceForm } from '../../shared/resource/useResourceForm';
import { ImageUpload } from '../../shared/upload/ImageUpload';
import { splitValue } from '../../shared/upload/rules';
import { Connector, OrderConnectorField, OrderPointField, StatusTag } from './work-order-inputs';

/**
 * The pictures of a feedback: the shared image widget; a picture taken out before sending is removed
 * from the server at once (`deleteFile`), as only its uploader may.
 */
function FeedbackPictures({ value, onChange }: FormFieldCtx & { value?: string; onChange?: (v: string) => void }) {
  const held = useRef(splitValue(value));
  return (
    <ImageUpload
      value={value}
      limit={MAX_FEEDBACK_PICTURES}
      onChange={(next) => {
        const now = splitValue(next);
        for (const gone of held.current.filter((v) => !now.includes(v)))
          void call(workOrderApi.deleteFile, { body: { clearFile: gone } }).catch(() => undefined);
        held.current = now;
        onChange?.(next);
      }}
    />
  );
}

const feedbackResource = (onSaved: (order: WorkOrderDto) => void) =>
  defineResource({
    name: 'workOrder',
    api: { list: workOrderApi.list, add: workOrderApi.feedback },
    columns: [],
    // The station only narrows the point picker: the server takes the point's.
    formSchema: { create: workOrderFeedback.extend({ stationId: z.number().int().positive().optional() }) },
    texts: { saved: 'workOrder.feedbackSent' },
    initialValues: () => ({ connectorNo: 0 }),
    form: [
      { key: 'stationId', kind: 'select', remote: stationOptions },
      { key: 'serialNumber', kind: 'custom', render: (ctx) => <OrderPointField {...ctx} /> },
      { key: 'connectorNo', kind: 'custom', extra: () => 'workOrder.connectorHint', render: (ctx) => <OrderConnectorField {...ctx} /> },
      {
        key: 'description',
        kind: 'textarea',
        span: 24,
        extra: () => 'workOrder.feedbackHint',
        props: { rows: 5, maxLength: 1000, showCount: true },
      },
      { key: 'pictures', kind: 'custom', span: 24, render: (ctx) => <FeedbackPictures {...ctx} /> },
    ],
    toBody: ({ stationId: _station, ...body }) => body,
    onSaved: (saved) => onSaved(saved as WorkOrderDto),
  });

/** Work orders → Feedback (`/workOrder/create`): anyone signed in files a problem with a point; it becomes a work order. */
export default function FeedbackPage() {
  const { t } = useTranslation();
  const text = useResourceText('workOrder');
  const queryClient = useQueryClient();
  const [sent, setSent] = useState<WorkOrderDto | null>(null);
  const [page, setPage] = useState(1);
  // A new form after each feedback (its pictures are the order's now).
  const [round, setRound] = useState(0);
  const resource = useMemo(
    () =>
      feedbackResource((order) => {
        setSent(order);
        void queryClient.invalidateQueries({ queryKey: [workOrderApi.myFeedback.path] });
      }),
    [queryClient],
  );
  const f = useResourceForm({ resource, text, mode: 'create', active: true });
  const mine = useQuery({
    queryKey: [workOrderApi.myFeedback.path, page],
    queryFn: ({ signal }) => call(workOrderApi.myFeedback, { query: { page, limit: 10 } }, { signal }),
  });
  const submit = async () => {
    if (!(await f.submit())) return;
    f.form.resetFields();
    f.form.setFieldsValue({ connectorNo: 0 });
    setRound((n) => n + 1);
  };
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} xl={12}>
        <Card variant="borderless" title={t('menu.create')}>
          <Flex vertical gap={12}>
            <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
              {t('workOrder.feedbackIntro')}
            </Typography.Paragraph>
            {sent && (
              <Alert
                type="success"
                showIcon
                closable={{ onClose: () => setSent(null) }}
                title={t(sent.repeats > 0 ? 'workOrder.feedbackAttached' : 'workOrder.feedbackOpened', { taskId: sent.taskId })}
                data-testid="feedback-sent"
              />
            )}
            <FormFields key={round} resource={resource} text={text} state={f} span={12} />
            <Flex justify="end">
              <Button type="primary" loading={f.saving} onClick={() => void submit()} data-testid="feedback-submit">
                {t('workOrder.feedbackSubmit')}
              </Button>
            </Flex>
          </Flex>
        </Card>
      </Col>
      <Col xs={24} xl={12}>
        <Card variant="borderless" title={t('workOrder.myFeedback')}>
          <Table<WorkOrderDto>
            rowKey="id"
            size="small"
            loading={mine.isFetching}
            dataSource={mine.data?.rows ?? []}
            pagination={{ current: page, pageSize: 10, total: mine.data?.total ?? 0, onChange: setPage, showSizeChanger: false }}
            data-testid="my-feedback"
            columns={[
              { key: 'taskId', dataIndex: 'taskId', title: text.label('taskId') },
              {
                key: 'status',
                dataIndex: 'status',
                title: text.label('status'),
                render: (s: WorkOrderDto['status']) => <StatusTag status={s} />,
              },
              { key: 'point', title: text.label('serialNumber'), render: (_: unknown, r) => `${r.stationName} · ${r.serialNumber}` },
              {
                key: 'connectorNo',
                dataIndex: 'connectorNo',
                title: text.label('connectorNo'),
                render: (n: number) => <Connector n={n} />,
              },
              { key: 'createTime', dataIndex: 'createTime', title: text.label('createTime'), render: (v: string) => formatDateTime(v) },
            ]}
          />
        </Card>
      </Col>
    </Row>
  );
}
