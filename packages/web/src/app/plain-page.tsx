import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { pageTitle } from './page-title';
import { settingsStore } from './settings/settings-store';
import { themeColours } from './theme-colours';
import './plain-base.css';
import './plain-page.css';

/**
 * The frame of the pages drawn without antd besides sign-in (404, the drivers' agreement pages;
 * plain-pages.ts): antd's default look from a small stylesheet, the layout's theme colour, and the
 * document title, which the console's navigation effects would set elsewhere.
 */
export function PlainPage({ titleKey, children }: { titleKey: string; children: ReactNode }) {
  const { t } = useTranslation();
  const { theme: primary, dynamicTitle } = settingsStore.use();
  useEffect(() => {
    document.title = pageTitle(t(titleKey), t('shell.appTitle'), dynamicTitle);
  }, [t, titleKey, dynamicTitle]);
  return (
    <div className="csms-plain-text csms-plain-page" style={themeColours(primary)}>
      {children}
    </div>
  );
}

/** antd's Result in its 404 layout: a large status, a headline, a line of text and an action. */
export function PlainResult({ headline, text, extra }: { headline: string; text?: string; extra?: ReactNode }) {
  return (
    <div className="csms-plain-result">
      <div className="csms-plain-status" aria-hidden="true">
        404
      </div>
      <h1>{headline}</h1>
      {text && <p>{text}</p>}
      {extra}
    </div>
  );
}
