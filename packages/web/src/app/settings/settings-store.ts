import { createStore } from '../state/create-store';

export interface LayoutSettings {
  sideTheme: 'dark' | 'light';
  theme: string;
  topNav: boolean;
  tagsView: boolean;
  fixedHeader: boolean;
  sidebarLogo: boolean;
  dynamicTitle: boolean;
}

export const LAYOUT_KEY = 'layout-setting';
export const DEFAULT_THEME = '#44A372';
export const presetColors = [DEFAULT_THEME, '#409EFF', '#46AFB4', '#13C2C2', '#722ED1', '#FA541C', '#FAAD14'];

export const defaultSettings: LayoutSettings = {
  sideTheme: 'dark',
  theme: DEFAULT_THEME,
  topNav: false,
  tagsView: true,
  fixedHeader: true,
  sidebarLogo: true,
  dynamicTitle: true,
};

/** Saved settings merged over the defaults; anything unreadable falls back to the default. */
export function readSettings(raw: string | null): LayoutSettings {
  if (!raw) return { ...defaultSettings };
  try {
    const saved = JSON.parse(raw) as Partial<Record<keyof LayoutSettings, unknown>>;
    const out = { ...defaultSettings };
    for (const key of Object.keys(defaultSettings) as (keyof LayoutSettings)[]) {
      if (typeof saved[key] === typeof defaultSettings[key]) (out as Record<string, unknown>)[key] = saved[key];
    }
    if (out.sideTheme !== 'dark' && out.sideTheme !== 'light') out.sideTheme = 'dark';
    return out;
  } catch {
    return { ...defaultSettings };
  }
}

const storage = () => (typeof localStorage === 'undefined' ? null : localStorage);

/** Live settings: the drawer previews changes here; "save" persists them. */
export const settingsStore = createStore<LayoutSettings>(readSettings(storage()?.getItem(LAYOUT_KEY) ?? null));

export function updateSetting<K extends keyof LayoutSettings>(key: K, value: LayoutSettings[K]) {
  settingsStore.set((s) => ({ ...s, [key]: value }));
}

export function saveSettings() {
  storage()?.setItem(LAYOUT_KEY, JSON.stringify(settingsStore.get()));
}

export function resetSettings() {
  storage()?.removeItem(LAYOUT_KEY);
}
