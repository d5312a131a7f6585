import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ResourceTabs } from '../../shared/resource/ResourceTabs';
import { groupPriceResource, stationPriceResource } from './price.resource';

/** Finance → electricity price setting: station prices and group electricity prices, one tab each. */
export default function PricePage() {
  const navigate = useNavigate();
  const { t, i18n } = useTranslation();
  const tabs = useMemo(() => {
    const go = (path: string) => void navigate(path);
    return [
      { key: 'station', label: 'price.stationTab', resource: stationPriceResource(go, t) },
      { key: 'group', label: 'price.groupTab', resource: groupPriceResource(go, t) },
    ];
    // The columns' texts follow the language.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [navigate, t, i18n.language]);
  return <ResourceTabs tabs={tabs} />;
}
