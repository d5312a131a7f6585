import { FontSizeOutlined } from '@ant-design/icons';
import { App, Button, Dropdown, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { sizeNames, sizeStore, type SizeName } from '../state/app-store';

/** Component size selector (cookie `size`), applied through the ConfigProvider. */
export function SizeSelect() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const size = sizeStore.use();
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [size],
        items: sizeNames.map((s) => ({ key: s, label: t(`shell.sizes.${s}`) })),
        onClick: ({ key }) => {
          if (key === size) return;
          sizeStore.set(key as SizeName);
          void message.success(t('shell.sizeSwitched'));
        },
      }}
    >
      <Tooltip title={t('shell.size')} placement="left">
        <Button type="text" aria-label={t('shell.size')} icon={<FontSizeOutlined />} />
      </Tooltip>
    </Dropdown>
  );
}
