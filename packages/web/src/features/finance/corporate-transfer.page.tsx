import { ResourcePage } from '../../shared/resource/ResourcePage';
import { corporateTransferResource } from './corporate-transfer.resource';

/** Finance → corporate transfer. */
export default function CorporateTransferPage() {
  return <ResourcePage resource={corporateTransferResource} />;
}
