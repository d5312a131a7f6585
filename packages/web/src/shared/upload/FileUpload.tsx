import { UploadOutlined } from '@ant-design/icons';
import { Button, Typography, Upload } from 'antd';
import { uploadDefaults } from './rules';
import { useUploadField, type UploadFieldProps } from './useUploadField';

export interface FileUploadProps extends UploadFieldProps {
  /** Show the "size and format" hint under the button (default true). */
  showTip?: boolean;
}

/** File field (defaults: 5 files, 5 MB, doc/xls/ppt/txt/pdf); value is a comma-separated list of stored files. */
export function FileUpload({ showTip = true, ...props }: FileUploadProps) {
  const { t, limits, fileList, uploadProps } = useUploadField('file', props, uploadDefaults.file);
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
