import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App, ConfigProvider, theme } from 'antd';
import type { Locale as AntdLocale } from 'antd/es/locale';
import { useEffect, useSyncExternalStore, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { setUnauthorizedHandler } from '../shared/api/client';
import { setFeedback } from '../shared/feedback';
import { LANGUAGE_SWITCHED_KEY } from './layout/language-switch';
import { createUnauthorizedHandler } from './session-end';
import { settingsStore } from './settings/settings-store';
import { sizeStore, type SizeName } from './state/app-store';

export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 } },
});

/** Spec sizes onto antd (DESIGN.md §9): default → large, medium → middle, small and mini → small. */
const componentSize: Record<SizeName, 'large' | 'middle' | 'small'> = { default: 'large', medium: 'middle', small: 'small', mini: 'small' };

/** Hands the themed toasts to non-React code, decides what a 401 does, confirms a language switch. */
function FeedbackBridge() {
  const app = App.useApp();
  const { t } = useTranslation();
  useEffect(() => {
    setFeedback({ message: app.message, modal: app.modal, notification: app.notification });
    setUnauthorizedHandler(createUnauthorizedHandler(app.modal));
    if (sessionStorage.getItem(LANGUAGE_SWITCHED_KEY)) {
      sessionStorage.removeItem(LANGUAGE_SWITCHED_KEY);
      void app.message.success(t('shell.languageSwitched'));
    }
  }, [app, t]);
  return null;
}

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';
const reducedMotion = {
  subscribe(onChange: () => void) {
    const query = typeof window.matchMedia === 'function' ? window.matchMedia(REDUCED_MOTION) : undefined;
    query?.addEventListener('change', onChange);
    return () => query?.removeEventListener('change', onChange);
  },
  get: () => typeof window.matchMedia === 'function' && window.matchMedia(REDUCED_MOTION).matches,
};

/** `antdLocale` comes with the language's catalogue (i18n/index.ts), fetched before the first render. */
export function AppProviders({ children, antdLocale }: { children: ReactNode; antdLocale: AntdLocale }) {
  const settings = settingsStore.use();
  const size = sizeStore.use();
  // The system's "reduce motion" setting turns antd's animations off (dialogs appear at once).
  const still = useSyncExternalStore(reducedMotion.subscribe, reducedMotion.get);
  return (
    <QueryClientProvider client={queryClient}>
      <ConfigProvider
        locale={antdLocale}
        componentSize={componentSize[size]}
        theme={{
          token: { colorPrimary: settings.theme, motion: !still },
          algorithm: size === 'mini' ? [theme.defaultAlgorithm, theme.compactAlgorithm] : theme.defaultAlgorithm,
        }}
      >
        <App>
          <FeedbackBridge />
          {children}
        </App>
      </ConfigProvider>
    </QueryClientProvider>
  );
}
