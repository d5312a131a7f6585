import type { ActionResult } from '@csms/contract';
import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';

/** The charger's answer when it is not a plain acceptance: its status in words and why. */
export function AnswerAlert({ answer }: { answer: ActionResult }) {
  const { t } = useTranslation();
  const ok = answer.status === 'accepted';
  return (
    <Alert
      data-testid="config-answer"
      data-status={answer.status}
      type={ok ? 'success' : answer.status === 'rebootRequired' || answer.status === 'scheduled' ? 'warning' : 'error'}
      showIcon
      title={t(`enums.actionStatus.${answer.status}`)}
      description={answer.message ?? undefined}
    />
  );
}
