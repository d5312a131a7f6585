import { ArrowLeftOutlined, FullscreenExitOutlined, FullscreenOutlined } from '@ant-design/icons';
import { type LiveFault, statisticsApi, monitorApi, commonApi } from '@csms/contract';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, ConfigProvider, Empty, Space, Statistic, theme, Typography } from 'antd';
import dayjs from 'dayjs';
import { debounce } from 'lodash-es';
import { lazy, Suspense, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { call } from '../../shared/api/client';
import { useAuth } from '../../shared/auth/useAuth';
import type { LineChartOption } from '../../shared/charts/EChart';
import { compactTick } from '../../shared/charts/scale';
import { STREAM_REOPENED, subscribe } from '../../shared/events';
import { formatKw, formatKwh, formatMoney, formatPercent } from '../../shared/format/units';
import { useDict } from '../../shared/dict/useDict';
import { formatDateTime } from '../../shared/resource/cells';
import { useMonitorLive } from '../../features/monitor/live';
import { StatusCountsBar } from '../../features/monitor/status-counts';
import { BOARD_STATES, boardColors, FAULTS_PERMI, fitScale, ranking, stationState } from './board-state';
import './large-screen.css';

const BoardMap = lazy(() => import('./board-map'));
const EChart = lazy(() => import('../../shared/charts/EChart'));

const WIDTH = 1920;
const HEIGHT = 1080;
/** Quiet time after a burst of charger events before the figures are read again. */
const SETTLE_MS = 500;
/** However busy the network (it may never fall quiet), the figures are read again at least this often. */
const FIGURES_EVERY_MS = 2_000;
/** Meter values arrive all the time: the power drawn is read again at most this often. */
const POWER_EVERY_MS = 5_000;

const board = statisticsApi.stationBoard.path;
const today = statisticsApi.today.path;
const power = monitorApi.powerTrend.path;

/** The window's size, following resizes. */
function useWindowSize() {
  const [size, setSize] = useState({ width: window.innerWidth, height: window.innerHeight });
  useEffect(() => {
    const resize = () => setSize({ width: window.innerWidth, height: window.innerHeight });
    window.addEventListener('resize', resize);
    return () => window.removeEventListener('resize', resize);
  }, []);
  return size;
}

/** The clock in the header, once a second. */
function Clock() {
  const [now, setNow] = useState(() => dayjs());
  useEffect(() => {
    const id = setInterval(() => setNow(dayjs()), 1000);
    return () => clearInterval(id);
  }, []);
  return <span data-testid="board-clock">{formatDateTime(now.valueOf())}</span>;
}

/**
 * The board's reads follow the event stream: a status change or a session's start or end reads the
 * stations, today's figures and the counts again once the burst is over (or every few seconds while
 * it lasts), meter values the power drawn at most every few seconds; a reopened stream reads
 * everything. No polling but the power curve's buckets, which move on with the clock.
 */
function useBoardLive() {
  const qc = useQueryClient();
  useEffect(() => {
    let powerTimer: ReturnType<typeof setTimeout> | undefined;
    const refetch = (...paths: string[]) => paths.forEach((path) => void qc.invalidateQueries({ queryKey: [path] }));
    const settled = debounce(() => refetch(board, today), SETTLE_MS, { maxWait: FIGURES_EVERY_MS });
    const drawn = () => {
      if (powerTimer) return;
      powerTimer = setTimeout(() => {
        powerTimer = undefined;
        refetch(board);
      }, POWER_EVERY_MS);
    };
    const offs = [
      ...['point.status', 'point.online', 'point.fault', 'transaction.started', 'transaction.stopped'].map((type) =>
        subscribe(type, settled),
      ),
      subscribe('transaction.meter', drawn),
      subscribe(STREAM_REOPENED, () => refetch(board, today, power)),
    ];
    return () => {
      settled.cancel();
      clearTimeout(powerTimer);
      offs.forEach((off) => off());
    };
  }, [qc]);
}

function Panel({ title, children, testId, extra }: { title: string; children: ReactNode; testId?: string; extra?: ReactNode }) {
  return (
    <Card
      title={title}
      extra={extra}
      size="small"
      style={{ display: 'flex', flexDirection: 'column', minHeight: 0 }}
      styles={{ body: { flex: 1, minHeight: 0, overflow: 'hidden' } }}
      data-testid={testId}
    >
      {children}
    </Card>
  );
}

function FaultTicker() {
  const { t } = useTranslation();
  const { data } = useQuery({
    queryKey: [monitorApi.faults.path, { limit: 20 }],
    queryFn: ({ signal }) => call(monitorApi.faults, { query: { limit: 20 } }, { signal, silent: true }),
  });
  const faults: LiveFault[] = data ?? [];
  // The error code in words, as the dashboard's live faults and the alarm records show it.
  const codes = useDict('chargePointErrorCode');
  const codeLabel = (code: string) => codes.find((e) => e.dictValue === code)?.dictLabel ?? code;
  if (faults.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('largeScreen.noFaults')} />;
  return (
    <div className="board-ticker" data-testid="board-faults">
      {/* Twice, so that the list scrolls round without a jump; the copy is hidden from assistive technology. */}
      {[0, 1].map((copy) => (
        <div
          key={copy}
          aria-hidden={copy === 1}
          className="board-ticker-run"
          style={{ animationDuration: `${Math.max(20, faults.length * 4)}s` }}
        >
          {faults.map((f) => (
            <div key={f.alarmId} style={{ padding: '6px 0', borderBottom: '1px solid rgba(255,255,255,.08)' }}>
              <Typography.Text type="danger">{codeLabel(f.errorCode)}</Typography.Text>{' '}
              <Typography.Text>{`${f.stationName} · ${f.serialNumber} #${f.connectorNo}`}</Typography.Text>
              <br />
              <Typography.Text type="secondary">{formatDateTime(f.occurredAt)}</Typography.Text>
            </div>
          ))}
        </div>
      ))}
    </div>
  );
}

function PowerCurve() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { data } = useQuery({
    queryKey: [power, { bucketMinutes: 15 }],
    queryFn: ({ signal }) => call(monitorApi.powerTrend, { query: { bucketMinutes: 15 } }, { signal, silent: true }),
    placeholderData: keepPreviousData,
    // The buckets move on with the clock.
    refetchInterval: 60_000,
  });
  const option = useMemo<LineChartOption>(
    () => ({
      animation: false,
      grid: { left: 50, right: 16, top: 16, bottom: 28 },
      tooltip: { trigger: 'axis', valueFormatter: (v) => t('largeScreen.unit.kwValue', { value: formatKw(Number(v)) }) },
      xAxis: { type: 'time', axisLabel: { color: token.colorTextSecondary, formatter: (v: number) => dayjs(v).format('HH:mm') } },
      yAxis: {
        type: 'value',
        // Watts on the axis, kW in its labels: ticks of at least 1 kW, so an idle network reads 0 and 1, not 0 six times.
        min: 0,
        minInterval: 1000,
        axisLabel: { color: token.colorTextSecondary, formatter: (v: number) => compactTick(formatKw(v)) },
        splitLine: { lineStyle: { color: '#1f3b57' } },
      },
      series: [
        {
          type: 'line',
          showSymbol: false,
          areaStyle: { opacity: 0.25 },
          lineStyle: { color: token.colorPrimary },
          itemStyle: { color: token.colorPrimary },
          data: (data?.points ?? []).map((p) => [new Date(p.at).getTime(), p.powerW]),
        },
      ],
    }),
    [data, token, t],
  );
  return (
    <Suspense fallback={null}>
      <EChart option={option} label={t('largeScreen.powerCurve')} height={250} testId="board-power-curve" />
    </Suspense>
  );
}

/**
 * The control room's wall display (spec §1, `/largeScreen`): a 1920 × 1080 board scaled to the
 * window (a 4K wall doubles it), without scroll bars: today's figures, connectors by status, the
 * stations on a map coloured by their state, the power drawn now and over 24 hours, the station
 * ranking and the open faults, all moving with the event stream.
 */
export default function LargeScreenPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { hasPermi } = useAuth();
  const win = useWindowSize();
  const scale = fitScale(win, WIDTH, HEIGHT);
  const [full, setFull] = useState(() => Boolean(document.fullscreenElement));
  useMonitorLive();
  useBoardLive();

  useEffect(() => {
    const change = () => setFull(Boolean(document.fullscreenElement));
    document.addEventListener('fullscreenchange', change);
    // The board owns the window: no scroll bars behind it.
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.removeEventListener('fullscreenchange', change);
      document.body.style.overflow = overflow;
    };
  }, []);

  const stationsQuery = useQuery({
    queryKey: [board],
    queryFn: ({ signal }) => call(statisticsApi.stationBoard, {}, { signal, silent: true }),
    placeholderData: keepPreviousData,
  });
  const todayQuery = useQuery({
    queryKey: [today],
    queryFn: ({ signal }) => call(statisticsApi.today, {}, { signal, silent: true }),
    placeholderData: keepPreviousData,
  });
  const tiles = useQuery({
    queryKey: [commonApi.configKey.path, 'map.tileUrl'],
    queryFn: () => call(commonApi.configKey, { params: { key: 'map.tileUrl' } }, { silent: true }),
    staleTime: Infinity,
  });
  const stations = useMemo(() => stationsQuery.data?.stations ?? [], [stationsQuery.data]);
  const powerNow = stations.reduce((sum, s) => sum + s.powerW, 0);
  const top = useMemo(() => ranking(stations), [stations]);
  const figures = todayQuery.data;

  const kpis = [
    { key: 'power', value: formatKw(powerNow), unit: t('largeScreen.unit.kw') },
    { key: 'energy', value: formatKwh(figures?.energyWh ?? 0), unit: t('largeScreen.unit.kwh') },
    { key: 'income', value: formatMoney(figures?.incomeCents ?? 0) },
    { key: 'count', value: String(figures?.chargeCount ?? 0) },
    { key: 'utilisation', value: formatPercent(figures?.utilisation ?? 0), unit: t('largeScreen.unit.percent') },
  ];

  return (
    <ConfigProvider theme={{ algorithm: theme.darkAlgorithm, token: { colorBgContainer: '#0f2740', colorBgLayout: '#071726' } }}>
      <div style={{ position: 'fixed', inset: 0, background: '#071726', overflow: 'hidden' }} data-testid="large-screen">
        <div
          style={{
            position: 'absolute',
            width: WIDTH,
            height: HEIGHT,
            left: (win.width - WIDTH * scale) / 2,
            top: (win.height - HEIGHT * scale) / 2,
            transform: `scale(${scale})`,
            transformOrigin: '0 0',
            display: 'grid',
            gridTemplateColumns: '440px 1fr 440px',
            gridTemplateRows: '72px 120px 1fr',
            gap: 16,
            padding: 16,
            boxSizing: 'border-box',
            color: '#fff',
          }}
        >
          <header style={{ gridColumn: '1 / 4', display: 'flex', alignItems: 'center', justifyContent: 'space-between' }}>
            <Typography.Title level={2} style={{ margin: 0 }}>
              {t('largeScreen.title')}
            </Typography.Title>
            <Space size="large">
              <Typography.Text style={{ fontSize: 20 }}>
                <Clock />
              </Typography.Text>
              <Button icon={<ArrowLeftOutlined />} onClick={() => navigate('/dashboard')}>
                {t('largeScreen.back')}
              </Button>
              <Button
                icon={full ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
                onClick={() => void (full ? document.exitFullscreen() : document.documentElement.requestFullscreen())}
                data-testid="board-fullscreen"
              >
                {t(full ? 'largeScreen.exitFullScreen' : 'largeScreen.fullScreen')}
              </Button>
            </Space>
          </header>

          <section style={{ gridColumn: '1 / 4', display: 'grid', gridTemplateColumns: 'repeat(5, 1fr)', gap: 16 }}>
            {kpis.map((k) => (
              <Card key={k.key} size="small" data-testid={`board-${k.key}`}>
                <Statistic
                  title={t(`largeScreen.kpi.${k.key}`)}
                  value={k.value}
                  suffix={k.unit}
                  loading={!figures && k.key !== 'power'}
                  styles={{ content: { fontSize: 34 } }}
                />
              </Card>
            ))}
          </section>

          <aside style={{ display: 'grid', gridTemplateRows: 'auto 1fr', gap: 16, minHeight: 0 }}>
            <Panel title={t('largeScreen.status')}>
              <StatusCountsBar bordered={false} />
            </Panel>
            <Panel title={t('largeScreen.ranking')} testId="board-ranking">
              {top.length === 0 ? (
                <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
              ) : (
                <ol style={{ margin: 0, paddingInlineStart: 24, fontSize: 16 }}>
                  {top.map((s) => (
                    <li key={s.stationId} style={{ padding: '5px 0' }}>
                      <span style={{ display: 'flex', justifyContent: 'space-between', gap: 8 }}>
                        <Typography.Text ellipsis style={{ maxWidth: 230 }}>
                          {s.stationName}
                        </Typography.Text>
                        <Typography.Text strong>{formatMoney(s.incomeCents)}</Typography.Text>
                      </span>
                    </li>
                  ))}
                </ol>
              )}
            </Panel>
          </aside>

          <main style={{ position: 'relative', borderRadius: 8, overflow: 'hidden', minHeight: 0 }}>
            <Suspense fallback={null}>{tiles.isFetched && <BoardMap stations={stations} tileUrl={tiles.data ?? ''} />}</Suspense>
            <div
              style={{
                position: 'absolute',
                left: 12,
                bottom: 12,
                zIndex: 1000,
                background: 'rgba(7,23,38,.8)',
                padding: '6px 12px',
                borderRadius: 6,
              }}
              data-testid="board-legend"
            >
              <Space size="middle">
                {BOARD_STATES.map((state) => (
                  <span key={state}>
                    <span
                      style={{
                        display: 'inline-block',
                        width: 10,
                        height: 10,
                        borderRadius: 5,
                        background: boardColors[state],
                        marginInlineEnd: 6,
                      }}
                    />
                    {t(`largeScreen.state.${state}`)}{' '}
                    <span data-testid={`board-state-${state}`}>{stations.filter((s) => stationState(s) === state).length}</span>
                  </span>
                ))}
              </Space>
            </div>
            {stationsQuery.data?.truncated && (
              <Typography.Text type="warning" style={{ position: 'absolute', right: 12, top: 12, zIndex: 1000 }}>
                {t('largeScreen.truncated', { count: stations.length })}
              </Typography.Text>
            )}
          </main>

          <aside style={{ display: 'grid', gridTemplateRows: 'auto 1fr', gap: 16, minHeight: 0 }}>
            <Panel title={t('largeScreen.powerCurve')}>
              <PowerCurve />
            </Panel>
            {hasPermi(FAULTS_PERMI) && (
              <Panel title={t('largeScreen.faults')}>
                <FaultTicker />
              </Panel>
            )}
          </aside>
        </div>
      </div>
    </ConfigProvider>
  );
}
