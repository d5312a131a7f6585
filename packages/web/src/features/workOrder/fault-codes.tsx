import { PlusOutlined } from '@ant-design/icons';
import { faultCodeSave, type FaultCodeDto, workOrderApi } from '@csms/contract';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Input, Space, Table, Typography, type TableProps } from 'antd';
import { useMemo, useState } from 'react';
import { call } from '../../shared/api/client';
import { useAuth } from '../../shared/auth/useAuth';
import { providerOptions } from '../../shared/options/provider-options';
import { confirmThenCall } from '../../shared/resource/actions';
import { formatDateTime } from '../../shared/resource/cells';
import type { FormDialogState } from '../../shared/resource/FormDialog';
import { RemoteSelect } from '../../shared/resource/inputs';
import { useResourceText } from '../../shared/resource/labels';
import { editDeleteColumn, ManageModal } from '../../shared/resource/ManageModal';
import { defineResource } from '../../shared/resource/types';
import { permiOf } from './work-order.resource';

const PAGE_SIZE = 10;

/** A code's steps, one per line, as a numbered list. */
const stepsOf = (steps: string) =>
  steps
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * The code's form for the kit's dialog (labels `fields.faultCode.*`, the contract's schema and messages).
 * A super provider's users choose the provider of a new code (the list's provider to start with);
 * the others' codes are their own provider's, and a code never changes provider.
 */
function codeForm(superUser: boolean, providerId: number | undefined) {
  return defineResource({
    name: 'faultCode',
    api: { list: workOrderApi.faultCodes, add: workOrderApi.saveFaultCode, edit: workOrderApi.saveFaultCode },
    formSchema: { create: faultCodeSave, edit: faultCodeSave },
    texts: { saved: 'faultCode.saved' },
    columns: [],
    initialValues: () => (superUser && providerId !== undefined ? { providerId } : {}),
    toForm: (row) => ({ id: row.id, providerId: row.providerId, code: row.code, title: row.title, steps: row.steps }),
    toBody: ({ providerId, ...body }, mode) =>
      superUser && mode === 'create' && providerId !== undefined ? { ...body, providerId } : body,
    form: [
      {
        key: 'providerId',
        kind: 'select',
        remote: providerOptions,
        on: 'create',
        visible: () => superUser,
        extra: () => 'faultCode.providerHint',
        props: { allowClear: false },
      },
      { key: 'code', kind: 'text', props: { maxLength: 50 } },
      { key: 'title', kind: 'text', props: { maxLength: 100 } },
      { key: 'steps', kind: 'textarea', extra: () => 'faultCode.stepsHint', props: { rows: 6, maxLength: 2000, showCount: true } },
    ],
  });
}

/**
 * Vendor fault codes (issue 17): a provider's own codes of its chargers (the vendor error code of a
 * status notification) with their fixes, which an order's recommended fix shows. Listed with
 * `workOrder:faultCode:list`; added, edited and removed with `workOrder:faultCode:edit`.
 */
export function FaultCodesDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const text = useResourceText('faultCode');
  const { t } = text;
  const { hasPermi, info } = useAuth();
  const queryClient = useQueryClient();
  const canEdit = permiOf(workOrderApi.saveFaultCode).every((p) => hasPermi(p));
  const superUser = info?.providerType === 'super';
  const [code, setCode] = useState('');
  const [providerId, setProviderId] = useState<number | undefined>();
  const [page, setPage] = useState(1);
  const resource = useMemo(() => codeForm(superUser, providerId), [superUser, providerId]);
  const [editing, setEditing] = useState<FormDialogState | null>(null);
  const query = { code: code || undefined, providerId, page, limit: PAGE_SIZE };
  const { data, isFetching } = useQuery({
    queryKey: [workOrderApi.faultCodes.path, query],
    queryFn: ({ signal }) => call(workOrderApi.faultCodes, { query }, { signal }),
    enabled: open,
    placeholderData: keepPreviousData,
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: [workOrderApi.faultCodes.path] });
  const remove = (row: FaultCodeDto) =>
    confirmThenCall(
      text,
      {
        content: 'faultCode.removeConfirm',
        params: { code: row.code },
        success: 'faultCode.removed',
        onOk: () => call(workOrderApi.removeFaultCode, { body: { id: row.id } }),
      },
      refresh,
    );

  const columns: TableProps<FaultCodeDto>['columns'] = [
    { key: 'code', title: text.label('code'), width: 150, render: (_, row) => <Typography.Text code>{row.code}</Typography.Text> },
    { key: 'title', dataIndex: 'title', title: text.label('title'), width: 180 },
    {
      key: 'steps',
      title: text.label('steps'),
      render: (_, row) => (
        <ol style={{ margin: 0, paddingInlineStart: 18 }}>
          {stepsOf(row.steps).map((s, i) => (
            <li key={i}>{s}</li>
          ))}
        </ol>
      ),
    },
    ...(info?.isShowProvider ? [{ key: 'providerName', dataIndex: 'providerName', title: text.label('providerName'), width: 130 }] : []),
    { key: 'updateTime', title: text.label('updateTime'), width: 170, render: (_, row) => formatDateTime(row.updateTime) },
    ...editDeleteColumn<FaultCodeDto>(t, canEdit, (row) => setEditing({ mode: 'edit', record: row }), remove),
  ];

  return (
    <ManageModal
      open={open}
      title={t('faultCode.title')}
      hint={t('faultCode.hint')}
      onClose={onClose}
      resource={resource}
      text={text}
      editing={editing}
      onEditingClose={() => setEditing(null)}
    >
      <Space wrap style={{ marginBottom: 10 }}>
        <Input.Search
          allowClear
          style={{ width: 220 }}
          placeholder={t('kit.inputPlaceholder', { field: text.label('code') })}
          onSearch={(v) => {
            setCode(v.trim());
            setPage(1);
          }}
          data-testid="fault-code-search"
        />
        {superUser && (
          <RemoteSelect
            remote={providerOptions}
            value={providerId}
            allowClear
            style={{ width: 220 }}
            onChange={(v: number | undefined) => {
              setProviderId(v);
              setPage(1);
            }}
            placeholder={t('kit.selectPlaceholder', { field: text.label('providerId') })}
            data-testid="fault-code-provider"
          />
        )}
        {canEdit && (
          <Button type="primary" ghost icon={<PlusOutlined />} onClick={() => setEditing({ mode: 'create' })} data-testid="fault-code-add">
            {t('common.add')}
          </Button>
        )}
      </Space>
      <Table<FaultCodeDto>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={data?.list ?? []}
        loading={isFetching}
        scroll={{ y: 480 }}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: data?.total ?? 0,
          showSizeChanger: false,
          showTotal: (total) => t('kit.total', { total }),
          onChange: setPage,
        }}
        data-testid="fault-codes"
      />
    </ManageModal>
  );
}
