import { ResourcePage } from '../../shared/resource/ResourcePage';
import { roleResource } from './role.resource';

/** System management → permissions (roles). */
export default function RolePage() {
  return <ResourcePage resource={roleResource} />;
}
