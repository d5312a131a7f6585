import { Breadcrumb } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { AppRoute } from '../routes/access';

/** Breadcrumb of spec §2: the dashboard first, then the open page's chain; only the dashboard is a link. */
export function AppBreadcrumb({ crumbs }: { crumbs: AppRoute[] }) {
  const { t } = useTranslation();
  const chain = crumbs.filter((r) => r.path !== '/dashboard');
  const items = [
    { key: '/dashboard', title: chain.length ? <Link to="/dashboard">{t('menu.dashboard')}</Link> : t('menu.dashboard') },
    ...chain.map((r) => ({ key: r.path, title: t(r.titleKey) })),
  ];
  return <Breadcrumb items={items} style={{ marginInlineStart: 8 }} />;
}
