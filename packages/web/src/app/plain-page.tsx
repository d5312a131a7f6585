import { generate } from '@ant-design/colors';
import { useEffect, type CSSProperties, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { pageTitle } from './page-title';
import { settingsStore } from './settings/settings-store';
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
  // antd's palette of the theme colour: 1 for focus rings, 5 and 7 for hover and press.
  const palette = generate(primary);
  const colours = {
    '--csms-primary': primary,
    '--csms-primary-bg': palette[0],
    '--csms-primary-hover': palette[4],
    '--csms-primary-active': palette[6],
  } as CSSProperties;
  return (
    <div className="csms-plain-page" style={colours}>
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
