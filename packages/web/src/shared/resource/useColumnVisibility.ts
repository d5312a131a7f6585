import { useCallback, useState } from 'react';
import type { ColumnDef } from './types';

const storageKey = (name: string) => `csms.columns.${name}`;

function load(name: string, columns: ColumnDef[]): string[] {
  try {
    const raw = localStorage.getItem(storageKey(name));
    if (raw) {
      const parsed: unknown = JSON.parse(raw);
      if (Array.isArray(parsed)) return parsed.filter((k): k is string => typeof k === 'string');
    }
  } catch {
    // unreadable storage: fall back to the declared defaults
  }
  return columns.filter((c) => c.defaultHidden).map((c) => c.key);
}

/** Hidden table columns of one resource, kept in localStorage so the choice survives reloads. */
export function useColumnVisibility(name: string, columns: ColumnDef[]) {
  const [hidden, setHiddenState] = useState<string[]>(() => load(name, columns));
  const setHidden = useCallback(
    (next: string[]) => {
      setHiddenState(next);
      try {
        localStorage.setItem(storageKey(name), JSON.stringify(next));
      } catch {
        // private mode: the choice lasts for this page only
      }
    },
    [name],
  );
  return { hidden, setHidden };
}
