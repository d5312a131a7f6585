import { TranslationOutlined } from '@ant-design/icons';
import { Button, Dropdown, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLocale, type Locale } from '../../i18n/lang';
import { switchLanguage } from './language-switch';

const locales: { key: Locale; label: string }[] = [
  { key: 'zh-CN', label: 'enums.language.zh' },
  { key: 'en-US', label: 'enums.language.en' },
];

/** Language selector: stores the cookie and reloads (spec §2). */
export function LangSelect({ defaultOpen }: { defaultOpen?: boolean }) {
  const { t } = useTranslation();
  const active = currentLocale();
  const [open, setOpen] = useState(defaultOpen ?? false);
  return (
    <Dropdown
      trigger={['click']}
      open={open}
      onOpenChange={setOpen}
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
