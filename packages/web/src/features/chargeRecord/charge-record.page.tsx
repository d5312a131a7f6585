import { Flex, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ResourcePage } from '../../shared/resource/ResourcePage';
import { chargeRecordResource } from './charge-record.resource';

/** Records → charging records, their times on each station's clock (as in the detail and the bill). */
export default function ChargeRecordPage() {
  const navigate = useNavigate();
  const { t } = useTranslation();
  const resource = useMemo(
    () =>
      chargeRecordResource({
        open: (path) => void navigate(path),
        reason: (row) => (row.invalidReason ? t(`enums.invalidReason.${row.invalidReason}`, { defaultValue: row.invalidReason }) : ''),
      }),
    [navigate, t],
  );
  return (
    <Flex vertical gap={8}>
      <ResourcePage resource={resource} />
      <Typography.Text type="secondary" data-testid="list-zone-note">
        {t('chargeRecord.listTimeZoneNote')}
      </Typography.Text>
    </Flex>
  );
}
