import { type ComponentUseDto, componentApi } from '@csms/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Drawer, Table, type TableProps } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { call } from '../../shared/api/client';
import { renderCell } from '../../shared/resource/cells';
import { useResourceText } from '../../shared/resource/labels';
import type { ColumnDef } from '../../shared/resource/types';
import { componentUseColumns } from './maintenance-records.resource';

/** The point's own columns, which every row of its history would repeat. */
const pointKeys = new Set(['serialNumber', 'pointName', 'stationName', 'providerName']);
const columns = componentUseColumns.filter((c) => !pointKeys.has(c.key)) as ColumnDef<Record<string, unknown>>[];

const PAGE_SIZE = 10;

export interface PointMaintenanceDrawerProps {
  /** The point whose history is shown; null: closed. */
  point: { serialNumber: string } | null;
  onClose: () => void;
}

/**
 * A charge point's maintenance history (issue 17): the components its repairs replaced or repaired,
 * newest first (`getComponentUseInfo?serialNumber=`), with a link to the whole list filtered on it.
 */
export function PointMaintenanceDrawer({ point, onClose }: PointMaintenanceDrawerProps) {
  const text = useResourceText('componentUse');
  const { t } = text;
  const [page, setPage] = useState({ serial: '', n: 1 });
  const serialNumber = point?.serialNumber ?? '';
  // Another point starts at its first page.
  const current = page.serial === serialNumber ? page.n : 1;
  const { data, isFetching } = useQuery({
    queryKey: [componentApi.list.path, { serialNumber, page: current, limit: PAGE_SIZE }],
    queryFn: ({ signal }) => call(componentApi.list, { query: { serialNumber, page: current, limit: PAGE_SIZE } }, { signal }),
    enabled: point !== null,
    placeholderData: keepPreviousData,
  });
  const tableColumns: TableProps<ComponentUseDto>['columns'] = columns.map((c) => ({
    key: c.key,
    title: text.label(c.key, c.label),
    width: c.width,
    ellipsis: c.ellipsis,
    render: (_: unknown, row: ComponentUseDto) => renderCell(c, row as unknown as Record<string, unknown>),
  }));
  return (
    <Drawer
      open={point !== null}
      onClose={onClose}
      size={1000}
      title={t('componentUse.historyTitle', { serial: serialNumber })}
      extra={
        point && (
          <Link to={`/workOrder/maintainManage?serialNumber=${encodeURIComponent(serialNumber)}`} data-testid="point-maintenance-list">
            {t('componentUse.openList')}
          </Link>
        )
      }
      destroyOnHidden
    >
      <Table<ComponentUseDto>
        rowKey="id"
        size="small"
        columns={tableColumns}
        dataSource={data?.list ?? []}
        loading={isFetching}
        locale={{ emptyText: t('componentUse.noRecords') }}
        scroll={{ x: 'max-content' }}
        pagination={{
          current,
          pageSize: PAGE_SIZE,
          total: data?.total ?? 0,
          showSizeChanger: false,
          showTotal: (total) => t('kit.total', { total }),
          onChange: (n) => setPage({ serial: serialNumber, n }),
        }}
        data-testid="point-maintenance"
      />
    </Drawer>
  );
}
