import { ResourcePage } from '../../shared/resource/ResourcePage';
import { activityResource } from './activity.resource';

/** Operations → Activities (spec §2 `/operateManagement/activityManage`; issue 19 item 2). */
export default function ActivityPage() {
  return <ResourcePage resource={activityResource} />;
}
