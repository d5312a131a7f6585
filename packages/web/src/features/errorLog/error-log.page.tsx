import { ResourcePage } from '../../shared/resource/ResourcePage';
import { errorLogResource } from './error-log.resource';

/** System management → error log. */
export default function ErrorLogPage() {
  return <ResourcePage resource={errorLogResource} />;
}
