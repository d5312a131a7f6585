import { ResourcePage } from '../../shared/resource/ResourcePage';
import { alarmRecordResource } from './alarm-record.resource';

/** Records → alarm records. */
export default function AlarmRecordPage() {
  return <ResourcePage resource={alarmRecordResource} />;
}
