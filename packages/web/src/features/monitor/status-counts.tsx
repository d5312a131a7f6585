import { type StatusCounts, monitorApi } from '@csms/contract';
import { useQuery } from '@tanstack/react-query';
import { Card, Col, Row, Statistic, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ReactNode } from 'react';
import { call } from '../../shared/api/client';
import { DrillLink } from '../../shared/resource/DrillLink';

/** The spec's headline counts (§4: connected, free, charging, offline, fault), over connectors. */
export const COUNT_KEYS = ['connected', 'free', 'charging', 'offline', 'fault'] as const satisfies readonly (keyof StatusCounts)[];

export function useStatusCounts() {
  return useQuery({
    queryKey: [monitorApi.counts.path, {}],
    queryFn: ({ signal }) => call(monitorApi.counts, { query: {} }, { signal, silent: true }),
  });
}

/** The point status list's filter that shows what a count counts. */
const DRILL: Record<(typeof COUNT_KEYS)[number], Record<string, string>> = {
  connected: { online: 'true' },
  free: { status: 'available' },
  charging: { status: 'charging' },
  offline: { online: 'false' },
  fault: { status: 'faulted' },
};

/**
 * Counts by status, kept live by `useMonitorLive` (it refetches them after status events); with
 * `drill`, each opens the point status list filtered to it.
 */
export function StatusCountsBar({ bordered = true, drill = false }: { bordered?: boolean; drill?: boolean }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { data } = useStatusCounts();
  const colors: Record<(typeof COUNT_KEYS)[number], string> = {
    connected: token.colorInfo,
    free: token.colorSuccess,
    charging: token.colorPrimary,
    offline: token.colorTextTertiary,
    fault: token.colorError,
  };
  const wrap = (key: (typeof COUNT_KEYS)[number], card: ReactNode) =>
    drill ? (
      <DrillLink to="/realTimeMonitor/chargePoint" query={DRILL[key]} permi="monitor:point:list" testId={`drill-count-${key}`}>
        {card}
      </DrillLink>
    ) : (
      card
    );
  return (
    <Row gutter={[12, 12]}>
      {COUNT_KEYS.map((key) => (
        <Col key={key} flex="1 1 120px">
          {wrap(
            key,
            <Card size="small" hoverable={drill} variant={bordered ? 'outlined' : 'borderless'} data-testid={`count-${key}`}>
              <Statistic
                title={t(`enums.statusCount.${key}`)}
                value={data?.[key] ?? 0}
                loading={!data}
                styles={{ content: { color: colors[key] } }}
              />
            </Card>,
          )}
        </Col>
      ))}
    </Row>
  );
}
