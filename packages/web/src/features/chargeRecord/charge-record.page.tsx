import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ResourcePage } from '../../shared/resource/ResourcePage';
import { chargeRecordResource } from './charge-record.resource';

/** Records → charging records. */
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
  return <ResourcePage resource={resource} />;
}
