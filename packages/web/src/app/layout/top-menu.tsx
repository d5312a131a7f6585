import { Menu } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { AppRoute } from '../routes/access';
import { iconOf, openMenuPath, type MenuItem } from './menu-items';

const MORE = '__more__';
const visibleCount = () => Math.max(1, Math.floor(window.innerWidth / 2.5 / 85));

/**
 * Top navigation (spec §2): the top-level entries, about width/2.5/85 of them, the rest under
 * 'more'. Choosing an entry opens its default child, whose siblings then fill the sidebar.
 */
export function TopMenu({ menus, activeTop }: { menus: AppRoute[]; activeTop?: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [count, setCount] = useState(visibleCount);
  useEffect(() => {
    const onResize = () => setCount(visibleCount());
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);

  const items = useMemo(() => {
    const entry = (r: AppRoute): MenuItem => ({ key: r.path, label: t(r.titleKey), icon: iconOf(r) });
    const shown = menus.slice(0, count).map(entry);
    const rest = menus.slice(count).map(entry);
    return rest.length ? [...shown, { key: MORE, label: t('shell.more'), children: rest }] : shown;
  }, [menus, count, t]);

  return (
    <Menu
      mode="horizontal"
      disabledOverflow
      items={items}
      selectedKeys={activeTop ? [activeTop] : []}
      style={{ flex: 1, minWidth: 0, borderBottom: 0, lineHeight: '48px' }}
      onClick={({ key }) => {
        const route = menus.find((r) => r.path === key);
        openMenuPath(route?.redirect ?? key, navigate);
      }}
    />
  );
}
