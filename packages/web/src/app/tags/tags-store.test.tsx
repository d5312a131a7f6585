import { describe, expect, it } from 'vitest';
import { addTag, closeAll, closeLeft, closeOthers, closeRight, closeTag, fallbackPath, withAffix, type Tag } from './tags-store';

const tag = (path: string, affix = false): Tag => ({ path, fullPath: path, titleKey: path, affix });
const dash = tag('/dashboard', true);
const tags = [dash, tag('/a'), tag('/b'), tag('/c')];
const paths = (ts: Tag[]) => ts.map((t) => t.path);

describe('tags view', () => {
  it('adds a visited page once, keeping its latest query', () => {
    const next = addTag(addTag(tags, { ...tag('/b'), fullPath: '/b?page=2' }), tag('/d'));
    expect(paths(next)).toEqual(['/dashboard', '/a', '/b', '/c', '/d']);
    expect(next[2]?.fullPath).toBe('/b?page=2');
  });

  it('never closes affix tabs', () => {
    expect(paths(closeTag(tags, '/dashboard'))).toEqual(paths(tags));
    expect(paths(closeAll(tags))).toEqual(['/dashboard']);
    expect(paths(closeOthers(tags, '/b'))).toEqual(['/dashboard', '/b']);
  });

  it('closes left and right of a tab', () => {
    expect(paths(closeLeft(tags, '/b'))).toEqual(['/dashboard', '/b', '/c']);
    expect(paths(closeRight(tags, '/a'))).toEqual(['/dashboard', '/a']);
  });

  it('goes to the last remaining tab after closing the active one, else the root', () => {
    expect(fallbackPath(closeTag(tags, '/c'))).toBe('/b');
    expect(fallbackPath([])).toBe('/');
  });

  it('puts affix tabs first', () => {
    expect(paths(withAffix([tag('/a'), tag('/dashboard')], [dash]))).toEqual(['/dashboard', '/a']);
  });
});
