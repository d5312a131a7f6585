import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Card } from 'antd';
import { useEffect, useMemo, useState, type Key } from 'react';
import { useNavigate } from 'react-router';
import { call } from '../api/client';
import { feedback } from '../feedback';
import { confirmThenCall, useExport, useRemove } from './actions';
import { useAuth } from '../auth/useAuth';
import { withProviderScope } from './provider-scope';
import type { FormDialogState } from './FormDialog';
import { DetailDrawer, ExportColumnsDialog, FormDialog, OnceOpened, PromptDialog } from './lazy-parts';
import { useResourceText } from './labels';
import { ResourceTable } from './ResourceTable';
import { SearchBar } from './SearchBar';
import { Toolbar } from './Toolbar';
import type { PromptOptions, Resource, RowActionCtx } from './types';
import { useColumnVisibility } from './useColumnVisibility';
import { useListQuery } from './url-query';

type Row = Record<string, unknown>;

const EXPORT_CONFIG_PERMI = 'system:exportConfig:edit';

/** A whole CRUD screen from one resource definition: search, toolbar, table, form dialog, detail, delete, export. */
export function ResourcePage({ resource: declared }: { resource: Resource }) {
  const { hasPermi, info } = useAuth();
  const showProvider = info?.isShowProvider === true;
  const resource = useMemo(() => withProviderScope(declared, showProvider), [declared, showProvider]);
  const text = useResourceText(resource.name);
  const { api } = resource;
  const { query: urlQuery, setQuery } = useListQuery(api.list);
  const query = useMemo(() => (resource.pageSize ? { ...urlQuery, limit: resource.pageSize } : urlQuery), [urlQuery, resource.pageSize]);
  const list = useQuery({
    queryKey: [api.list.path, query],
    queryFn: ({ signal }) =>
      call(api.list, api.list.method === 'POST' ? { body: query as never } : { query: query as never }, { signal }) as Promise<{
        list: Row[];
        total: number;
        /** Past the server's exact-count limit the total is the database's estimate (records and logs). */
        totalEstimated?: boolean;
      }>,
    placeholderData: keepPreviousData,
  });
  const search = resource.search ?? [];
  const [showSearch, setShowSearch] = useState(true);
  const [selected, setSelected] = useState<Key[]>([]);
  const [selectedRows, setSelectedRows] = useState<Row[]>([]);
  const select = (keys: Key[], rows: Row[] = []) => {
    setSelected(keys);
    setSelectedRows(rows);
  };
  const [dialog, setDialog] = useState<FormDialogState | null>(null);
  const [detail, setDetail] = useState<Row | null>(null);
  const [prompt, setPrompt] = useState<PromptOptions | null>(null);
  const [exportColumns, setExportColumns] = useState(false);
  // Saving the configuration needs its own permission; without it the menu entry is not offered.
  const canConfigureExport = resource.exportSource !== undefined && hasPermi(EXPORT_CONFIG_PERMI);
  const { hidden, setHidden } = useColumnVisibility(resource.name, resource.columns);
  const remove = useRemove(resource, text, () => select([]));
  const rowKey = resource.rowKey ?? 'id';
  // Rows that are never deleted may be selected for the batch buttons: the batch delete leaves them out.
  const removable = selected.filter((k) => {
    const row = selectedRows.find((r) => r[rowKey] === k);
    return !row || resource.rowRemovable?.(row) !== false;
  });
  const runExport = useExport(resource, text, query);
  const refetch = () => void list.refetch();
  const listFailed = resource.texts?.listFailed;
  const { t } = text;
  const failedAt = list.isError ? list.errorUpdatedAt : 0;
  useEffect(() => {
    if (failedAt && listFailed) feedback.message.error(t(listFailed));
  }, [failedAt, listFailed, t]);
  // After deleting the last rows of the last page, step back to the page that still exists.
  const lastPage = Math.max(1, Math.ceil((list.data?.total ?? 0) / query.limit));
  useEffect(() => {
    if (list.data && list.data.list.length === 0 && query.page > lastPage) setQuery({ ...query, page: lastPage });
  }, [list.data, query, lastPage, setQuery]);
  const navigate = useNavigate();
  const pages = resource.pages;
  const ctx: RowActionCtx = useMemo(
    () => ({
      refetch: () => void list.refetch(),
      openEdit: (record) => (pages ? void navigate(pages.edit(record)) : setDialog({ mode: 'edit', record })),
      openDetail: setDetail,
      confirm: (opts) => confirmThenCall(text, opts, () => void list.refetch()),
      prompt: setPrompt,
      navigate: (to) => void navigate(to),
    }),
    [list, text, pages, navigate],
  );

  return (
    <Card variant="borderless">
      {search.length > 0 && showSearch && (
        <SearchBar
          name={resource.name}
          search={search}
          query={query}
          text={text}
          onSearch={(filters) => setQuery({ ...filters, page: 1, limit: query.limit })}
          onReset={() => setQuery({ limit: query.limit })}
        />
      )}
      <Toolbar
        text={text}
        permissions={resource.permissions}
        canAdd={api.add !== undefined && (resource.form?.length ?? 0) > 0}
        canRemove={api.remove !== undefined}
        canExport={api.export !== undefined}
        sessionExport={api.export?.access === 'session'}
        selectedCount={removable.length}
        batchActions={resource.batchActions}
        selectedRows={selectedRows}
        onAdd={() => (pages ? void navigate(pages.create) : setDialog({ mode: 'create' }))}
        onBatchRemove={() => remove(removable as Array<string | number>)}
        onExport={(format) => void runExport(format)}
        onExportColumns={canConfigureExport ? () => setExportColumns(true) : undefined}
        showSearch={search.length > 0 ? showSearch : null}
        onToggleSearch={() => setShowSearch((s) => !s)}
        onRefresh={refetch}
        columns={resource.columns.filter((c) => !c.hideInTable)}
        hidden={hidden}
        onHiddenChange={setHidden}
      />
      <ResourceTable
        resource={resource}
        text={text}
        rows={list.data?.list ?? []}
        total={list.data?.total ?? 0}
        totalEstimated={list.data?.totalEstimated ?? false}
        loading={list.isFetching}
        page={query.page}
        limit={query.limit}
        hidden={hidden}
        selected={selected}
        onSelect={select}
        onPage={(page, limit) => setQuery({ ...query, page, limit })}
        onRemove={remove}
        ctx={ctx}
      />
      <OnceOpened open={dialog !== null}>
        <FormDialog resource={resource} text={text} state={dialog} onClose={() => setDialog(null)} />
      </OnceOpened>
      <OnceOpened open={detail !== null}>
        <DetailDrawer resource={resource} text={text} record={detail} onClose={() => setDetail(null)} />
      </OnceOpened>
      <OnceOpened open={prompt !== null}>
        <PromptDialog name={resource.name} text={text} opts={prompt} onClose={() => setPrompt(null)} />
      </OnceOpened>
      {resource.exportSource && (
        <OnceOpened open={exportColumns}>
          <ExportColumnsDialog source={resource.exportSource} open={exportColumns} onClose={() => setExportColumns(false)} />
        </OnceOpened>
      )}
    </Card>
  );
}
