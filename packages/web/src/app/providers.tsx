import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App, ConfigProvider, theme } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { setUnauthorizedHandler } from '../shared/api/client';
import { setFeedback } from '../shared/feedback';
import { LANGUAGE_SWITCHED_KEY } from './layout/lang-select';
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

export function AppProviders({ children }: { children: ReactNode }) {
  const settings = settingsStore.use();
  const size = sizeStore.use();
  const { i18n } = useTranslation();
  return (
    <QueryClientProvider client={queryClient}>
      <ConfigProvider
        locale={i18n.language === 'en-US' ? enUS : zhCN}
        componentSize={componentSize[size]}
        theme={{
          token: { colorPrimary: settings.theme },
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
