import { TranslationOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';

const LangSelect = lazy(() => import('./lang-select').then((m) => ({ default: m.LangSelect })));

/**
 * The sign-in page's language selector: the same button, whose menu (antd Dropdown, Menu and
 * Tooltip) is fetched when the pointer or focus reaches it, and opened if it was clicked first.
 */
export function LazyLangSelect() {
  const { t } = useTranslation();
  const [wanted, setWanted] = useState<'no' | 'ready' | 'open'>('no');
  const ready = () => setWanted((w) => (w === 'no' ? 'ready' : w));
  const button = (
    <Button
      type="text"
      aria-label={t('shell.language')}
      icon={<TranslationOutlined />}
      onPointerEnter={ready}
      onFocus={ready}
      onClick={() => setWanted('open')}
    />
  );
  if (wanted === 'no') return button;
  return (
    <Suspense fallback={button}>
      <LangSelect defaultOpen={wanted === 'open'} />
    </Suspense>
  );
}
