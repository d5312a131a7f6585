import { DownloadOutlined } from '@ant-design/icons';
import { api, CAR_IMPORT_MAX_BYTES, type CarImportReport } from '@csms/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Flex, Modal, Progress, Table, Typography } from 'antd';
import dayjs from 'dayjs';
import { useEffect, useRef, useState } from 'react';
import { ApiError, call } from '../../shared/api/client';
import { saveBlob } from '../../shared/api/download';
import { subscribe } from '../../shared/events';
import { useResourceText } from '../../shared/resource/labels';
import { FileUpload } from '../../shared/upload/FileUpload';
import { downloadTemplate, reportCsv } from './car-import';

type ProgressEvent = { type: 'import.progress'; importId: string; done: number; total: number };
type Rejection = CarImportReport['rejected'][number];

const newId = () => (typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`);

/**
 * Batch import of cars (spec §5, DESIGN.md §9): download the template, upload it (xlsx, at most
 * 1 MB, through the upload kit), import; the server answers with a per-row report, shown here and
 * downloadable. A file-level error (not the template, unreadable, too big) imports nothing.
 */
export function CarImportDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const text = useResourceText('carImport');
  const { t } = text;
  const queryClient = useQueryClient();
  const [fileName, setFileName] = useState('');
  const [running, setRunning] = useState(false);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [report, setReport] = useState<CarImportReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const off = useRef<() => void>(() => {});
  useEffect(() => () => off.current(), []);

  const reset = () => {
    setFileName('');
    setReport(null);
    setError(null);
    setProgress(null);
  };
  const close = () => {
    if (running) return;
    reset();
    onClose();
  };

  const start = async () => {
    setError(null);
    if (!fileName) {
      setError(t('car.uploadFirst'));
      return;
    }
    const importId = newId();
    off.current = subscribe<ProgressEvent>('import.progress', (e) => {
      if (e.importId === importId) setProgress({ done: e.done, total: e.total });
    });
    setRunning(true);
    try {
      const r = await call(api.car.import, { body: { fileName, importId } }, { silent: true });
      setReport(r);
      void queryClient.invalidateQueries({ queryKey: [api.car.list.path] });
    } catch (err) {
      setError(err instanceof ApiError ? err.message : String(err));
    } finally {
      off.current();
      setRunning(false);
      setProgress(null);
    }
  };

  const summary = report ? t('car.summary', { total: report.total, imported: report.imported, rejected: report.rejected.length }) : '';
  const saveReport = () => {
    if (!report) return;
    const csv = reportCsv(report, (k) => text.label(k), summary);
    saveBlob(new Blob([csv], { type: 'text/csv;charset=utf-8' }), `${t('car.reportFile')}_${dayjs().format('YYYYMMDDHHmmss')}.csv`);
  };

  return (
    <Modal
      open={open}
      title={t('car.importTitle')}
      width={report ? 900 : 560}
      onCancel={close}
      mask={{ closable: false }}
      destroyOnHidden
      footer={
        report ? (
          <Flex justify="space-between">
            <Button icon={<DownloadOutlined />} onClick={saveReport} data-testid="import-report-download">
              {t('car.downloadReport')}
            </Button>
            <Flex gap={8}>
              <Button onClick={reset}>{t('car.again')}</Button>
              <Button type="primary" onClick={close}>
                {t('common.close')}
              </Button>
            </Flex>
          </Flex>
        ) : (
          <Flex justify="space-between">
            <Button
              icon={<DownloadOutlined />}
              onClick={() => void downloadTemplate('car-import-template.xlsx')}
              data-testid="import-template"
            >
              {t('car.template')}
            </Button>
            <Flex gap={8}>
              <Button onClick={close} disabled={running}>
                {t('common.cancel')}
              </Button>
              <Button type="primary" loading={running} onClick={() => void start()} data-testid="import-start">
                {t('car.start')}
              </Button>
            </Flex>
          </Flex>
        )
      }
    >
      {report ? (
        <Flex vertical gap={12}>
          <Alert
            type={report.rejected.length === 0 ? 'success' : report.imported === 0 ? 'error' : 'warning'}
            showIcon
            title={summary}
            description={report.rejected.length === 0 ? t('car.allImported') : report.imported === 0 ? t('car.noneImported') : undefined}
            data-testid="import-summary"
          />
          {report.rejected.length > 0 && (
            <>
              <Typography.Text strong>{t('car.rejectedRows')}</Typography.Text>
              <Table<Rejection>
                size="small"
                rowKey="row"
                dataSource={report.rejected}
                scroll={{ y: 320 }}
                pagination={{ pageSize: 50, showSizeChanger: false, showTotal: (total) => t('kit.total', { total }) }}
                columns={[
                  { key: 'row', dataIndex: 'row', title: text.label('row'), width: 80 },
                  { key: 'plate', dataIndex: 'plate', title: text.label('plate'), width: 140 },
                  { key: 'field', dataIndex: 'field', title: text.label('field'), width: 150, render: (f: string) => text.label(f) },
                  { key: 'reason', dataIndex: 'reason', title: text.label('reason') },
                ]}
              />
            </>
          )}
        </Flex>
      ) : (
        <Flex vertical gap={12}>
          <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
            {t('car.importHint')}
          </Typography.Paragraph>
          <FileUpload
            value={fileName}
            onChange={(v) => {
              setFileName(v);
              setError(null);
            }}
            limit={1}
            fileSize={CAR_IMPORT_MAX_BYTES / 1024 / 1024}
            fileType={['xlsx']}
            valueField="fileName"
            disabled={running}
          />
          {running && progress && (
            <div>
              <Typography.Text type="secondary">{t('car.importing', progress)}</Typography.Text>
              <Progress percent={progress.total ? Math.floor((progress.done / progress.total) * 100) : 0} />
            </div>
          )}
          {error && <Alert type="error" showIcon title={error} data-testid="import-error" />}
        </Flex>
      )}
    </Modal>
  );
}
