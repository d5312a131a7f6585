import { editPasswordSchema, translateWith, authApi } from '@csms/contract';
import { Alert, App, Form, Input, Modal, type FormRule } from 'antd';
import { useMemo, useState, type FC } from 'react';
import { useTranslation } from 'react-i18next';
import { vocabularyLookup } from '../../i18n';
import { ApiError, call } from '../../shared/api/client';
import { usePasswordPolicy } from '../../shared/auth/session';
import { zodRule } from './zod-rule';

interface PasswordValues {
  oldPwd: string;
  newPwd: string;
  confirmNewPwd: string;
}

/** How long the success message shows before the forced logout (spec §8). */
const LOGOUT_DELAY_MS = 1000;

/** The schema's own refinement runs only once every field is valid; check equality as soon as both are typed. */
const sameAsNew: FormRule = ({ getFieldValue }) => ({
  validator: async (_, value: string | undefined) => {
    if (value && value !== getFieldValue('newPwd')) throw new Error(translateWith(vocabularyLookup(), 'validation.passwordMismatch'));
  },
});

export interface ChangePasswordDialogProps {
  userName?: string;
  onClose(): void;
  /** Called 1 s after a successful change: the session is gone, the shell logs out. */
  onChanged(): void;
  /** A one-time password is in use: the dialog cannot be dismissed (the server allows nothing else). */
  forced?: boolean;
}

/** Change-password dialog of the avatar menu (spec §5). */
export default function ChangePasswordDialog({ userName, onClose, onChanged, forced }: ChangePasswordDialogProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<PasswordValues>();
  const [saving, setSaving] = useState(false);
  // The server's rule (length, classes), so the dialog says what the server would.
  const policy = usePasswordPolicy();
  const schema = useMemo(() => editPasswordSchema(policy), [policy]);
  const rule = (field: keyof PasswordValues) => zodRule(schema, 'auth', field);

  const submit = async (values: PasswordValues) => {
    setSaving(true);
    try {
      const ok = await call(authApi.editUserPwd, { body: { ...values, userName } }, { fieldErrors: true });
      if (ok) {
        void message.success(t('auth.pwdChanged'));
        setTimeout(onChanged, LOGOUT_DELAY_MS);
        return;
      }
    } catch (err) {
      if (err instanceof ApiError && err.field) form.setFields([{ name: err.field as keyof PasswordValues, errors: [err.message] }]);
    }
    setSaving(false);
  };

  return (
    <Modal
      open
      title={t('auth.changePassword')}
      okText={t('common.confirm')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      {...(forced
        ? { closable: false, keyboard: false, mask: { closable: false }, footer: (_: unknown, { OkBtn }: { OkBtn: FC }) => <OkBtn /> }
        : {})}
    >
      {forced && (
        <Alert type="warning" showIcon title={t('auth.mustChangeHint')} style={{ marginBottom: 16 }} data-testid="must-change-password" />
      )}
      <Form form={form} layout="vertical" onFinish={submit} autoComplete="off">
        <Form.Item name="oldPwd" label={t('fields.auth.oldPwd')} rules={[rule('oldPwd')]}>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item name="newPwd" label={t('fields.auth.newPwd')} rules={[rule('newPwd')]}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="confirmNewPwd"
          label={t('fields.auth.confirmNewPwd')}
          dependencies={['newPwd']}
          // Both rules can report the mismatch; show it once.
          validateFirst
          rules={[rule('confirmNewPwd'), sameAsNew]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
