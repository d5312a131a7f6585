import { ResourcePage } from '../../shared/resource/ResourcePage';
import { systemLogResource } from './system-log.resource';

/** System management → system log. */
export default function SystemLogPage() {
  return <ResourcePage resource={systemLogResource} />;
}
