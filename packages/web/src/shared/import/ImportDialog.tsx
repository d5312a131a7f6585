import { DownloadOutlined } from '@ant-design/icons';
import type { EndpointDef } from '@csms/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Flex, Modal, Progress, Table, Typography } from 'antd';
import dayjs from 'dayjs';
import { useEffect, useRef, useState } from 'react';
import { ApiError, call } from '../api/client';
import { saveBlob } from '../api/download';
import { subscribe } from '../events';
import { newRequestId } from '../request-id';
import { useResourceText } from '../resource/labels';
import { FileUpload } from '../upload/FileUpload';
import { downloadTemplate, reportCsv, type ImportReport } from './import-report';

type ProgressEvent = { type: 'import.progress'; importId: string; done: number; total: number };
type Rejection = ImportReport['rejected'][number];

export interface ImportDialogProps {
  open: boolean;
  onClose: () => void;
  /** UI catalogue group of the dialog's texts (`<texts>.importTitle`, `.importHint`, `.summary`, …). */
  texts: string;
  /** Vocabulary resource labelling the report's columns (`fields.<resource>.<key>`). */
  resource: string;
  /** The report's key column (the plate of a car, the parts number of a part). */
  keyField: string;
  importEndpoint: EndpointDef;
  templateEndpoint: EndpointDef;
  templateName: string;
  maxBytes: number;
  /** Lists the import changes, refreshed after it. */
  invalidates: string[];
}

/**
 * Batch import from a spreadsheet template (spec §5, DESIGN.md §9): download the template, upload it
 * (xlsx, at most `maxBytes`, through the upload kit), import; the server answers with a per-row
 * report, shown here and downloadable. A file-level error (not the template, unreadable, too big)
 * imports nothing. The summary's parameters are the report's counts.
 */
export function ImportDialog({
  open,
  onClose,
  texts,
  resource,
  keyField,
  importEndpoint,
  templateEndpoint,
  templateName,
  maxBytes,
  invalidates,
}: ImportDialogProps) {
  const text = useResourceText(resource);
  const { t } = text;
  const queryClient = useQueryClient();
  const [fileName, setFileName] = useState('');
  const [running, setRunning] = useState(false);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
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
      setError(t(`${texts}.uploadFirst`));
      return;
    }
    const importId = newRequestId();
    off.current = subscribe<ProgressEvent>('import.progress', (e) => {
      if (e.importId === importId) setProgress({ done: e.done, total: e.total });
    });
    setRunning(true);
    try {
      const r = (await call(importEndpoint, { body: { fileName, importId } } as never, { silent: true })) as ImportReport;
      setReport(r);
      for (const key of invalidates) void queryClient.invalidateQueries({ queryKey: [key] });
    } catch (err) {
      setError(err instanceof ApiError ? err.message : String(err));
    } finally {
      off.current();
      setRunning(false);
      setProgress(null);
    }
  };

  const summary = report ? t(`${texts}.summary`, { ...report, rejected: report.rejected.length }) : '';
  const saveReport = () => {
    if (!report) return;
    const csv = reportCsv(report, keyField, (k) => text.label(k), summary);
    saveBlob(new Blob([csv], { type: 'text/csv;charset=utf-8' }), `${t(`${texts}.reportFile`)}_${dayjs().format('YYYYMMDDHHmmss')}.csv`);
  };

  return (
    <Modal
      open={open}
      title={t(`${texts}.importTitle`)}
      width={report ? 900 : 560}
      onCancel={close}
      mask={{ closable: false }}
      destroyOnHidden
      footer={
        report ? (
          <Flex justify="space-between">
            <Button icon={<DownloadOutlined />} onClick={saveReport} data-testid="import-report-download">
              {t(`${texts}.downloadReport`)}
            </Button>
            <Flex gap={8}>
              <Button onClick={reset}>{t(`${texts}.again`)}</Button>
              <Button type="primary" onClick={close}>
                {t('common.close')}
              </Button>
            </Flex>
          </Flex>
        ) : (
          <Flex justify="space-between">
            <Button
              icon={<DownloadOutlined />}
              onClick={() => void downloadTemplate(templateEndpoint, templateName)}
              data-testid="import-template"
            >
              {t(`${texts}.template`)}
            </Button>
            <Flex gap={8}>
              <Button onClick={close} disabled={running}>
                {t('common.cancel')}
              </Button>
              <Button type="primary" loading={running} onClick={() => void start()} data-testid="import-start">
                {t(`${texts}.start`)}
              </Button>
            </Flex>
          </Flex>
        )
      }
    >
      {report ? (
        <Flex vertical gap={12}>
          <Alert
            type={
              report.rejected.length === 0
                ? 'success'
                : report.imported === 0 && report.total === report.rejected.length
                  ? 'error'
                  : 'warning'
            }
            showIcon
            title={summary}
            description={
              report.rejected.length === 0
                ? t(`${texts}.allImported`)
                : report.total === report.rejected.length
                  ? t(`${texts}.noneImported`)
                  : undefined
            }
            data-testid="import-summary"
          />
          {report.rejected.length > 0 && (
            <>
              <Typography.Text strong>{t(`${texts}.rejectedRows`)}</Typography.Text>
              <Table<Rejection>
                size="small"
                rowKey="row"
                dataSource={report.rejected}
                scroll={{ y: 320 }}
                pagination={{ pageSize: 50, showSizeChanger: false, showTotal: (total) => t('kit.total', { total }) }}
                columns={[
                  { key: 'row', dataIndex: 'row', title: text.label('row'), width: 80 },
                  { key: keyField, dataIndex: keyField, title: text.label(keyField), width: 150 },
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
            {t(`${texts}.importHint`)}
          </Typography.Paragraph>
          <FileUpload
            value={fileName}
            onChange={(v) => {
              setFileName(v);
              setError(null);
            }}
            limit={1}
            fileSize={maxBytes / 1024 / 1024}
            fileType={['xlsx']}
            valueField="fileName"
            disabled={running}
          />
          {running && progress && (
            <div>
              <Typography.Text type="secondary">{t(`${texts}.importing`, progress)}</Typography.Text>
              <Progress percent={progress.total ? Math.floor((progress.done / progress.total) * 100) : 0} />
            </div>
          )}
          {error && <Alert type="error" showIcon title={error} data-testid="import-error" />}
        </Flex>
      )}
    </Modal>
  );
}
