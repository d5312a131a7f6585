import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import { type ExportSource, exportConfigApi } from '@csms/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Checkbox, Flex, Modal, Spin, theme, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../api/client';
import { feedback } from '../feedback';

export interface ExportColumn {
  key: string;
  checked: boolean;
}

/** The stored choice first (in its order, checked), then the other columns the export offers (unchecked). */
export function columnsFromConfig(available: readonly string[], chosen: readonly string[]): ExportColumn[] {
  const picked = chosen.filter((k) => available.includes(k));
  return [
    ...picked.map((key) => ({ key, checked: true })),
    ...available.filter((k) => !picked.includes(k)).map((key) => ({ key, checked: false })),
  ];
}

/** Swap a column with its neighbour (`step` -1 up, +1 down); out of range leaves the list as it is. */
export function moveColumn(list: ExportColumn[], index: number, step: -1 | 1): ExportColumn[] {
  const to = index + step;
  if (index < 0 || to < 0 || to >= list.length) return list;
  const next = [...list];
  [next[index], next[to]] = [next[to]!, next[index]!];
  return next;
}

export const exportConfigKey = (source: ExportSource) => [exportConfigApi.get.path, source] as const;

export interface ExportColumnsDialogProps {
  source: ExportSource;
  open: boolean;
  onClose: () => void;
}

/** Which columns an export writes and in what order (spec §7 Export), stored per provider by the server. */
export function ExportColumnsDialog({ source, open, onClose }: ExportColumnsDialogProps) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const { token } = theme.useToken();
  const { data, isFetching } = useQuery({
    queryKey: exportConfigKey(source),
    queryFn: ({ signal }) => call(exportConfigApi.get, { query: { exportSource: source } }, { signal }),
    enabled: open,
  });
  const [columns, setColumns] = useState<ExportColumn[]>([]);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (data && open) setColumns(columnsFromConfig(data.available, data.exportItemList));
  }, [data, open]);

  const label = (key: string) => {
    const own = `fields.${source}.${key}`;
    return t(i18n.exists(own) ? own : `fields.common.${key}`);
  };
  const chosen = columns.filter((c) => c.checked).map((c) => c.key);
  const save = async () => {
    setSaving(true);
    try {
      const saved = await call(exportConfigApi.save, { body: { exportSource: source, exportItemList: chosen } });
      queryClient.setQueryData(exportConfigKey(source), saved);
      feedback.message.success(t('common.success'));
      onClose();
    } catch {
      // The client has shown the server's reason.
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('kit.exportColumnsTitle', { name: t(`enums.exportSource.${source}`) })}
      width={480}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ disabled: chosen.length === 0, 'data-testid': 'export-columns-save' } as never}
      confirmLoading={saving}
      onOk={() => void save()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Spin spinning={isFetching}>
        <Typography.Paragraph type="secondary">{t('kit.exportColumnsHint')}</Typography.Paragraph>
        <Flex vertical style={{ border: `1px solid ${token.colorBorderSecondary}`, borderRadius: token.borderRadius }}>
          {columns.map((c, i) => (
            <Flex
              key={c.key}
              data-testid={`export-column-${c.key}`}
              align="center"
              justify="space-between"
              style={{ padding: '4px 12px', borderTop: i === 0 ? undefined : `1px solid ${token.colorBorderSecondary}` }}
            >
              <Checkbox
                checked={c.checked}
                onChange={(e) => setColumns((l) => l.map((x) => (x.key === c.key ? { ...x, checked: e.target.checked } : x)))}
              >
                {label(c.key)}
              </Checkbox>
              <span>
                <Button
                  size="small"
                  type="text"
                  icon={<ArrowUpOutlined />}
                  aria-label={t('kit.moveUp')}
                  disabled={i === 0}
                  onClick={() => setColumns((l) => moveColumn(l, i, -1))}
                />
                <Button
                  size="small"
                  type="text"
                  icon={<ArrowDownOutlined />}
                  aria-label={t('kit.moveDown')}
                  disabled={i === columns.length - 1}
                  onClick={() => setColumns((l) => moveColumn(l, i, 1))}
                />
              </span>
            </Flex>
          ))}
        </Flex>
        <Flex justify="space-between" style={{ marginTop: 8 }}>
          <Typography.Text type={chosen.length === 0 ? 'danger' : 'secondary'}>
            {t('kit.exportColumnsCount', { n: chosen.length, total: columns.length })}
          </Typography.Text>
          <Button size="small" type="link" onClick={() => setColumns((data?.available ?? []).map((key) => ({ key, checked: true })))}>
            {t('kit.exportColumnsDefaults')}
          </Button>
        </Flex>
      </Spin>
    </Modal>
  );
}
