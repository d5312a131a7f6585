import { ResourcePage } from '../../shared/resource/ResourcePage';
import { rechargeRecordResource } from './recharge-record.resource';

/** Finance → recharge records. */
export default function RechargeRecordPage() {
  return <ResourcePage resource={rechargeRecordResource} />;
}
