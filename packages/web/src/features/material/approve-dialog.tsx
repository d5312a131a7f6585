import { materialApplyConfirm, materialApplyResults, type MaterialApplyDto, materialApplyApi } from '@csms/contract';
import { Radio, Table, Typography } from 'antd';
import { useMemo } from 'react';
import { ActionFormDialog } from '../../shared/resource/ActionFormDialog';
import { useResourceText } from '../../shared/resource/labels';
import { defineResource } from '../../shared/resource/types';
import { ApplySummary } from './material-apply.resource';

type Values = Record<string, unknown>;

/** `confirmApply`'s form, declared for the kit (validated by the contract's schema: the opinion is required to refuse). */
function approveForm(row: MaterialApplyDto) {
  return defineResource({
    name: 'materialApply',
    columns: [],
    api: { list: materialApplyApi.list, add: materialApplyApi.confirm },
    formSchema: { create: materialApplyConfirm },
    texts: { saved: 'materialApply.approved' },
    initialValues: () => ({ result: 'agreed' }),
    toBody: ({ auditOpinion, ...rest }: Values) => ({
      ...rest,
      ...(typeof auditOpinion === 'string' && auditOpinion.trim() ? { auditOpinion } : {}),
      taskId: row.taskId,
    }),
    form: [
      {
        key: 'result',
        kind: 'custom',
        render: ({ t }) => (
          <Radio.Group
            options={materialApplyResults.map((r) => ({ value: r, label: t(`enums.materialApplyResult.${r}`) }))}
            data-testid="approve-result"
          />
        ),
      },
      { key: 'auditOpinion', kind: 'textarea', props: { rows: 3, maxLength: 500, showCount: true } },
    ],
  });
}

/** Agree or not agree one apply order: its lines, the decision and the opinion; closed once the call succeeds. */
export function ApproveDialog({ row, onClose }: { row: MaterialApplyDto | null; onClose: () => void }) {
  if (!row) return null;
  return <OpenApproveDialog key={row.id} row={row} onClose={onClose} />;
}

function OpenApproveDialog({ row, onClose }: { row: MaterialApplyDto; onClose: () => void }) {
  const text = useResourceText('materialApply');
  const { t } = text;
  const resource = useMemo(() => approveForm(row), [row]);
  return (
    <ActionFormDialog
      resource={resource}
      text={text}
      title={t('materialApply.approveTitle', { taskId: row.taskId })}
      width={620}
      onClose={onClose}
    >
      <ApplySummary row={row} t={t} />
      <Table
        size="small"
        rowKey="materialId"
        pagination={false}
        dataSource={row.lines}
        style={{ marginBottom: 12 }}
        data-testid="approve-lines"
        columns={[
          { key: 'partsNumber', dataIndex: 'partsNumber', title: text.label('partsNumber') },
          { key: 'name', dataIndex: 'name', title: t('fields.material.name') },
          { key: 'model', dataIndex: 'model', title: t('fields.material.model') },
          { key: 'count', dataIndex: 'count', title: text.label('count'), width: 90 },
        ]}
      />
      <Typography.Paragraph type="secondary">{t('materialApply.approveHint')}</Typography.Paragraph>
    </ActionFormDialog>
  );
}
