import { applyApprove, applyReject, providerValidityYears, type ApplyDto, type DataOf, applyApi } from '@csms/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Typography } from 'antd';
import { useMemo } from 'react';
import { call } from '../../shared/api/client';
import { feedback } from '../../shared/feedback';
import { ActionFormDialog } from '../../shared/resource/ActionFormDialog';
import { useResourceText, type ResourceText } from '../../shared/resource/labels';
import { PromptDialog } from '../../shared/resource/PromptDialog';
import { defineResource } from '../../shared/resource/types';

type Decided = DataOf<typeof applyApi.approve>;

/** Without the mail the one-time password exists nowhere else: the reviewer sees it once, to pass on. */
function showPassword(text: ResourceText, decided: Decided) {
  if (decided.mailed || !decided.password) return;
  feedback.modal.warning({
    title: text.t('apply.passwordTitle'),
    content: (
      <Typography.Paragraph copyable={{ text: decided.password }} data-testid="apply-password">
        {text.t('apply.passwordText', { username: decided.application.username, password: decided.password })}
      </Typography.Paragraph>
    ),
  });
}

/** `approve`'s form, declared for the kit and validated by the contract's schema. */
function approveForm(row: ApplyDto, text: ResourceText) {
  return defineResource({
    name: 'apply',
    columns: [],
    api: { list: applyApi.list, get: applyApi.get, add: applyApi.approve },
    formSchema: { create: applyApprove },
    texts: { saved: 'apply.approved' },
    initialValues: () => ({
      validity: 1,
      authCount: row.expectedPoints,
      username: row.email
        .split('@')[0]!
        .replace(/[^A-Za-z0-9._@-]/g, '')
        .slice(0, 64),
    }),
    toBody: (values) => ({ ...values, id: row.id }),
    onSaved: (saved) => showPassword(text, saved as Decided),
    form: [
      {
        key: 'validity',
        kind: 'select',
        options: providerValidityYears.map((n) => ({ value: n, label: `enums.providerValidity.${n}` })),
        props: { allowClear: false },
      },
      { key: 'authCount', kind: 'number', props: { min: 1, precision: 0, style: { width: '100%' } } },
      { key: 'username', kind: 'text', props: { maxLength: 64, autoComplete: 'off' } },
    ],
  });
}

/** Approve one application: validity (1, 2 or 3 years), authorised point count, the administrator's account. */
export function ApproveDialog({ row, onClose }: { row: ApplyDto | null; onClose: () => void }) {
  if (!row) return null;
  return <OpenApproveDialog key={row.id} row={row} onClose={onClose} />;
}

function OpenApproveDialog({ row, onClose }: { row: ApplyDto; onClose: () => void }) {
  const text = useResourceText('apply');
  const resource = useMemo(() => approveForm(row, text), [row, text]);
  return (
    <ActionFormDialog
      resource={resource}
      text={text}
      title={text.t('apply.approveTitle', { referenceNo: row.referenceNo })}
      width={560}
      onClose={onClose}
    >
      <Typography.Paragraph type="secondary">
        {row.companyName} · {row.contact} · {row.email}
      </Typography.Paragraph>
      <Typography.Paragraph type="secondary">{text.t('apply.approveHint')}</Typography.Paragraph>
    </ActionFormDialog>
  );
}

/** Reject one application with a reason (the kit's prompt, checked by the contract's schema); the reason is mailed. */
export function RejectDialog({ row, onClose }: { row: ApplyDto | null; onClose: () => void }) {
  const text = useResourceText('apply');
  const queryClient = useQueryClient();
  if (!row) return null;
  return (
    <PromptDialog
      name="apply"
      text={text}
      onClose={onClose}
      opts={{
        title: text.t('apply.rejectTitle', { referenceNo: row.referenceNo }),
        field: 'reason',
        schema: applyReject,
        base: { id: row.id },
        success: 'apply.rejected',
        onOk: async (reason) => {
          await call(applyApi.reject, { body: { id: row.id, reason } });
          await queryClient.invalidateQueries({ queryKey: [applyApi.list.path] });
          await queryClient.invalidateQueries({ queryKey: [applyApi.get.path] });
        },
      }}
    />
  );
}
