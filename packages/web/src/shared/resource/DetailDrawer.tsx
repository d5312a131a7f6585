import { useQuery } from '@tanstack/react-query';
import { Descriptions, Drawer, Spin } from 'antd';
import { call } from '../api/client';
import { renderCell } from './cells';
import type { ResourceText } from './labels';
import type { Resource } from './types';

type Values = Record<string, unknown>;

export interface DetailDrawerProps {
  resource: Resource;
  text: ResourceText;
  record: Values | null;
  onClose: () => void;
}

/** Read-only view of one record, built from the columns (fresh from `api.get` when there is one). */
export function DetailDrawer({ resource, text, record, onClose }: DetailDrawerProps) {
  const rowKey = resource.rowKey ?? 'id';
  const get = resource.api.get;
  const id = record?.[rowKey];
  const { data, isFetching } = useQuery({
    queryKey: [get?.path, { [rowKey]: id }],
    queryFn: ({ signal }) => call(get!, { query: { [rowKey]: id } as never }, { signal }) as Promise<Values>,
    enabled: record !== null && get !== undefined,
  });
  const row = (data as Values | undefined) ?? record ?? {};
  const columns = [...resource.columns.filter((c) => !c.hideInDetail), ...(resource.detailColumns ?? [])];
  const title = text.title('kit.detailTitle', { name: text.entity });
  return (
    <Drawer open={record !== null} onClose={onClose} size={columns.length > 8 ? 900 : 600} title={title} destroyOnHidden>
      <Spin spinning={isFetching}>
        <Descriptions
          bordered
          column={columns.length > 8 ? 2 : 1}
          items={columns.map((c) => ({
            key: c.key,
            label: text.label(c.key, c.label),
            children: renderCell(c, row),
            ...(c.wide ? { span: 'filled' as const } : {}),
          }))}
        />
      </Spin>
    </Drawer>
  );
}
