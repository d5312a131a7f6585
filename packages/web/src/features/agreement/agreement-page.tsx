import { agreementKey, providerApi } from '@csms/contract';
import { useQuery } from '@tanstack/react-query';
import { Avatar, Card, Empty, Flex, Result, Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'react-router';
import { call } from '../../shared/api/client';
import { RichTextView } from '../../shared/richtext/RichTextView';

type Kind = 'disclaimer' | 'privacyAgreement';

/**
 * A provider's disclaimer or privacy agreement as a public page for drivers
 * (`/disclaimer/{key}`, `/privacyAgreement/{key}`): no sign-in, the provider's name and logo. The key is
 * the provider's unguessable agreement key (never its id, which could be walked).
 */
export default function AgreementPage() {
  const { t } = useTranslation();
  const { key = '' } = useParams();
  const kind: Kind = useLocation().pathname.startsWith('/privacyAgreement') ? 'privacyAgreement' : 'disclaimer';
  const valid = agreementKey.safeParse(key).success;
  const { data, isLoading, isError } = useQuery({
    queryKey: [providerApi.agreement.path, key, kind],
    queryFn: () => call(providerApi.agreement, { query: { key, kind } }, { silent: true }),
    enabled: valid,
  });
  if (!valid || isError) return <Result status="404" title={t('agreement.notFound')} />;
  return (
    <Flex justify="center" style={{ minHeight: '100vh', padding: 24, background: '#f4f7f6' }}>
      <Card style={{ width: '100%', maxWidth: 820 }}>
        {isLoading || !data ? (
          <Skeleton active />
        ) : (
          <>
            <Flex align="center" gap={12} style={{ marginBottom: 16 }}>
              <Avatar shape="square" size={40} src={data.logoPath || '/favicon.svg'} />
              <Typography.Text strong>{data.providerName}</Typography.Text>
            </Flex>
            <Typography.Title level={3}>{t(`fields.provider.${kind}`)}</Typography.Title>
            {data.content ? <RichTextView html={data.content} testId="agreement-content" /> : <Empty description={t('agreement.empty')} />}
          </>
        )}
      </Card>
    </Flex>
  );
}
