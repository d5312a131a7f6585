import { Card, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../shared/auth/useAuth';
import { MyProviderSettings } from './my-provider';

/**
 * "My provider" from the avatar menu: a user who sees only its own provider has no provider list
 * (and may have no system menu); this page opens that provider's settings, for those who may edit providers.
 */
export default function MyProviderPage() {
  const { t } = useTranslation();
  const { info, hasPermi } = useAuth();
  if (!info || !hasPermi('system:provider:edit')) return <Result status="403" subTitle={t('provider.myNoPermission')} />;
  return (
    <Card variant="borderless" title={t('provider.myTab')}>
      <MyProviderSettings providerId={info.providerId} />
    </Card>
  );
}
