import { commonApi } from '@csms/contract';
import { useQuery } from '@tanstack/react-query';
import { Empty, Flex, Modal, QRCode, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../shared/api/client';

/** The phone-app download hint: a QR code of the configured `app.downloadUrl`. */
export default function AppDownloadDialog({ onClose }: { onClose(): void }) {
  const { t } = useTranslation();
  const { data: url, isLoading } = useQuery({
    queryKey: ['config', 'app.downloadUrl'],
    queryFn: () => call(commonApi.configKey, { params: { key: 'app.downloadUrl' } }, { silent: true }),
  });
  return (
    <Modal open title={t('auth.appDownload')} footer={null} onCancel={onClose} width={360} destroyOnHidden>
      <Flex vertical align="center" gap={12} style={{ paddingBlock: 16 }}>
        {isLoading ? (
          <Spin />
        ) : url ? (
          <>
            <QRCode value={url} size={200} />
            <Typography.Text type="secondary">{t('auth.appDownloadHint')}</Typography.Text>
          </>
        ) : (
          <Empty description={t('auth.appDownloadMissing')} />
        )}
      </Flex>
    </Modal>
  );
}
