import { Menu } from 'antd';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { AppRoute } from '../routes/access';
import { iconOf, openMenuPath, type MenuItem } from './menu-items';

const MORE = '__more__';
/** Spec §2: about screen width / 2.5 / 85 entries before 'more'. */
export const visibleCount = (width: number) => Math.max(1, Math.floor(width / 2.5 / 85));

/**
 * Top navigation (spec §2): the top-level entries, about width/2.5/85 of them, the rest under
 * 'more'. Choosing an entry opens its default child, whose siblings then fill the sidebar.
 * Long (English) names may not fit that many in the space left beside the sidebar: then fewer
 * are shown, so that the bar stays one line.
 */
export function TopMenu({ menus, activeTop }: { menus: AppRoute[]; activeTop?: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const box = useRef<HTMLDivElement>(null);
  const [count, setCount] = useState(() => visibleCount(window.innerWidth));
  // Bumped on every width change, so the fit is checked again even when the count stays the same.
  const [widthChanges, setWidthChanges] = useState(0);

  // Start again from the spec's count whenever the window or the space for the bar changes width.
  useEffect(() => {
    const el = box.current;
    let width = el?.clientWidth ?? 0;
    const reset = () => {
      setCount(visibleCount(window.innerWidth));
      setWidthChanges((n) => n + 1);
    };
    window.addEventListener('resize', reset);
    const ro =
      el && typeof ResizeObserver !== 'undefined'
        ? new ResizeObserver(() => {
            if (el.clientWidth === width) return;
            width = el.clientWidth;
            reset();
          })
        : undefined;
    if (el) ro?.observe(el);
    return () => {
      window.removeEventListener('resize', reset);
      ro?.disconnect();
    };
  }, []);

  const items = useMemo(() => {
    const entry = (r: AppRoute): MenuItem => ({ key: r.path, label: t(r.titleKey), icon: iconOf(r) });
    const shown = menus.slice(0, count).map(entry);
    const rest = menus.slice(count).map(entry);
    return rest.length ? [...shown, { key: MORE, label: t('shell.more'), children: rest }] : shown;
  }, [menus, count, t]);

  // A bar that wrapped onto a second line gives one entry more to 'more', until it fits.
  useLayoutEffect(() => {
    const list = box.current?.querySelector('ul');
    if (!list || count <= 1) return;
    const tops = [...list.children]
      .filter((li): li is HTMLElement => li instanceof HTMLElement && li.offsetParent !== null)
      .map((li) => li.offsetTop);
    if (tops.length > 1 && Math.max(...tops) > Math.min(...tops)) setCount((c) => Math.max(1, c - 1));
  }, [items, count, widthChanges]);

  return (
    <div ref={box} style={{ flex: 1, minWidth: 0, overflow: 'hidden', height: 50 }} data-testid="top-menu">
      <Menu
        mode="horizontal"
        disabledOverflow
        items={items}
        selectedKeys={activeTop ? [activeTop] : []}
        style={{ borderBottom: 0, lineHeight: '48px' }}
        onClick={({ key }) => {
          const route = menus.find((r) => r.path === key);
          openMenuPath(route?.redirect ?? key, navigate);
        }}
      />
    </div>
  );
}
