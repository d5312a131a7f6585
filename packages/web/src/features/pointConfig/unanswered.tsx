import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

/** A request the charger (or the central system) never answered. */
export function Unanswered() {
  const { t } = useTranslation();
  return <Tag>{t('ocppLog.log.unanswered')}</Tag>;
}
