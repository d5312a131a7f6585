import { ResourcePage } from '../../shared/resource/ResourcePage';
import { organizationResource } from './organization.resource';

/** System management → organisations. */
export default function OrganizationPage() {
  return <ResourcePage resource={organizationResource} />;
}
