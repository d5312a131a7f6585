import { actionStatusOf, type LocalListState, pointActionApi } from '@csms/contract';
import { Descriptions, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../shared/api/client';

/** The server's record of a point's local list (OCPP SendLocalList), read when the dialog opens. */
export function useLocalListState(serialNumber: string | undefined, enabled: boolean) {
  const [state, setState] = useState<LocalListState | null>(null);
  useEffect(() => {
    setState(null);
    if (!serialNumber || !enabled) return;
    let live = true;
    call(pointActionApi.localListState, { query: { serialNumber } })
      .then((s) => live && setState(s))
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [serialNumber, enabled]);
  return state;
}

/** Whether the operator should be offered a Full update: the point is out of step after an answer it gave. */
export const fullOffered = (state: LocalListState | undefined, status: string) =>
  state !== undefined && !state.inStep && status !== 'offline' && status !== 'notSupported';

/**
 * Version on record, the version the charger last reported, in step or not, and the last answer in
 * the spec's words (accepted, failed, version mismatch, not supported).
 */
export function LocalListRecord({ state }: { state: LocalListState }) {
  const { t } = useTranslation();
  const f = (key: string) => t(`fields.pointAction.${key}`);
  const none = t('monitor.dialog.localListNone');
  const charger =
    state.chargerVersion === null ? none : state.chargerVersion < 0 ? t('enums.actionStatus.notSupported') : state.chargerVersion;
  return (
    <Descriptions
      column={1}
      size="small"
      bordered
      data-testid="local-list-record"
      items={[
        {
          key: 'serverVersion',
          label: f('serverVersion'),
          children: <span data-testid="server-version">{state.serverVersion ?? none}</span>,
        },
        { key: 'chargerVersion', label: f('chargerVersion'), children: charger },
        {
          key: 'inStep',
          label: f('inStep'),
          children: (
            <Tag color={state.inStep ? 'success' : 'warning'} data-testid="in-step" data-in-step={state.inStep}>
              {t(`enums.localListStep.${state.inStep ? 'inStep' : 'outOfStep'}`)}
            </Tag>
          ),
        },
        {
          key: 'lastStatus',
          label: f('lastStatus'),
          children: state.lastStatus ? t(`enums.actionStatus.${actionStatusOf(state.lastStatus)}`) : none,
        },
        { key: 'entries', label: f('entries'), children: state.entries },
      ]}
    />
  );
}
