import { agreementKey, providerApi, type DataOf } from '@csms/contract';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PlainLoading } from '../../app/plain-loading';
import { PlainPage, PlainResult } from '../../app/plain-page';
import { call } from '../../shared/api/client';
import { RichTextView } from '../../shared/richtext/RichTextView';

type Kind = 'disclaimer' | 'privacyAgreement';
type Agreement = DataOf<typeof providerApi.agreement>;
type State = { status: 'loading' } | { status: 'missing' } | { status: 'shown'; data: Agreement };

/**
 * A provider's disclaimer or privacy agreement as a public page for drivers
 * (`/disclaimer/{key}`, `/privacyAgreement/{key}`): no sign-in, the provider's name and logo. The key is
 * the provider's unguessable agreement key (never its id, which could be walked). Drawn without antd
 * (app/plain-pages.ts): drivers open it on their phones, and it loads a fraction of the console.
 */
export default function AgreementPage({ kind }: { kind: Kind }) {
  const { t } = useTranslation();
  const { key = '' } = useParams();
  const valid = agreementKey.safeParse(key).success;
  const [state, setState] = useState<State>({ status: 'loading' });

  useEffect(() => {
    if (!valid) return;
    let live = true;
    setState({ status: 'loading' });
    call(providerApi.agreement, { query: { key, kind } }, { silent: true }).then(
      (data) => live && setState({ status: 'shown', data }),
      () => live && setState({ status: 'missing' }),
    );
    return () => {
      live = false;
    };
  }, [key, kind, valid]);

  const title = `fields.provider.${kind}`;
  if (!valid || state.status === 'missing')
    return (
      <PlainPage titleKey={title}>
        <PlainResult headline={t('agreement.notFound')} />
      </PlainPage>
    );
  return (
    <PlainPage titleKey={title}>
      <main className="csms-plain-card">
        {state.status === 'loading' ? (
          <PlainLoading />
        ) : (
          <>
            <div className="csms-plain-provider">
              <img src={state.data.logoPath || '/favicon.svg'} alt="" />
              <span>{state.data.providerName}</span>
            </div>
            <h1>{t(title)}</h1>
            {state.data.content ? (
              <RichTextView html={state.data.content} testId="agreement-content" />
            ) : (
              <div className="csms-plain-empty">{t('agreement.empty')}</div>
            )}
          </>
        )}
      </main>
    </PlainPage>
  );
}
