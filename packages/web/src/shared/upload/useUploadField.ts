import type { UploadFile, UploadProps } from 'antd';
import { Upload } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { feedback } from '../feedback';
import { baseName, checkCount, checkFile, fileUrl, splitValue, type UploadKind, type UploadLimits, type UploadProblem } from './rules';
import { UploadTransportError, uploadFile, type UploadReply } from './upload-request';

export interface UploadFieldProps extends Partial<UploadLimits> {
  /** Comma-separated stored values (antd Form passes it). */
  value?: string | null;
  onChange?: (value: string) => void;
  /** Which part of the upload reply the value keeps: `url` (default, directly fetchable) or `fileName`. */
  valueField?: keyof Pick<UploadReply, 'url' | 'fileName'>;
  disabled?: boolean;
  /** Sends the file elsewhere than /common/upload (a signed-out form's own endpoint, with its own limits). */
  uploader?: (file: Blob) => Promise<UploadReply>;
}

const stored = (f: UploadFile): string | undefined => (typeof f.response === 'string' ? f.response : undefined);

function toList(values: string[]): UploadFile[] {
  return values.map((v) => ({ uid: v, name: baseName(v), status: 'done', url: fileUrl(v), response: v }));
}

/** State and handlers shared by ImageUpload and FileUpload: check → upload → success or failure → list update. */
export function useUploadField(kind: UploadKind, props: UploadFieldProps, defaults: UploadLimits) {
  const { t } = useTranslation();
  const limits: UploadLimits = {
    limit: props.limit ?? defaults.limit,
    fileSize: props.fileSize ?? defaults.fileSize,
    fileType: props.fileType ?? defaults.fileType,
  };
  const valueField = props.valueField ?? 'url';
  const [fileList, setFileList] = useState<UploadFile[]>(() => toList(splitValue(props.value)));
  const emitted = useRef(splitValue(props.value).join(','));
  const pending = useRef(0);

  // A value set from outside (form reset, record loaded) replaces the list.
  useEffect(() => {
    const v = splitValue(props.value).join(',');
    if (v !== emitted.current) {
      emitted.current = v;
      setFileList(toList(splitValue(v)));
    }
  }, [props.value]);

  const say = (p: UploadProblem) => feedback.message.error(t(p.key, p.params));
  const loadingKey = `upload-${kind}`;

  const beforeUpload: UploadProps['beforeUpload'] = (file, batch) => {
    const tooMany = checkCount(fileList.length, batch.length, limits.limit);
    if (tooMany) {
      if (batch[0]?.uid === file.uid) say(tooMany);
      return Upload.LIST_IGNORE;
    }
    const problem = checkFile(kind, file, limits);
    if (problem) {
      say(problem);
      return Upload.LIST_IGNORE;
    }
    pending.current += 1;
    feedback.message.open({
      key: loadingKey,
      type: 'loading',
      content: t(kind === 'image' ? 'upload.imageUploading' : 'upload.fileUploading'),
      duration: 0,
    });
    return true;
  };

  const customRequest: UploadProps['customRequest'] = ({ file, onSuccess, onError }) => {
    (props.uploader ? props.uploader(file as Blob) : uploadFile(kind, file as Blob)).then(
      (reply) => onSuccess?.(reply[valueField] || reply.url || reply.fileName),
      (err: unknown) => {
        if (err instanceof UploadTransportError) feedback.message.error(t(kind === 'image' ? 'upload.imageFailed' : 'upload.fileFailed'));
        onError?.(err as Error);
      },
    );
  };

  const onChange: UploadProps['onChange'] = ({ file, fileList: next }) => {
    if (file.status === 'done' || file.status === 'error') {
      pending.current = Math.max(0, pending.current - 1);
      if (pending.current === 0) feedback.message.destroy(loadingKey);
    }
    // A failed file leaves the list; a finished one shows the stored value's URL.
    const list = next
      .filter((f) => f.status !== 'error')
      .map((f) => (f.status === 'done' && stored(f) && !f.url ? { ...f, url: fileUrl(stored(f)!) } : f));
    setFileList(list);
    if (list.every((f) => f.status === 'done')) {
      const v = list.map(stored).filter(Boolean).join(',');
      if (v !== emitted.current) {
        emitted.current = v;
        props.onChange?.(v);
      }
    }
  };

  const accept = limits.fileType.map((x) => `.${x}`).join(',');
  return {
    t,
    limits,
    fileList,
    uploadProps: { fileList, beforeUpload, customRequest, onChange, accept, multiple: limits.limit > 1, disabled: props.disabled },
  };
}
