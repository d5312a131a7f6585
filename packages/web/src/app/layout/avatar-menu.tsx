import { BankOutlined, DownOutlined, IdcardOutlined, LockOutlined, LogoutOutlined, MobileOutlined, UserOutlined } from '@ant-design/icons';
import { App, Avatar, Dropdown, Space } from 'antd';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { onPasswordChangeRequest } from '../../shared/auth/password-dialog';
import { useSession } from '../../shared/auth/session';
import { useAuth } from '../../shared/auth/useAuth';
import { forcedSignOut, signOut } from '../session-end';

const ChangePasswordDialog = lazy(() => import('../../features/auth/change-password-dialog'));
const AppDownloadDialog = lazy(() => import('../../features/auth/app-download-dialog'));

type Dialog = 'password' | 'app' | null;

/** Avatar with the user's menu: personal center, my provider, change password, app download, log out. */
export function AvatarMenu({ compact }: { compact?: boolean }) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const info = useSession();
  const [dialog, setDialog] = useState<Dialog>(null);
  const name = info?.user.name || info?.user.username;
  const navigate = useNavigate();
  const { hasPermi } = useAuth();
  // Users who see several providers edit theirs in the provider list; the others get it here.
  const myProvider = info?.isShowProvider === false && hasPermi('system:provider:edit');
  // The personal center asks for the same dialog.
  useEffect(() => onPasswordChangeRequest(() => setDialog('password')), []);

  const confirmLogout = () =>
    modal.confirm({
      title: t('common.systemPrompt'),
      content: t('auth.logoutConfirm'),
      okText: t('common.confirm'),
      cancelText: t('common.cancel'),
      onOk: () => signOut(),
    });

  return (
    <>
      <Dropdown
        trigger={['click']}
        menu={{
          items: [
            { key: 'profile', icon: <IdcardOutlined />, label: t('profile.title') },
            ...(myProvider ? [{ key: 'myProvider', icon: <BankOutlined />, label: t('provider.myTab') }] : []),
            { key: 'password', icon: <LockOutlined />, label: t('auth.changePassword') },
            { key: 'app', icon: <MobileOutlined />, label: t('auth.appDownload') },
            { type: 'divider' },
            { key: 'logout', icon: <LogoutOutlined />, label: t('shell.logout') },
          ],
          onClick: ({ key }) => {
            if (key === 'logout') confirmLogout();
            else if (key === 'profile') void navigate('/user/profile');
            else if (key === 'myProvider') void navigate('/user/myProvider');
            else setDialog(key as Dialog);
          },
        }}
      >
        <Space style={{ cursor: 'pointer', paddingInline: 8 }} data-testid="avatar-menu">
          <Avatar size="small" src={info?.user.avatar || undefined} icon={<UserOutlined />} />
          {!compact && <span>{name}</span>}
          <DownOutlined style={{ fontSize: 10 }} />
        </Space>
      </Dropdown>
      <Suspense fallback={null}>
        {(dialog === 'password' || info?.mustChangePassword === true) && (
          <ChangePasswordDialog
            userName={info?.user.username}
            forced={info?.mustChangePassword === true}
            onClose={() => setDialog(null)}
            onChanged={forcedSignOut}
          />
        )}
        {dialog === 'app' && <AppDownloadDialog onClose={() => setDialog(null)} />}
      </Suspense>
    </>
  );
}
