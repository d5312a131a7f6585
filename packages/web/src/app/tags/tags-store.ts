import { createStore } from '../state/create-store';

/** One visited page in the tab strip. */
export interface Tag {
  path: string;
  /** Path with query string: coming back to the tab restores the view (URL is the state). */
  fullPath: string;
  titleKey: string;
  affix?: boolean;
}

export const TAGS_KEY = 'tags-view';

/** Affix tags first (in the given order), then the rest as visited. */
export function withAffix(tags: readonly Tag[], affix: readonly Tag[]): Tag[] {
  const fixed = affix.map((a) => ({ ...a, ...tags.find((t) => t.path === a.path), affix: true }));
  return [...fixed, ...tags.filter((t) => !affix.some((a) => a.path === t.path))];
}

export function addTag(tags: readonly Tag[], tag: Tag): Tag[] {
  const i = tags.findIndex((t) => t.path === tag.path);
  if (i < 0) return [...tags, tag];
  const old = tags[i]!;
  if (old.fullPath === tag.fullPath && old.titleKey === tag.titleKey) return tags as Tag[];
  return tags.map((t, j) => (j === i ? { ...old, fullPath: tag.fullPath, titleKey: tag.titleKey } : t));
}

const keep = (t: Tag) => Boolean(t.affix);

export function closeTag(tags: readonly Tag[], path: string): Tag[] {
  return tags.filter((t) => t.path !== path || keep(t));
}

export function closeOthers(tags: readonly Tag[], path: string): Tag[] {
  return tags.filter((t) => t.path === path || keep(t));
}

export function closeLeft(tags: readonly Tag[], path: string): Tag[] {
  const i = tags.findIndex((t) => t.path === path);
  return tags.filter((t, j) => j >= i || keep(t));
}

export function closeRight(tags: readonly Tag[], path: string): Tag[] {
  const i = tags.findIndex((t) => t.path === path);
  return i < 0 ? [...tags] : tags.filter((t, j) => j <= i || keep(t));
}

export function closeAll(tags: readonly Tag[]): Tag[] {
  return tags.filter(keep);
}

/** Where to go after the active tab was closed: the last remaining tab, or the root. */
export function fallbackPath(remaining: readonly Tag[]): string {
  return remaining.at(-1)?.fullPath ?? '/';
}

function load(): Tag[] {
  try {
    const raw = sessionStorage.getItem(TAGS_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(parsed) ? (parsed as Tag[]).filter((t) => typeof t?.path === 'string') : [];
  } catch {
    return [];
  }
}

/** Visited tabs, kept in sessionStorage so that a reload restores the strip. */
export const tagsStore = createStore<Tag[]>(typeof sessionStorage === 'undefined' ? [] : load(), (tags) => {
  try {
    sessionStorage.setItem(TAGS_KEY, JSON.stringify(tags));
  } catch {
    // Storage full or disabled: the strip just will not survive a reload.
  }
});
