import type { ActionStatus } from '@csms/contract';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

/** The colour of a charger's answer: success, a warning (takes a reboot, not supported, busy), an error, or grey when offline. */
export const actionStatusColor: Record<ActionStatus, string> = {
  accepted: 'success',
  scheduled: 'processing',
  rebootRequired: 'warning',
  rejected: 'error',
  failed: 'error',
  faulted: 'error',
  offline: 'default',
  notImplemented: 'warning',
  notSupported: 'warning',
  versionMismatch: 'warning',
  occupied: 'warning',
  unavailable: 'warning',
};

/** A charger's answer as a coloured word; `words` replaces the status's own (unlock's "unlocked"). */
export function ActionStatusTag({ status, words }: { status: ActionStatus; words?: string }) {
  const { t } = useTranslation();
  return (
    <Tag color={actionStatusColor[status]} data-status={status}>
      {words ?? t(`enums.actionStatus.${status}`)}
    </Tag>
  );
}
