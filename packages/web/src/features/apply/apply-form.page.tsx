import { applyCreate, APPLY_LICENSE_MAX_MB, type DataOf, applyApi, authApi, Code } from '@csms/contract';
import { ReloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Checkbox, Flex, Grid, Input, Result, Skeleton, Typography } from 'antd';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { ApiError, call } from '../../shared/api/client';
import { feedback } from '../../shared/feedback';
import { FormFields } from '../../shared/resource/FormFields';
import { useResourceText, type ResourceText } from '../../shared/resource/labels';
import { defineResource } from '../../shared/resource/types';
import { useResourceForm } from '../../shared/resource/useResourceForm';
import { ImageUpload } from '../../shared/upload/ImageUpload';
import type { UploadReply } from '../../shared/upload/upload-request';

type Submitted = DataOf<typeof applyApi.submit> & { email: string };
interface Captcha {
  enabled: boolean;
  uuid?: string | undefined;
  img?: string | undefined;
}

/** The licence image goes to the form's own endpoint (signed out, limited per address); the preview stays local. */
async function uploadLicense(file: Blob): Promise<UploadReply> {
  const body = new FormData();
  body.append('file', file);
  const r = await call(applyApi.uploadLicense, { body });
  return { fileName: r.fileName, url: '', originalName: '' };
}

function AgreeBox({
  value,
  onChange,
  agreementKey,
  t,
}: {
  value?: boolean;
  onChange?: (v: boolean) => void;
  agreementKey: string;
  t: ResourceText['t'];
}) {
  return (
    <Checkbox checked={value === true} onChange={(e) => onChange?.(e.target.checked)} data-testid="apply-agree">
      {t('apply.agree')}{' '}
      <a href={`/privacyAgreement/${agreementKey}`} target="_blank" rel="noreferrer" onClick={(e) => e.stopPropagation()}>
        {t('apply.privacyAgreement')}
      </a>
    </Checkbox>
  );
}

function CaptchaInput({
  value,
  onChange,
  captcha,
  refresh,
  t,
}: {
  value?: string;
  onChange?: (v: string) => void;
  captcha: Captcha;
  refresh: () => void;
  t: ResourceText['t'];
}) {
  return (
    <Flex gap={8} align="center">
      <Input
        value={value}
        onChange={(e) => onChange?.(e.target.value)}
        maxLength={16}
        autoComplete="off"
        style={{ flex: 1 }}
        data-testid="apply-code"
      />
      {captcha.img ? (
        <img
          src={`data:image/png;base64,${captcha.img}`}
          alt={t('apply.captchaRefresh')}
          title={t('apply.captchaRefresh')}
          onClick={refresh}
          style={{ height: 38, cursor: 'pointer', borderRadius: 4 }}
          data-testid="apply-captcha"
        />
      ) : (
        // No image (refused: too many from this address): a button that asks for one.
        <Button icon={<ReloadOutlined />} onClick={refresh} aria-label={t('apply.captchaRefresh')} title={t('apply.captchaRefresh')} />
      )}
    </Flex>
  );
}

/**
 * The public application form (spec §2 `/applyForm`, issue 21): signed out, phone-friendly. A newcomer
 * describes the company, uploads the business licence, accepts the platform's privacy agreement and
 * answers the captcha; the confirmation shows the reference number, which is also mailed.
 */
export default function ApplyFormPage() {
  const text = useResourceText('apply');
  const { t } = text;
  const narrow = !Grid.useBreakpoint().md;
  const [captcha, setCaptcha] = useState<Captcha>({ enabled: false });
  const [done, setDone] = useState<Submitted | null>(null);
  const uuid = useRef<string | undefined>(undefined);
  const info = useQuery({ queryKey: [applyApi.formInfo.path], queryFn: () => call(applyApi.formInfo) });

  const refreshCaptcha = useCallback(async () => {
    // A refusal (too many images from this address) keeps the field, without an image, and says why.
    const r = await call(authApi.captchaImage, {}, { silent: true }).catch((err: unknown) => {
      if (!(err instanceof ApiError && err.code === Code.CONFLICT)) return null;
      feedback.message.error(err.message);
      return { captchaEnabled: true, uuid: undefined, img: undefined };
    });
    uuid.current = r?.uuid;
    setCaptcha({ enabled: r?.captchaEnabled ?? false, uuid: r?.uuid, img: r?.img });
  }, []);
  useEffect(() => {
    void refreshCaptcha();
  }, [refreshCaptcha]);

  // The form is declared once (a new declaration would reset what was typed): its custom inputs read these.
  const live = useRef({ captcha, agreementKey: '', t, refresh: refreshCaptcha });
  live.current = { captcha, agreementKey: info.data?.privacyAgreementKey ?? '', t, refresh: refreshCaptcha };
  const resource = useMemo(
    () =>
      defineResource({
        name: 'apply',
        columns: [],
        api: { list: applyApi.list, add: applyApi.submit },
        formSchema: { create: applyCreate },
        texts: { saved: 'apply.submitted' },
        initialValues: () => ({ agreed: false }),
        toBody: (values) => ({ ...values, ...(uuid.current ? { uuid: uuid.current } : {}) }),
        onSaved: (saved) => setDone(saved as Submitted),
        form: [
          { key: 'companyName', kind: 'text', span: 24, props: { maxLength: 100 } },
          { key: 'contact', kind: 'text', props: { maxLength: 50 } },
          { key: 'phone', kind: 'text', props: { maxLength: 30, inputMode: 'tel' } },
          { key: 'email', kind: 'text', props: { maxLength: 100, inputMode: 'email' } },
          { key: 'licenseNumber', kind: 'text', props: { maxLength: 30 } },
          {
            key: 'licenseImage',
            kind: 'custom',
            span: 24,
            extra: () => 'apply.licenseHint',
            render: () => (
              <ImageUpload
                limit={1}
                fileSize={APPLY_LICENSE_MAX_MB}
                fileType={['png', 'jpg', 'jpeg']}
                valueField="fileName"
                uploader={uploadLicense}
              />
            ),
          },
          { key: 'address', kind: 'text', span: 24, props: { maxLength: 255 } },
          { key: 'expectedPoints', kind: 'number', props: { min: 1, precision: 0 } },
          { key: 'expectedStations', kind: 'number', props: { min: 1, precision: 0 } },
          { key: 'remark', kind: 'textarea', span: 24, props: { rows: 3, maxLength: 500, showCount: true } },
          {
            key: 'code',
            kind: 'custom',
            span: 24,
            required: true,
            visible: () => live.current.captcha.enabled,
            render: () => <CaptchaInput captcha={live.current.captcha} refresh={() => void live.current.refresh()} t={live.current.t} />,
          },
          {
            key: 'agreed',
            kind: 'custom',
            span: 24,
            render: () => <AgreeBox agreementKey={live.current.agreementKey} t={live.current.t} />,
          },
        ],
      }),
    [],
  );
  const f = useResourceForm({ resource, text, mode: 'create', active: true });

  const submit = async () => {
    const email = String(f.form.getFieldValue('email') ?? '');
    const ok = await f.submit();
    if (ok) setDone((d) => d && { ...d, email });
    else if (captcha.enabled) {
      f.form.setFieldValue('code', '');
      void refreshCaptcha();
    }
  };

  return (
    <Flex justify="center" style={{ minHeight: '100vh', padding: narrow ? 8 : 24, background: '#f4f7f6' }}>
      <Card style={{ width: '100%', maxWidth: 760, alignSelf: 'flex-start' }}>
        {info.isLoading ? (
          <Skeleton active />
        ) : done ? (
          <Result
            status="success"
            title={t('apply.submittedTitle')}
            subTitle={t(done.mailed ? 'apply.submittedText' : 'apply.submittedNoMail', {
              referenceNo: done.referenceNo,
              email: done.email,
            })}
            extra={[
              <Typography.Title key="ref" level={3} copyable data-testid="apply-reference">
                {done.referenceNo}
              </Typography.Title>,
              <Button key="again" onClick={() => window.location.reload()}>
                {t('apply.another')}
              </Button>,
              <Link key="login" to="/login">
                {t('apply.toLogin')}
              </Link>,
            ]}
          />
        ) : (
          <>
            <Typography.Title level={3}>{t('apply.formTitle')}</Typography.Title>
            <Typography.Paragraph type="secondary">
              {t('apply.formIntro', { platform: info.data?.platformName ?? '' })}
            </Typography.Paragraph>
            <FormFields resource={resource} text={text} state={f} span={narrow ? 24 : 12} />
            <Button type="primary" block size="large" loading={f.saving} onClick={() => void submit()} data-testid="apply-submit">
              {t('apply.submit')}
            </Button>
          </>
        )}
      </Card>
    </Flex>
  );
}
