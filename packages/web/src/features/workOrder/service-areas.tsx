import { PlusOutlined } from '@ant-design/icons';
import { serviceAreaSave, type AreaRole, type ServiceAreaDto, stationApi, workOrderApi } from '@csms/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Form, Select, Space, Table, Tag, type TableProps } from 'antd';
import { useMemo, useState } from 'react';
import { call } from '../../shared/api/client';
import { useAuth } from '../../shared/auth/useAuth';
import { type FieldValue } from '../../shared/options/chosen-point-fields';
import { providerOptions } from '../../shared/options/provider-options';
import { confirmThenCall } from '../../shared/resource/actions';
import type { FormDialogState } from '../../shared/resource/FormDialog';
import { RemoteSelect } from '../../shared/resource/inputs';
import { useResourceText } from '../../shared/resource/labels';
import { editDeleteColumn, ManageModal } from '../../shared/resource/ManageModal';
import { defineResource, type FormFieldCtx } from '../../shared/resource/types';
import { permiOf } from './work-order.resource';

/** The members' fields of the form, by role. */
const roleFields = { leader: 'leaderIds', serviceMan: 'serviceManIds', archivist: 'archivistIds' } as const satisfies Record<
  AreaRole,
  string
>;
const roles = Object.keys(roleFields) as AreaRole[];

const membersOf = (area: ServiceAreaDto, role: AreaRole) => area.members.filter((m) => m.role === role);

/** The area the form edits (none in the add dialog). */
const areaOf = (ctx: Pick<FormFieldCtx, 'record'>) => ctx.record as unknown as ServiceAreaDto | undefined;

/** Whose stations and people the form offers: the chosen provider, the area's, else the user's own. */
function useAreaProvider({ form, record }: Pick<FormFieldCtx, 'form' | 'record'>): number | undefined {
  const chosen = Form.useWatch('providerId', form) as number | undefined;
  const { info } = useAuth();
  return chosen ?? areaOf({ record })?.providerId ?? info?.providerId;
}

/** The provider (super provider's users only); choosing another empties the stations and the people. */
function AreaProviderField({ form, mode, t, value, onChange, id }: FormFieldCtx & FieldValue<number>) {
  return (
    <RemoteSelect
      id={id}
      remote={providerOptions}
      value={value}
      disabled={mode === 'edit'}
      allowClear={false}
      onChange={(v: number) => {
        onChange?.(v);
        form.setFieldsValue({ stationIds: [], leaderIds: [], serviceManIds: [], archivistIds: [] });
      }}
      placeholder={t('kit.selectPlaceholder', { field: t('fields.serviceArea.providerId') })}
      data-testid="area-provider"
    />
  );
}

/** The provider's stations (`getStations`); the area's own keep their names. */
function AreaStationsField(props: FormFieldCtx & FieldValue<number[]>) {
  const { t, value, onChange, id } = props;
  const providerId = useAreaProvider(props);
  const { data, isFetching } = useQuery({
    queryKey: [stationApi.options.path, 'provider', providerId],
    queryFn: ({ signal }) => call(stationApi.options, { body: { providerId } }, { signal }),
  });
  const names = new Map((areaOf(props)?.stations ?? []).map((s) => [s.id, s.name]));
  for (const s of data ?? []) names.set(s.id, s.stationName);
  return (
    <Select
      id={id}
      mode="multiple"
      allowClear
      value={value}
      onChange={onChange}
      loading={isFetching}
      showSearch={{ optionFilterProp: 'label' }}
      placeholder={t('kit.selectPlaceholder', { field: t('fields.serviceArea.stationIds') })}
      options={[...names].map(([value, label]) => ({ value, label }))}
      data-testid="area-stations"
    />
  );
}

/** The provider's enabled system users (`userOptions`) for one role; the area's members keep their names. */
function AreaMembersField(props: FormFieldCtx & FieldValue<number[]> & { role: AreaRole }) {
  const { t, value, onChange, id, role } = props;
  const providerId = useAreaProvider(props);
  const { data, isFetching } = useQuery({
    queryKey: [workOrderApi.userOptions.path, providerId],
    queryFn: ({ signal }) => call(workOrderApi.userOptions, { query: { providerId } }, { signal }),
  });
  const area = areaOf(props);
  const names = new Map((area ? membersOf(area, role) : []).map((m) => [m.userId, m.name]));
  for (const u of data ?? []) names.set(u.id, `${u.name} (${u.username})`);
  return (
    <Select
      id={id}
      mode="multiple"
      allowClear
      value={value}
      onChange={onChange}
      loading={isFetching}
      showSearch={{ optionFilterProp: 'label' }}
      placeholder={t('kit.selectPlaceholder', { field: t(`fields.serviceArea.${roleFields[role]}`) })}
      options={[...names].map(([value, label]) => ({ value, label }))}
      data-testid={`area-${role}`}
    />
  );
}

/** The area's form for the kit's dialog (labels `fields.serviceArea.*`, the contract's schema and messages). */
function areaForm(superUser: boolean) {
  return defineResource({
    name: 'serviceArea',
    api: { list: workOrderApi.areas, add: workOrderApi.saveArea, edit: workOrderApi.saveArea },
    formSchema: { create: serviceAreaSave, edit: serviceAreaSave },
    formWidth: 640,
    texts: { saved: 'serviceArea.saved' },
    columns: [],
    toForm: (row) => {
      const area = row as unknown as ServiceAreaDto;
      return {
        id: area.id,
        providerId: area.providerId,
        name: area.name,
        stationIds: area.stations.map((s) => s.id),
        ...Object.fromEntries(roles.map((role) => [roleFields[role], membersOf(area, role).map((m) => m.userId)])),
      };
    },
    // Only a super provider's users choose the provider; the others' areas are their own provider's.
    toBody: ({ providerId, ...body }) => (superUser && providerId !== undefined ? { ...body, providerId } : body),
    form: [
      { key: 'providerId', kind: 'custom', visible: () => superUser, render: (ctx) => <AreaProviderField {...ctx} /> },
      { key: 'name', kind: 'text', props: { maxLength: 50 } },
      { key: 'stationIds', kind: 'custom', extra: () => 'serviceArea.stationsHint', render: (ctx) => <AreaStationsField {...ctx} /> },
      ...roles.map((role) => ({
        key: roleFields[role],
        kind: 'custom' as const,
        extra: () => `serviceArea.hints.${role}`,
        render: (ctx: FormFieldCtx) => <AreaMembersField {...ctx} role={role} />,
      })),
    ],
  });
}

const tags = (names: string[]) => (
  <Space size={[0, 4]} wrap>
    {names.map((n, i) => (
      <Tag key={`${n}-${i}`}>{n}</Tag>
    ))}
  </Space>
);

/**
 * Service areas (spec §4 "Work order flow"): the stations of one provider with their leaders, service
 * men and archive people, who decide who may assign, process and archive an order there. Listed
 * with `workOrder:area:list`; added, edited (the kit's form dialog) and removed with `workOrder:area:edit`.
 */
export function ServiceAreasDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const text = useResourceText('serviceArea');
  const { t } = text;
  const { hasPermi, info } = useAuth();
  const queryClient = useQueryClient();
  const canEdit = permiOf(workOrderApi.saveArea).every((p) => hasPermi(p));
  const superUser = info?.providerType === 'super';
  const resource = useMemo(() => areaForm(superUser), [superUser]);
  const [editing, setEditing] = useState<FormDialogState | null>(null);
  const { data, isFetching } = useQuery({
    queryKey: [workOrderApi.areas.path],
    queryFn: ({ signal }) => call(workOrderApi.areas, {}, { signal }),
    enabled: open,
  });
  const remove = (area: ServiceAreaDto) =>
    confirmThenCall(
      text,
      {
        content: 'serviceArea.removeConfirm',
        params: { name: area.name },
        success: 'serviceArea.removed',
        onOk: () => call(workOrderApi.removeArea, { body: { id: area.id } }),
      },
      () => void queryClient.invalidateQueries({ queryKey: [workOrderApi.areas.path] }),
    );

  const columns: TableProps<ServiceAreaDto>['columns'] = [
    { key: 'name', dataIndex: 'name', title: text.label('name'), width: 140 },
    ...(info?.isShowProvider ? [{ key: 'providerName', dataIndex: 'providerName', title: text.label('providerName'), width: 130 }] : []),
    {
      key: 'stations',
      title: text.label('stationIds'),
      render: (_: unknown, area: ServiceAreaDto) => tags(area.stations.map((s) => s.name)),
    },
    ...roles.map((role) => ({
      key: role,
      title: text.label(roleFields[role]),
      width: 150,
      render: (_: unknown, area: ServiceAreaDto) => tags(membersOf(area, role).map((m) => m.name)),
    })),
    ...editDeleteColumn<ServiceAreaDto>(t, canEdit, (area) => setEditing({ mode: 'edit', record: area }), remove),
  ];

  return (
    <ManageModal
      open={open}
      title={t('serviceArea.title')}
      hint={t('serviceArea.hint')}
      onClose={onClose}
      resource={resource}
      text={text}
      editing={editing}
      onEditingClose={() => setEditing(null)}
    >
      {canEdit && (
        <Button
          type="primary"
          ghost
          icon={<PlusOutlined />}
          style={{ marginBottom: 10 }}
          onClick={() => setEditing({ mode: 'create' })}
          data-testid="area-add"
        >
          {t('common.add')}
        </Button>
      )}
      <Table<ServiceAreaDto>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={data ?? []}
        loading={isFetching}
        pagination={false}
        scroll={{ y: 480 }}
        data-testid="service-areas"
      />
    </ManageModal>
  );
}
