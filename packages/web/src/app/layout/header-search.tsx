import { SearchOutlined } from '@ant-design/icons';
import { Button, Select, Tooltip } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { AppRoute } from '../routes/access';
import { openMenuPath } from './menu-items';
import { createRouteSearch, searchItems } from './search-routes';

/** Search icon that opens a fuzzy page finder. */
export function HeaderSearch({ routes }: { routes: AppRoute[] }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const search = useMemo(() => createRouteSearch(searchItems(routes, (k) => t(k))), [routes, t]);
  const options = useMemo(() => search(query).map((i) => ({ value: i.path, label: i.title })), [search, query]);

  if (!open) {
    return (
      <Tooltip title={t('shell.search')}>
        <Button type="text" icon={<SearchOutlined />} aria-label={t('shell.search')} onClick={() => setOpen(true)} />
      </Tooltip>
    );
  }
  return (
    <Select<string>
      autoFocus
      defaultOpen
      showSearch={{ filterOption: false, onSearch: setQuery, searchValue: query }}
      value={undefined}
      placeholder={t('shell.searchPlaceholder')}
      options={options}
      notFoundContent={null}
      style={{ width: 220 }}
      // Titles carry their parents ('Real-time Monitoring > Stations'): let the list be wider than the box.
      popupMatchSelectWidth={false}
      onSelect={(path: string) => {
        setOpen(false);
        setQuery('');
        openMenuPath(path, navigate);
      }}
      onBlur={() => {
        setOpen(false);
        setQuery('');
      }}
    />
  );
}
