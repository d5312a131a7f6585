import { SearchOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AppRoute } from '../routes/access';

const HeaderSearchBox = lazy(() => import('./header-search-box'));

/** Search icon that opens a fuzzy page finder. */
export function HeaderSearch({ routes }: { routes: AppRoute[] }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const button = (
    <Tooltip title={t('shell.search')}>
      <Button type="text" icon={<SearchOutlined />} aria-label={t('shell.search')} onClick={() => setOpen(true)} />
    </Tooltip>
  );
  if (!open) return button;
  return (
    <Suspense fallback={button}>
      <HeaderSearchBox routes={routes} onClose={() => setOpen(false)} />
    </Suspense>
  );
}
