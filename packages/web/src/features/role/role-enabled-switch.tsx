import { ADMIN_ROLE, type RoleDto, roleApi } from '@csms/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../shared/api/client';
import { useAuth } from '../../shared/auth/useAuth';
import { feedback } from '../../shared/feedback';

/** The enabled column: switching asks first (系统提示), then updateRoleStatus. The admin role stays on; roles beyond the caller's grants are locked. */
export function RoleEnabledSwitch({ row }: { row: RoleDto }) {
  const { t } = useTranslation();
  const { hasPermi } = useAuth();
  const queryClient = useQueryClient();
  const locked = row.roleKey === ADMIN_ROLE || !row.manageable || !hasPermi('system:role:status');
  const change = (enabled: boolean) =>
    feedback.modal.confirm({
      title: t('common.systemPrompt'),
      content: t(enabled ? 'role.enableConfirm' : 'role.disableConfirm', { name: row.roleName }),
      okText: t('common.confirm'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        await call(roleApi.status, { body: { id: row.id, enabled } });
        feedback.message.success(t(enabled ? 'role.enabledDone' : 'role.disabledDone'));
        await queryClient.invalidateQueries({ queryKey: [roleApi.list.path] });
      },
    });
  return <Switch size="small" checked={row.enabled} disabled={locked} aria-label={t('fields.role.enabled')} onChange={change} />;
}
