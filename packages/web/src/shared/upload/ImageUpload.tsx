import { PlusOutlined } from '@ant-design/icons';
import { Modal, Upload } from 'antd';
import { useState } from 'react';
import { uploadDefaults } from './rules';
import { useUploadField, type UploadFieldProps } from './useUploadField';

export type ImageUploadProps = UploadFieldProps;

/** Image field (defaults: 5 images, 5 MB, png/jpg/jpeg); value is a comma-separated list of stored images. */
export function ImageUpload(props: ImageUploadProps) {
  const { t, limits, fileList, uploadProps } = useUploadField('image', props, uploadDefaults.image);
  const [preview, setPreview] = useState<string | null>(null);
  return (
    <>
      <Upload {...uploadProps} listType="picture-card" onPreview={(f) => setPreview(f.url ?? f.thumbUrl ?? null)}>
        {fileList.length < limits.limit && !props.disabled && (
          <button type="button" style={{ border: 0, background: 'none', cursor: 'pointer' }}>
            <PlusOutlined />
            <div style={{ marginTop: 8 }}>{t('upload.upload')}</div>
          </button>
        )}
      </Upload>
      <Modal open={preview !== null} title={t('upload.preview')} footer={null} onCancel={() => setPreview(null)} width={800}>
        {preview && <img alt="" src={preview} style={{ display: 'block', maxWidth: '100%', margin: '0 auto' }} />}
      </Modal>
    </>
  );
}
