import { MoreOutlined } from '@ant-design/icons';
import { Button, Dropdown, Tabs, theme, type MenuProps } from 'antd';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { findTrail, flattenRoutes, type AppRoute } from '../routes/access';
import { addTag, closeAll, closeLeft, closeOthers, closeRight, closeTag, fallbackPath, tagsStore, withAffix, type Tag } from './tags-store';

type Action = 'refresh' | 'close' | 'closeOthers' | 'closeLeft' | 'closeRight' | 'closeAll' | 'newTab';
const actions: Action[] = ['refresh', 'close', 'closeOthers', 'closeLeft', 'closeRight', 'closeAll', 'newTab'];

/** Tab strip of visited pages (spec §2), kept across reloads in sessionStorage. */
export function TagsView({ routes, current }: { routes: AppRoute[]; current?: AppRoute }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const { pathname, search, key } = useLocation();
  const tags = tagsStore.use();

  const affix = useMemo<Tag[]>(
    () =>
      flattenRoutes(routes)
        .filter((r) => r.screen?.affix)
        .map((r) => ({ path: r.path, fullPath: r.path, titleKey: r.titleKey, affix: true })),
    [routes],
  );
  // Affix tabs first; tabs this user may not open (restored from another session) dropped.
  useEffect(() => {
    tagsStore.set((ts) =>
      withAffix(
        ts.filter((tag) => findTrail(routes, tag.path).length > 0),
        affix,
      ),
    );
  }, [routes, affix]);
  // Keyed on the navigation, not only the path: a navigation away that React never committed (the
  // router renders in a transition, and a quicker one replaced it) leaves the path unchanged, yet the
  // tab closed meanwhile must come back when the user opens the page again.
  useEffect(() => {
    if (!current?.screen || pathname.startsWith('/redirect')) return;
    tagsStore.set((ts) => addTag(ts, { path: pathname, fullPath: pathname + search, titleKey: current.titleKey }));
  }, [pathname, search, key, current]);

  const run = (action: Action, tag: Tag) => {
    if (action === 'refresh') return void navigate(`/redirect${tag.fullPath}`, { replace: true });
    if (action === 'newTab') return void window.open(tag.fullPath, '_blank');
    const next =
      action === 'close'
        ? closeTag(tags, tag.path)
        : action === 'closeOthers'
          ? closeOthers(tags, tag.path)
          : action === 'closeLeft'
            ? closeLeft(tags, tag.path)
            : action === 'closeRight'
              ? closeRight(tags, tag.path)
              : closeAll(tags);
    tagsStore.set(next);
    if (next.some((x) => x.path === pathname)) return;
    const target = next.some((x) => x.path === tag.path) ? tag.fullPath : fallbackPath(next);
    void navigate(target);
  };

  const menuFor = (tag: Tag): MenuProps => {
    const i = tags.findIndex((x) => x.path === tag.path);
    const closable = (x: Tag) => !x.affix;
    const disabled: Record<Action, boolean> = {
      refresh: false,
      newTab: false,
      close: Boolean(tag.affix),
      closeOthers: !tags.some((x) => x.path !== tag.path && closable(x)),
      closeLeft: !tags.slice(0, i).some(closable),
      closeRight: !tags.slice(i + 1).some(closable),
      closeAll: !tags.some(closable),
    };
    return {
      items: actions.map((a) => ({ key: a, label: t(`shell.tags.${a}`), disabled: disabled[a] })),
      onClick: ({ key, domEvent }) => {
        domEvent.stopPropagation();
        run(key as Action, tag);
      },
    };
  };

  const active = tags.find((x) => x.path === pathname);
  return (
    <div
      style={{
        background: token.colorBgContainer,
        paddingInline: 4,
        paddingTop: 4,
        borderBottom: `1px solid ${token.colorBorderSecondary}`,
      }}
    >
      <Tabs
        type="editable-card"
        size="small"
        hideAdd
        activeKey={active?.path ?? ''}
        onChange={(key) => {
          const tag = tags.find((x) => x.path === key);
          if (tag) void navigate(tag.fullPath);
        }}
        onEdit={(key, action) => {
          const tag = tags.find((x) => x.path === key);
          if (action === 'remove' && tag) run('close', tag);
        }}
        tabBarStyle={{ margin: 0 }}
        tabBarExtraContent={
          active && (
            <Dropdown menu={menuFor(active)} trigger={['click']}>
              <Button type="text" size="small" icon={<MoreOutlined />} aria-label={t('common.actions')} />
            </Dropdown>
          )
        }
        items={tags.map((tag) => ({
          key: tag.path,
          closable: !tag.affix,
          label: (
            <Dropdown menu={menuFor(tag)} trigger={['contextMenu']}>
              <span data-testid="tag">{t(tag.titleKey)}</span>
            </Dropdown>
          ),
        }))}
      />
    </div>
  );
}
