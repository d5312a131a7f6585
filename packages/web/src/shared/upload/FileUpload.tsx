import { UploadOutlined } from '@ant-design/icons';
import { Button, Typography, Upload } from 'antd';
import { uploadDefaults, type UploadKind } from './rules';
import { useUploadField, type UploadFieldProps } from './useUploadField';

export interface FileUploadProps extends UploadFieldProps {
  /** Show the "size and format" hint under the button (default true). */
  showTip?: boolean;
  /** Which server rule the files follow: `file` (documents, the default) or `scan` (a PDF or a photo of a paper). */
  kind?: Extract<UploadKind, 'file' | 'scan'>;
}

/**
 * File field (defaults: 5 files, 5 MB, doc/xls/ppt/txt/pdf; kind `scan`: 1 file, 5 MB, pdf/png/jpg/jpeg); value is a
 * comma-separated list of stored files.
 */
export function FileUpload({ showTip = true, kind = 'file', ...props }: FileUploadProps) {
  const { t, limits, fileList, uploadProps } = useUploadField(kind, props, uploadDefaults[kind]);
  const full = fileList.length >= limits.limit;
  return (
    <Upload {...uploadProps} listType="text">
      <Button icon={<UploadOutlined />} disabled={full || props.disabled}>
        {t('upload.selectFile')}
      </Button>
      {showTip && (
        <Typography.Text type="secondary" style={{ display: 'block', marginTop: 4 }} onClick={(e) => e.stopPropagation()}>
          {t('upload.tip', { n: limits.fileSize, types: limits.fileType.join('/') })}
        </Typography.Text>
      )}
    </Upload>
  );
}
