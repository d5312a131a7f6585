import { LockOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
// The area's endpoints, not the whole `api`, which would bring every schema to the sign-in page.
import { authApi, loginBody, translateWith } from '@csms/contract';
import { App, Button, Flex, Form, Input, Typography, theme } from 'antd';
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { vocabularyLookup } from '../../i18n';
import { ApiError, call } from '../../shared/api/client';
import { cookieKeys, getCookie, setCookie, setToken } from '../../shared/cookies';
import { loginOutcome, safeRedirect } from './login-outcome';
import { zodRule } from './zod-rule';

interface LoginValues {
  username: string;
  password: string;
  code?: string;
}
interface Captcha {
  enabled: boolean;
  uuid?: string;
  img?: string;
}

/** Message time of spec §9: every sign-in failure shows for 1000 ms. */
const FAIL_SECONDS = 1;

/** Sign-in screen (spec §2, DESIGN.md §5). `toolbar` holds the language selector. */
export default function LoginPage({ toolbar }: { toolbar?: ReactNode }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { message } = App.useApp();
  const [form] = Form.useForm<LoginValues>();
  const [params] = useSearchParams();
  const [captcha, setCaptcha] = useState<Captcha>({ enabled: false });
  const [loading, setLoading] = useState(false);

  const refreshCaptcha = useCallback(async () => {
    try {
      const r = await call(authApi.captchaImage, {}, { silent: true });
      setCaptcha({ enabled: r.captchaEnabled, uuid: r.uuid, img: r.img });
      form.setFieldValue('code', '');
    } catch {
      setCaptcha({ enabled: false });
    }
  }, [form]);
  useEffect(() => {
    void refreshCaptcha();
  }, [refreshCaptcha]);

  const fail = (text: string, field?: string) => {
    void message.error({ content: text, duration: FAIL_SECONDS });
    if (field === 'username' || field === 'password' || field === 'code') form.setFields([{ name: field, errors: [text] }]);
    if (captcha.enabled) void refreshCaptcha();
    setLoading(false);
  };

  const onFinish = async (v: LoginValues) => {
    setLoading(true);
    const username = v.username.trim();
    const body = { username, password: v.password, ...(captcha.enabled ? { code: v.code?.trim(), uuid: captcha.uuid } : {}) };
    let data;
    try {
      data = await call(authApi.login, { body }, { silent: true });
    } catch (err) {
      return fail(err instanceof ApiError ? err.message : t('auth.badCredentials'), err instanceof ApiError ? err.field : undefined);
    }
    const outcome = loginOutcome(data);
    if (!outcome.ok) return fail(t(outcome.key));
    setToken(outcome.token);
    setCookie(cookieKeys.loginName, username);
    // A full load, so the console starts clean for this user (spec §2).
    window.location.replace(safeRedirect(params.get('redirect')));
  };

  const required = (field: string) => translateWith(vocabularyLookup(), 'validation.required', { field: t(`fields.auth.${field}`) });
  return (
    <Flex
      align="center"
      justify="center"
      style={{ minHeight: '100vh', background: `linear-gradient(135deg, ${token.colorPrimaryBg}, ${token.colorPrimary})` }}
    >
      <div style={{ position: 'fixed', top: 12, right: 12 }}>{toolbar}</div>
      {/* A plain panel drawn like antd's Card, whose Tabs the sign-in page would otherwise fetch. */}
      <div
        style={{
          width: 380,
          maxWidth: 'calc(100vw - 32px)',
          padding: token.paddingLG,
          background: token.colorBgContainer,
          border: `1px solid ${token.colorBorderSecondary}`,
          borderRadius: token.borderRadiusLG,
        }}
      >
        <Flex vertical align="center" gap={8} style={{ marginBottom: 24 }}>
          <img src="/favicon.svg" alt="" width={48} height={48} />
          <Typography.Title level={3} style={{ margin: 0 }}>
            {t('auth.title')}
          </Typography.Title>
        </Flex>
        <Form form={form} size="large" onFinish={onFinish} initialValues={{ username: getCookie(cookieKeys.loginName) ?? '' }}>
          <Form.Item name="username" rules={[zodRule(loginBody, 'auth', 'username')]}>
            <Input
              prefix={<UserOutlined />}
              placeholder={t('auth.usernamePlaceholder')}
              autoComplete="username"
              data-testid="login-username"
            />
          </Form.Item>
          <Form.Item name="password" rules={[zodRule(loginBody, 'auth', 'password')]}>
            <Input.Password
              prefix={<LockOutlined />}
              placeholder={t('auth.passwordPlaceholder')}
              autoComplete="current-password"
              data-testid="login-password"
            />
          </Form.Item>
          {captcha.enabled && (
            <Flex gap={8}>
              <Form.Item name="code" style={{ flex: 1 }} rules={[{ required: true, whitespace: true, message: required('code') }]}>
                <Input prefix={<SafetyOutlined />} placeholder={t('auth.captchaPlaceholder')} autoComplete="off" />
              </Form.Item>
              <img
                src={captcha.img ? `data:image/png;base64,${captcha.img}` : undefined}
                alt={t('auth.captchaRefresh')}
                title={t('auth.captchaRefresh')}
                onClick={() => void refreshCaptcha()}
                style={{ height: 40, width: 120, cursor: 'pointer', borderRadius: 6 }}
              />
            </Flex>
          )}
          <Button type="primary" htmlType="submit" block loading={loading} data-testid="login-submit">
            {t(loading ? 'auth.loggingIn' : 'auth.login')}
          </Button>
        </Form>
      </div>
    </Flex>
  );
}
