import type { PointKey } from '@csms/contract';
import { Alert, Descriptions, Typography } from 'antd';
import i18n from 'i18next';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../shared/feedback';

/** Where the charger connects: the console's own host (one port serves both), path `/ocpp/{serial}`. */
export function connectionUrl(serialNumber: string, loc: Pick<Location, 'protocol' | 'host'> = window.location): string {
  // Serial numbers are URL-safe by the contract's pattern (':' included); anything else is escaped.
  return `${loc.protocol === 'https:' ? 'wss' : 'ws'}://${loc.host}/ocpp/${encodeURIComponent(serialNumber).replace(/%3A/gi, ':')}`;
}

function OcppKeyNotice({ serialNumber, ocppKey }: Pick<PointKey, 'serialNumber' | 'ocppKey'>) {
  const { t } = useTranslation();
  const code = (text: string, testId: string) => (
    <Typography.Text code copyable={{ text }} data-testid={testId} style={{ wordBreak: 'break-all' }}>
      {text}
    </Typography.Text>
  );
  return (
    <>
      <Alert type="warning" showIcon title={t('point.keyWarning')} style={{ marginBottom: 12 }} />
      <Typography.Paragraph type="secondary">{t('point.keyUsage')}</Typography.Paragraph>
      <Descriptions
        column={1}
        size="small"
        bordered
        items={[
          { key: 'url', label: t('point.connectionUrl'), children: code(connectionUrl(serialNumber), 'ocpp-url') },
          { key: 'user', label: t('point.basicUser'), children: code(serialNumber, 'ocpp-user') },
          { key: 'key', label: t('point.basicPassword'), children: code(ocppKey, 'ocpp-key') },
        ]}
      />
    </>
  );
}

/** The point's OCPP key, the only time it is shown: a dialog that closes only on purpose. */
export function showOcppKey(key: Pick<PointKey, 'serialNumber' | 'ocppKey'>) {
  feedback.modal.info({
    title: i18n.t('point.keyTitle', { serial: key.serialNumber }),
    width: 640,
    icon: null,
    content: <OcppKeyNotice serialNumber={key.serialNumber} ocppKey={key.ocppKey} />,
    okText: i18n.t('point.keyDone'),
    closable: false,
    mask: { closable: false },
  });
}
