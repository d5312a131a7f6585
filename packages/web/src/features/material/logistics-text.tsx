import type { LogisticsType } from '@csms/contract';
import { useTranslation } from 'react-i18next';

export function LogisticsText({ type }: { type: LogisticsType }) {
  const { t } = useTranslation();
  return <>{t(`enums.logisticsType.${type}`)}</>;
}
