import Fuse from 'fuse.js';
import type { AppRoute } from '../routes/access';

export interface SearchItem {
  path: string;
  /** Titles from the top level down, joined with ' > '. */
  title: string;
}

/** Every visible page (hidden routes and bare parents left out), titled with its parents' titles. */
export function searchItems(routes: readonly AppRoute[], translate: (key: string) => string, prefix: string[] = []): SearchItem[] {
  return routes.flatMap((r) => {
    if (r.hidden) return [];
    const titles = [...prefix, translate(r.titleKey)];
    const own = r.screen ? [{ path: r.path, title: titles.join(' > ') }] : [];
    return [...own, ...searchItems(r.children, translate, titles)];
  });
}

/** Header search of spec §2: fuzzy over titles (weight 0.7) and paths (0.3), threshold 0.4. */
export function createRouteSearch(items: readonly SearchItem[]): (query: string) => SearchItem[] {
  const fuse = new Fuse(items, {
    keys: [
      { name: 'title', weight: 0.7 },
      { name: 'path', weight: 0.3 },
    ],
    threshold: 0.4,
    shouldSort: true,
    minMatchCharLength: 1,
  });
  return (query) => (query.trim() ? fuse.search(query.trim()).map((r) => r.item) : []);
}
