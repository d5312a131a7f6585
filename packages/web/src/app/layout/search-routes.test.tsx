import { describe, expect, it } from 'vitest';
import type { AppRoute } from '../routes/access';
import { createRouteSearch, searchItems } from './search-routes';

const leaf = (path: string, titleKey: string, hidden = false): AppRoute => ({
  path,
  name: path.split('/').pop()!,
  titleKey,
  hidden,
  screen: { path, component: null as never },
  children: [],
});
const routes: AppRoute[] = [
  leaf('/dashboard', 'Dashboard'),
  {
    path: '/systemManagement',
    name: 'systemManagement',
    titleKey: 'System',
    hidden: false,
    children: [
      leaf('/systemManagement/organizationManage', 'Organisations'),
      leaf('/systemManagement/systemLog', 'System Log'),
      leaf('/systemManagement/secret', 'Secret', true),
    ],
  },
  {
    path: '/historyRecord',
    name: 'historyRecord',
    titleKey: 'Records',
    hidden: false,
    children: [leaf('/historyRecord/chargeRecord', 'Charging Records')],
  },
];

describe('header search', () => {
  const items = searchItems(routes, (k) => k);

  it('lists visible pages with their parents in the title', () => {
    expect(items).toEqual([
      { path: '/dashboard', title: 'Dashboard' },
      { path: '/systemManagement/organizationManage', title: 'System > Organisations' },
      { path: '/systemManagement/systemLog', title: 'System > System Log' },
      { path: '/historyRecord/chargeRecord', title: 'Records > Charging Records' },
    ]);
  });

  it('matches titles fuzzily, best first', () => {
    const search = createRouteSearch(items);
    expect(search('organisation')[0]?.path).toBe('/systemManagement/organizationManage');
    expect(search('chrging')[0]?.path).toBe('/historyRecord/chargeRecord');
  });

  it('matches paths too, and nothing for an empty or unrelated query', () => {
    const search = createRouteSearch(items);
    expect(search('systemLog')[0]?.path).toBe('/systemManagement/systemLog');
    expect(search('   ')).toEqual([]);
    expect(search('qqqqxxzz')).toEqual([]);
    expect(search('secret')).toEqual([]);
  });
});
