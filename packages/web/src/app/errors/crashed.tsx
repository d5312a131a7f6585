import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { LazyResult } from '../../shared/lazy-result';

/** The crash page with antd's Result, fetched only when a crash is shown. */
export default function Crashed() {
  const { t } = useTranslation();
  return (
    <LazyResult
      status="error"
      title={t('errorLog.crashedTitle')}
      subTitle={t('errorLog.crashedHint')}
      extra={
        <Button type="primary" onClick={() => window.location.reload()}>
          {t('errorLog.reload')}
        </Button>
      }
    />
  );
}
