import { api, type StatusCounts } from '@csms/contract';
import { useQuery } from '@tanstack/react-query';
import { Card, Col, Row, Statistic, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../shared/api/client';

/** The spec's headline counts (§4: connected, free, charging, offline, fault), over connectors. */
export const COUNT_KEYS = ['connected', 'free', 'charging', 'offline', 'fault'] as const satisfies readonly (keyof StatusCounts)[];

export function useStatusCounts() {
  return useQuery({
    queryKey: [api.monitor.counts.path, {}],
    queryFn: ({ signal }) => call(api.monitor.counts, { query: {} }, { signal, silent: true }),
  });
}

/** Counts by status, kept live by `useMonitorLive` (it refetches them after status events). */
export function StatusCountsBar({ bordered = true }: { bordered?: boolean }) {
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
  return (
    <Row gutter={[12, 12]}>
      {COUNT_KEYS.map((key) => (
        <Col key={key} flex="1 1 120px">
          <Card size="small" variant={bordered ? 'outlined' : 'borderless'} data-testid={`count-${key}`}>
            <Statistic
              title={t(`enums.statusCount.${key}`)}
              value={data?.[key] ?? 0}
              loading={!data}
              styles={{ content: { color: colors[key] } }}
            />
          </Card>
        </Col>
      ))}
    </Row>
  );
}
