import { UploadOutlined } from '@ant-design/icons';
import { FIRMWARE_MAX_MB, firmwareVersionCreate, firmwareVersionApi } from '@csms/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Modal, Progress, Typography, Upload } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { z } from 'zod';
import { ApiError } from '../../shared/api/client';
import { feedback } from '../../shared/feedback';
import { remoteOptionsKey } from '../../shared/resource/inputs';
import { FormFields } from '../../shared/resource/FormFields';
import { useResourceText } from '../../shared/resource/labels';
import { defineResource, type FormFieldCtx } from '../../shared/resource/types';
import { useResourceForm } from '../../shared/resource/useResourceForm';
import { checkFile } from '../../shared/upload/rules';
import { uploadWithProgress } from '../../shared/upload/upload-progress';
import { formatBytes } from '../../shared/resource/cells';

/** The package's fields (the query string) and the file (the multipart part) in one form. */
const uploadSchema = firmwareVersionCreate.extend({ file: z.instanceof(Blob) });

/** The one file; checked for size before anything is sent, sent only when the dialog is confirmed. */
function FilePicker({ t, value, onChange, id }: FormFieldCtx & { value?: File; onChange?: (f: File | undefined) => void; id?: string }) {
  return (
    <Upload
      id={id}
      maxCount={1}
      fileList={value ? [{ uid: 'firmware', name: `${value.name} (${formatBytes(value.size)})`, status: 'done' }] : []}
      beforeUpload={(file) => {
        const problem = checkFile('file', file, { limit: 1, fileSize: FIRMWARE_MAX_MB, fileType: [] });
        if (problem) {
          feedback.message.error(t(problem.key, problem.params));
          return Upload.LIST_IGNORE;
        }
        onChange?.(file);
        return false;
      }}
      onRemove={() => onChange?.(undefined)}
      data-testid="firmware-file"
    >
      <Button icon={<UploadOutlined />}>{t('firmware.pickFile')}</Button>
      <Typography.Text type="secondary" style={{ display: 'block', marginTop: 4 }} onClick={(e) => e.stopPropagation()}>
        {t('firmware.fileHint', { n: FIRMWARE_MAX_MB })}
      </Typography.Text>
    </Upload>
  );
}

/** Declares the dialog's fields for the kit's form (labels `fields.firmwareVersion.*`, the contract's messages). */
const uploadForm = defineResource({
  name: 'firmwareVersion',
  api: { list: firmwareVersionApi.list },
  formSchema: { create: uploadSchema },
  columns: [],
  form: [
    { key: 'version', kind: 'text' },
    { key: 'applicationType', kind: 'text' },
    { key: 'communicationType', kind: 'text' },
    { key: 'note', kind: 'textarea' },
    { key: 'file', kind: 'custom', render: (ctx) => <FilePicker {...ctx} /> },
  ],
});
const fieldNames = (uploadForm.form ?? []).map((f) => f.key);

/**
 * Upload a package: the kit's form (validated with the contract's schema), then one multipart POST
 * with the package's fields in the query string and the share sent shown as it goes. A field the
 * server refuses (a version that exists, a file too large) is marked on its field.
 */
export function UploadDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const text = useResourceText('firmwareVersion');
  const { t } = text;
  const state = useResourceForm({ resource: uploadForm, text, mode: 'create', active: open });
  const { form, schema, bodyOf } = state;
  const queryClient = useQueryClient();
  const [percent, setPercent] = useState<number | null>(null);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  const close = () => {
    abort.current?.abort();
    abort.current = null;
    setPercent(null);
    onClose();
  };

  const submit = async () => {
    if (
      !(await form.validateFields().then(
        () => true,
        () => false,
      ))
    )
      return;
    const parsed = schema?.safeParse(bodyOf(form.getFieldsValue(true) as Record<string, unknown>));
    if (!parsed?.success) return;
    const { file, ...query } = parsed.data as z.infer<typeof uploadSchema>;
    const controller = new AbortController();
    abort.current = controller;
    setPercent(0);
    try {
      await uploadWithProgress(
        firmwareVersionApi.add,
        { query, file, onProgress: setPercent },
        { fieldErrors: true, signal: controller.signal },
      );
      feedback.message.success(t('firmware.uploaded'));
      void queryClient.invalidateQueries({ queryKey: [firmwareVersionApi.list.path] });
      // The upgrade dialog offers the packages.
      void queryClient.invalidateQueries({ queryKey: remoteOptionsKey('', '').slice(0, 1) });
      abort.current = null;
      setPercent(null);
      onClose();
    } catch (err) {
      if (controller.signal.aborted) return;
      setPercent(null);
      if (err instanceof ApiError && err.field) {
        const name = err.field.split('.')[0]!;
        if (fieldNames.includes(name)) form.setFields([{ name, errors: [err.message] }]);
        else feedback.message.error(err.message);
      }
    } finally {
      if (abort.current === controller) abort.current = null;
    }
  };

  const sending = percent !== null;
  return (
    <Modal
      open={open}
      title={t('firmware.uploadTitle')}
      width={600}
      okText={t('firmware.upload')}
      cancelText={t('common.cancel')}
      confirmLoading={sending}
      okButtonProps={{ 'data-testid': 'firmware-upload-ok' } as never}
      onOk={() => void submit()}
      onCancel={close}
      destroyOnHidden
      mask={{ closable: false }}
    >
      <FormFields resource={uploadForm} text={text} state={state} span={24} />
      {sending && (
        <div data-testid="firmware-upload-progress">
          <Progress percent={percent} status="active" />
          <Typography.Text type="secondary">
            {percent < 100 ? t('firmware.uploading', { percent }) : t('firmware.processing')}
          </Typography.Text>
        </div>
      )}
    </Modal>
  );
}
