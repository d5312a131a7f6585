import EyeInvisibleOutlined from '@ant-design/icons-svg/es/asn/EyeInvisibleOutlined';
import EyeOutlined from '@ant-design/icons-svg/es/asn/EyeOutlined';
import LockOutlined from '@ant-design/icons-svg/es/asn/LockOutlined';
import ReloadOutlined from '@ant-design/icons-svg/es/asn/ReloadOutlined';
import SafetyOutlined from '@ant-design/icons-svg/es/asn/SafetyOutlined';
import UserOutlined from '@ant-design/icons-svg/es/asn/UserOutlined';
import type { IconDefinition } from '@ant-design/icons-svg/es/types';
// The area's endpoints, not the whole `api`, which would bring every schema to the sign-in page.
import { authApi, Code, issueToFieldErrorWith, loginBody, translateWith } from '@csms/contract';
import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { vocabularyLookup } from '../../i18n';
import { LANGUAGE_SWITCHED_KEY } from '../../app/layout/language-switch';
import { pageTitle } from '../../app/page-title';
import { settingsStore } from '../../app/settings/settings-store';
import { themeColours } from '../../app/theme-colours';
import { ApiError, call } from '../../shared/api/client';
import { signInNotice } from '../../shared/auth/sign-in-notice';
import { cookieKeys, getCookie, setCookie, setToken } from '../../shared/cookies';
import { SvgIcon } from '../../shared/icons/svg-icon';
import { loginOutcome, safeRedirect } from './login-outcome';
import '../../app/plain-base.css';
import './login-page.css';

type FieldName = 'username' | 'password' | 'code';
type Values = Record<FieldName, string>;
type Errors = Partial<Record<FieldName, string>>;
interface Captcha {
  enabled: boolean;
  uuid?: string;
  img?: string;
}
interface Toast {
  id: number;
  kind: 'error' | 'success';
  text: string;
}

/** Message time of spec §9: every sign-in failure shows for 1000 ms; other notices for 3 s. */
const FAIL_MS = 1000;
const NOTICE_MS = 3000;

/**
 * The fields' errors as the server would word them: the contract's schema for account and
 * password (`issueToFieldErrorWith`, in the current language), required for the captcha.
 */
function validate(values: Values, captcha: boolean): Errors {
  const lookup = vocabularyLookup();
  const errors: Errors = {};
  const result = loginBody.safeParse({ username: values.username, password: values.password });
  if (!result.success)
    for (const issue of result.error.issues) {
      const field = issue.path.join('.') as FieldName;
      errors[field] ??= issueToFieldErrorWith(lookup, 'auth', issue, values).msg;
    }
  if (captcha && !values.code.trim())
    errors.code = translateWith(lookup, 'validation.required', { field: lookup('fields.auth.code') ?? '' });
  return errors;
}

function Field({
  name,
  icon,
  placeholder,
  value,
  error,
  onChange,
  type = 'text',
  autoComplete,
  testId,
  after,
}: {
  name: FieldName;
  icon: IconDefinition;
  placeholder: string;
  value: string;
  error: string | undefined;
  onChange: (name: FieldName, value: string) => void;
  type?: 'text' | 'password';
  autoComplete: string;
  testId?: string;
  after?: ReactNode;
}) {
  const errorId = useId();
  return (
    <div className="csms-field">
      <label className={`csms-input${error ? ' csms-input-error' : ''}`}>
        <SvgIcon icon={icon} className="csms-icon csms-input-prefix" />
        <input
          name={name}
          type={type}
          value={value}
          placeholder={placeholder}
          autoComplete={autoComplete}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          data-testid={testId}
          onChange={(e) => onChange(name, e.target.value)}
        />
        {after}
      </label>
      <div className="csms-field-error" id={errorId} role={error ? 'alert' : undefined}>
        {error}
      </div>
    </div>
  );
}

/**
 * Sign-in screen (spec §2, DESIGN.md §5), drawn without antd so that the first page a user opens
 * loads a fraction of the console (issue 14 item 7); it follows the console's look (antd's large
 * size, the theme colour from the layout settings). `toolbar` holds the language selector.
 */
export default function LoginPage({ toolbar }: { toolbar?: ReactNode }) {
  const { t } = useTranslation();
  const { theme: primary, dynamicTitle } = settingsStore.use();
  const [params] = useSearchParams();
  const [values, setValues] = useState<Values>(() => ({ username: getCookie(cookieKeys.loginName) ?? '', password: '', code: '' }));
  const [errors, setErrors] = useState<Errors>({});
  const [captcha, setCaptcha] = useState<Captcha>({ enabled: false });
  const [loading, setLoading] = useState(false);
  const [showPassword, setShowPassword] = useState(false);
  const [toast, setToast] = useState<Toast | undefined>();
  const toastId = useRef(0);

  const notify = useCallback((kind: Toast['kind'], text: string, ms: number) => {
    const id = ++toastId.current;
    setToast({ id, kind, text });
    setTimeout(() => setToast((cur) => (cur?.id === id ? undefined : cur)), ms);
  }, []);

  useEffect(() => {
    document.title = pageTitle(t('auth.loginTitle'), t('shell.appTitle'), dynamicTitle);
  }, [t, dynamicTitle]);

  // Why the console sent the user here, or the confirmation of a language switch (one at a time).
  useEffect(() => {
    const notice = signInNotice.take();
    if (notice) notify('error', notice, NOTICE_MS);
    else if (sessionStorage.getItem(LANGUAGE_SWITCHED_KEY)) notify('success', t('shell.languageSwitched'), NOTICE_MS);
    sessionStorage.removeItem(LANGUAGE_SWITCHED_KEY);
  }, [notify, t]);

  const refreshCaptcha = useCallback(async () => {
    try {
      const r = await call(authApi.captchaImage, {}, { silent: true });
      setCaptcha({ enabled: r.captchaEnabled, uuid: r.uuid, img: r.img });
      setValues((v) => ({ ...v, code: '' }));
    } catch (err) {
      // A refusal (too many images from this address) keeps the field, without an image, and says why;
      // a server that cannot be reached leaves the form as it is without captcha.
      if (err instanceof ApiError && err.code === Code.CONFLICT) {
        setCaptcha({ enabled: true });
        notify('error', err.message, FAIL_MS);
      } else setCaptcha({ enabled: false });
    }
  }, [notify]);
  useEffect(() => {
    void refreshCaptcha();
  }, [refreshCaptcha]);

  const change = (name: FieldName, value: string) => {
    const next = { ...values, [name]: value };
    setValues(next);
    setErrors((e) => ({ ...e, [name]: validate(next, captcha.enabled)[name] }));
  };

  const fail = (text: string, field?: string) => {
    notify('error', text, FAIL_MS);
    if (field === 'username' || field === 'password' || field === 'code') setErrors((e) => ({ ...e, [field]: text }));
    if (captcha.enabled) void refreshCaptcha();
    setLoading(false);
  };

  const submit = async () => {
    const found = validate(values, captcha.enabled);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setLoading(true);
    const username = values.username.trim();
    const body = { username, password: values.password, ...(captcha.enabled ? { code: values.code.trim(), uuid: captcha.uuid } : {}) };
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

  return (
    <div className="csms-plain-text csms-login" style={themeColours(primary)}>
      <div className="csms-login-toolbar">{toolbar}</div>
      {toast && (
        <div className="csms-toast-holder">
          <div key={toast.id} className={`csms-toast csms-toast-${toast.kind}`} role={toast.kind === 'error' ? 'alert' : 'status'}>
            {toast.text}
          </div>
        </div>
      )}
      <div className="csms-login-panel">
        <div className="csms-login-head">
          <img src="/favicon.svg" alt="" width={48} height={48} />
          <h3>{t('auth.title')}</h3>
        </div>
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (!loading) void submit();
          }}
        >
          <Field
            name="username"
            icon={UserOutlined}
            placeholder={t('auth.usernamePlaceholder')}
            value={values.username}
            error={errors.username}
            onChange={change}
            autoComplete="username"
            testId="login-username"
          />
          <Field
            name="password"
            icon={LockOutlined}
            type={showPassword ? 'text' : 'password'}
            placeholder={t('auth.passwordPlaceholder')}
            value={values.password}
            error={errors.password}
            onChange={change}
            autoComplete="current-password"
            testId="login-password"
            after={
              <button
                type="button"
                className="csms-input-suffix"
                aria-label={t(showPassword ? 'auth.hidePassword' : 'auth.showPassword')}
                aria-pressed={showPassword}
                onClick={() => setShowPassword((s) => !s)}
              >
                <SvgIcon icon={showPassword ? EyeOutlined : EyeInvisibleOutlined} />
              </button>
            }
          />
          {captcha.enabled && (
            <div className="csms-login-captcha">
              <Field
                name="code"
                icon={SafetyOutlined}
                placeholder={t('auth.captchaPlaceholder')}
                value={values.code}
                error={errors.code}
                onChange={change}
                autoComplete="off"
              />
              {captcha.img ? (
                <img
                  src={`data:image/png;base64,${captcha.img}`}
                  alt={t('auth.captchaRefresh')}
                  title={t('auth.captchaRefresh')}
                  onClick={() => void refreshCaptcha()}
                />
              ) : (
                // No image (not yet drawn, or refused): a blank of its size that asks for one.
                <button
                  type="button"
                  className="csms-login-captcha-blank"
                  aria-label={t('auth.captchaRefresh')}
                  title={t('auth.captchaRefresh')}
                  onClick={() => void refreshCaptcha()}
                >
                  <SvgIcon icon={ReloadOutlined} />
                </button>
              )}
            </div>
          )}
          <button type="submit" className="csms-primary-button csms-login-submit" aria-busy={loading} data-testid="login-submit">
            {loading && <span className="csms-login-spinner" aria-hidden="true" />}
            {t(loading ? 'auth.loggingIn' : 'auth.login')}
          </button>
        </form>
      </div>
    </div>
  );
}
