import { CheckOutlined } from '@ant-design/icons';
import { App, Button, ColorPicker, Divider, Drawer, Flex, Segmented, Space, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { presetColors, resetSettings, saveSettings, settingsStore, updateSetting, type LayoutSettings } from './settings-store';

type Toggle = 'topNav' | 'tagsView' | 'fixedHeader' | 'sidebarLogo' | 'dynamicTitle';
const toggles: Toggle[] = ['topNav', 'tagsView', 'fixedHeader', 'sidebarLogo', 'dynamicTitle'];

/** Theme and layout settings: changes preview live; save persists them and reloads. */
export function SettingsDrawer({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const s = settingsStore.use();

  const save = () => {
    void message.loading(t('shell.setting.saving'), 0);
    saveSettings();
    window.location.reload();
  };
  const reset = () => {
    void message.loading(t('shell.setting.resetting'), 0);
    resetSettings();
    setTimeout(() => window.location.reload(), 1000);
  };

  return (
    <Drawer open={open} onClose={onClose} size={300} title={t('shell.setting.title')}>
      <Typography.Text strong>{t('shell.setting.sideTheme')}</Typography.Text>
      <Segmented<LayoutSettings['sideTheme']>
        block
        style={{ marginBlock: 8 }}
        value={s.sideTheme}
        options={[
          { value: 'dark', label: t('shell.setting.dark') },
          { value: 'light', label: t('shell.setting.light') },
        ]}
        onChange={(v) => updateSetting('sideTheme', v)}
      />
      <Flex justify="space-between" align="center" style={{ marginBlock: 12 }}>
        <Typography.Text strong>{t('shell.setting.themeColor')}</Typography.Text>
        <ColorPicker
          value={s.theme}
          disabledAlpha
          presets={[{ label: t('shell.setting.themeColor'), colors: presetColors }]}
          onChangeComplete={(c) => updateSetting('theme', c.toHexString())}
        />
      </Flex>
      <Space wrap>
        {presetColors.map((c) => (
          <Button
            key={c}
            aria-label={c}
            shape="circle"
            size="small"
            style={{ background: c, borderColor: c, color: '#fff' }}
            icon={s.theme.toLowerCase() === c.toLowerCase() ? <CheckOutlined /> : <span />}
            onClick={() => updateSetting('theme', c)}
          />
        ))}
      </Space>
      <Divider />
      <Typography.Text strong>{t('shell.setting.layout')}</Typography.Text>
      {toggles.map((k) => (
        <Flex key={k} justify="space-between" align="center" style={{ marginBlock: 12 }}>
          <span>{t(`shell.setting.${k}`)}</span>
          <Switch checked={s[k]} onChange={(v) => updateSetting(k, v)} aria-label={t(`shell.setting.${k}`)} />
        </Flex>
      ))}
      <Divider />
      <Space>
        <Button type="primary" onClick={save}>
          {t('shell.setting.save')}
        </Button>
        <Button onClick={reset}>{t('shell.setting.reset')}</Button>
      </Space>
    </Drawer>
  );
}
