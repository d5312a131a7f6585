import { Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ResourcePage } from '../../shared/resource/ResourcePage';
import { alarmRecordResource } from './alarm-record.resource';

/** Records → alarm records, their times on each station's clock. */
export default function AlarmRecordPage() {
  const { t } = useTranslation();
  return (
    <Flex vertical gap={8}>
      <ResourcePage resource={alarmRecordResource} />
      <Typography.Text type="secondary" data-testid="list-zone-note">
        {t('alarmRecord.timeZoneNote')}
      </Typography.Text>
    </Flex>
  );
}
