import { Select } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { AppRoute } from '../routes/access';
import { openMenuPath } from './menu-items';
import { createRouteSearch, searchItems } from './search-routes';

/** The fuzzy page finder of the navbar's search icon, with fuse.js and antd's Select: fetched when opened. */
export default function HeaderSearchBox({ routes, onClose }: { routes: AppRoute[]; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const search = useMemo(() => createRouteSearch(searchItems(routes, (k) => t(k))), [routes, t]);
  const options = useMemo(() => search(query).map((i) => ({ value: i.path, label: i.title })), [search, query]);
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
        onClose();
        openMenuPath(path, navigate);
      }}
      onBlur={onClose}
    />
  );
}
