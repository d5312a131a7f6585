import { TranslationOutlined } from '@ant-design/icons';
import { Button, Dropdown, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { currentLocale, setLocale, type Locale } from '../../i18n/lang';

/** Set after a language switch so that the reloaded page confirms it once. */
export const LANGUAGE_SWITCHED_KEY = 'language-switched';

const locales: { key: Locale; label: string }[] = [
  { key: 'zh-CN', label: 'enums.language.zh' },
  { key: 'en-US', label: 'enums.language.en' },
];

export function switchLanguage(locale: Locale) {
  setLocale(locale);
  sessionStorage.setItem(LANGUAGE_SWITCHED_KEY, '1');
  window.location.reload();
}

/** Language selector: stores the cookie and reloads (spec §2). */
export function LangSelect() {
  const { t } = useTranslation();
  const active = currentLocale();
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [active],
        items: locales.map((l) => ({ key: l.key, label: t(l.label) })),
        onClick: ({ key }) => key !== active && switchLanguage(key as Locale),
      }}
    >
      <Tooltip title={t('shell.language')} placement="left">
        <Button type="text" aria-label={t('shell.language')} icon={<TranslationOutlined />} />
      </Tooltip>
    </Dropdown>
  );
}
