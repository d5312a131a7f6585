import TranslationOutlined from '@ant-design/icons-svg/es/asn/TranslationOutlined';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLocale, type Locale } from '../../i18n/lang';
import { SvgIcon } from '../../shared/icons/svg-icon';
import { switchLanguage } from './language-switch';

const locales: { key: Locale; label: string }[] = [
  { key: 'zh-CN', label: 'enums.language.zh' },
  { key: 'en-US', label: 'enums.language.en' },
];

/**
 * The sign-in page's language selector (spec §2: stores the cookie and reloads), a plain menu:
 * the page loads no antd code. The shell's navbar keeps antd's dropdown (lang-select.tsx).
 */
export function LoginLangMenu() {
  const { t } = useTranslation();
  const active = currentLocale();
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    root.current?.querySelector<HTMLButtonElement>('[aria-checked="true"]')?.focus();
    const outside = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    const escape = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    document.addEventListener('pointerdown', outside);
    document.addEventListener('keydown', escape);
    return () => {
      document.removeEventListener('pointerdown', outside);
      document.removeEventListener('keydown', escape);
    };
  }, [open]);

  return (
    <div className="csms-lang" ref={root}>
      <button
        type="button"
        className="csms-icon-button"
        aria-label={t('shell.language')}
        title={t('shell.language')}
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
      >
        <SvgIcon icon={TranslationOutlined} />
      </button>
      {open && (
        <div className="csms-lang-menu" role="menu">
          {locales.map((l) => (
            <button
              key={l.key}
              type="button"
              role="menuitemradio"
              aria-checked={l.key === active}
              onClick={() => (l.key === active ? setOpen(false) : switchLanguage(l.key))}
            >
              {t(l.label)}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
