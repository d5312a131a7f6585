import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { profileEdit, profileApi } from '@csms/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Avatar, Button, Card, Col, Descriptions, Flex, Form, Row, Spin, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { ApiError, call } from '../../shared/api/client';
import { requestPasswordChange } from '../../shared/auth/password-dialog';
import { getSession, setSession } from '../../shared/auth/session';
import { feedback } from '../../shared/feedback';
import { formatDateTime } from '../../shared/resource/cells';
import { fieldMessage } from '../../shared/resource/form-values';
import { FormInput } from '../../shared/resource/FormInput';
import { useResourceText } from '../../shared/resource/labels';
import type { FormFieldDef } from '../../shared/resource/types';
import { fileUrl } from '../../shared/upload/rules';

type Values = Record<string, unknown>;

const fields: FormFieldDef[] = [
  { key: 'name', kind: 'text' },
  { key: 'phone', kind: 'text' },
  { key: 'email', kind: 'text' },
  { key: 'avatar', kind: 'image', props: { limit: 1 } },
];

const shownFacts = ['username', 'name', 'roleName', 'providerName', 'phone', 'email', 'lastLoginTime', 'createTime'] as const;

/** The form's values as the body: an empty phone is left out (the number cannot be cleared, only changed). */
function toBody(values: Values): Values {
  const body: Values = {};
  for (const f of fields) body[f.key] = typeof values[f.key] === 'string' ? (values[f.key] as string) : '';
  if (body.phone === '') delete body.phone;
  return body;
}

/** Personal center: who I am, my contact details and avatar, and the shell's change-password dialog. */
export default function ProfilePage() {
  const text = useResourceText('profile');
  const [form] = Form.useForm();
  const [saving, setSaving] = useState(false);
  const queryClient = useQueryClient();
  const queryKey = [profileApi.get.path];
  const profile = useQuery({ queryKey, queryFn: ({ signal }) => call(profileApi.get, {}, { signal }) });
  const me = profile.data;

  useEffect(() => {
    if (me) form.setFieldsValue({ name: me.name ?? '', phone: me.phone ?? '', email: me.email ?? '', avatar: me.avatar ?? '' });
  }, [me, form]);

  const save = async () => {
    if (!(await form.validateFields().catch(() => null))) return;
    setSaving(true);
    try {
      const saved = await call(profileApi.edit, { body: toBody(form.getFieldsValue(true) as Values) as never }, { fieldErrors: true });
      queryClient.setQueryData(queryKey, saved);
      // The navbar shows the name and avatar from the session.
      const info = getSession();
      if (info)
        setSession({ ...info, user: { ...info.user, name: saved.name, phone: saved.phone, email: saved.email, avatar: saved.avatar } });
      feedback.message.success(text.t('common.success'));
    } catch (err) {
      if (err instanceof ApiError && err.field) form.setFields([{ name: err.field, errors: [err.message] }]);
    } finally {
      setSaving(false);
    }
  };

  const ctx = { mode: 'edit' as const, form, record: me, t: text.t };
  const facts = shownFacts.map((key) => ({
    key,
    label: text.label(key),
    children: key === 'lastLoginTime' || key === 'createTime' ? formatDateTime(me?.[key]) : (me?.[key] ?? ''),
  }));
  return (
    <Row gutter={16}>
      <Col xs={24} lg={9}>
        <Card title={text.t('profile.info')} variant="borderless" style={{ marginBottom: 16 }}>
          <Spin spinning={profile.isLoading}>
            <div style={{ textAlign: 'center', marginBottom: 16 }}>
              <Avatar size={96} src={me?.avatar ? fileUrl(me.avatar) : undefined} icon={<UserOutlined />} />
            </div>
            <Descriptions column={1} size="small" bordered items={facts} />
          </Spin>
        </Card>
      </Col>
      <Col xs={24} lg={15}>
        <Card title={text.t('profile.edit')} variant="borderless" style={{ marginBottom: 16 }}>
          <Form form={form} name="profile-form" layout="vertical" style={{ maxWidth: 560 }}>
            {fields.map((def) => (
              <Form.Item
                key={def.key}
                name={def.key}
                label={text.label(def.key)}
                rules={[
                  {
                    validator: async () => {
                      const msg = fieldMessage(profileEdit, text.lang, 'profile', def.key, toBody(form.getFieldsValue(true) as Values));
                      if (msg) throw new Error(msg);
                    },
                  },
                ]}
              >
                <FormInput def={def} text={text} ctx={ctx} />
              </Form.Item>
            ))}
            <Button type="primary" loading={saving} onClick={() => void save()}>
              {text.t('common.save')}
            </Button>
          </Form>
        </Card>
        <Card title={text.t('profile.security')} variant="borderless">
          <Flex vertical gap={12} align="start">
            <Typography.Text type="secondary">{text.t('profile.passwordHint')}</Typography.Text>
            <Button icon={<LockOutlined />} onClick={requestPasswordChange}>
              {text.t('auth.changePassword')}
            </Button>
          </Flex>
        </Card>
      </Col>
    </Row>
  );
}
