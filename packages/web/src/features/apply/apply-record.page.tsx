import type { ApplyDto } from '@csms/contract';
import { useMemo, useState } from 'react';
import { OnceOpened } from '../../shared/resource/lazy-parts';
import { ResourcePage } from '../../shared/resource/ResourcePage';
import { applyResource } from './apply.resource';
import { ApproveDialog, RejectDialog } from './review-dialogs';

/** Applicant management (spec §2 `/apply/applyRecord`, hidden in the menu; issue 21). */
export default function ApplyRecordPage() {
  const [approving, setApproving] = useState<ApplyDto | null>(null);
  const [rejecting, setRejecting] = useState<ApplyDto | null>(null);
  // Made once (a new resource would reset the list's state).
  const resource = useMemo(() => applyResource({ approve: setApproving, reject: setRejecting }), []);
  return (
    <>
      <ResourcePage resource={resource} />
      <OnceOpened open={approving !== null}>
        <ApproveDialog row={approving} onClose={() => setApproving(null)} />
      </OnceOpened>
      <RejectDialog row={rejecting} onClose={() => setRejecting(null)} />
    </>
  );
}
