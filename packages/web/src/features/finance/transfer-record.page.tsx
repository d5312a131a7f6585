import { ResourcePage } from '../../shared/resource/ResourcePage';
import { transferRecordResource } from './transfer-record.resource';

/** Finance → transfer records (hidden). */
export default function TransferRecordPage() {
  return <ResourcePage resource={transferRecordResource} />;
}
