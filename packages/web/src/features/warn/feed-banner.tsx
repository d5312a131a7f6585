import { CloudDownloadOutlined, ControlOutlined } from '@ant-design/icons';
import { warnApi } from '@csms/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Space } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../shared/api/client';
import { Authorized } from '../../shared/auth/authorized';
import { feedback } from '../../shared/feedback';
import { formatDateTime } from '../../shared/resource/cells';

/** How often the open screen asks whether the feed has run (a run refreshes the lists). */
const POLL_MS = 15_000;

const permiOf = (ep: { access: unknown }) => (ep.access as { permi: string }).permi;

/**
 * Whether the forecast feed is on (`CSMS_WEATHER_URL`), when it last fetched or failed and runs next;
 * off, it says warnings are entered by hand. Its buttons fetch now and open the rules.
 */
export function FeedBanner({ onRules }: { onRules: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { data: feed } = useQuery({
    queryKey: [warnApi.feed.path],
    queryFn: () => call(warnApi.feed, {}),
    refetchInterval: POLL_MS,
  });
  // A run that finished since the lists were read: they show its forecast and warnings.
  const lastRun = useRef<string | null | undefined>(undefined);
  useEffect(() => {
    if (!feed) return;
    if (lastRun.current !== undefined && lastRun.current !== feed.lastRunAt) {
      void queryClient.invalidateQueries({ queryKey: [warnApi.searchStationWeather.path] });
      void queryClient.invalidateQueries({ queryKey: [warnApi.list.path] });
    }
    lastRun.current = feed.lastRunAt;
  }, [feed, queryClient]);

  const when = (v: string | null) => (v ? formatDateTime(v) : t('warn.never'));
  const buttons = (
    <Space>
      {feed?.enabled && (
        <Authorized permi={[permiOf(warnApi.refresh)]}>
          <Button
            icon={<CloudDownloadOutlined />}
            data-testid="warn-fetch-now"
            onClick={() => void call(warnApi.refresh, { body: {} }).then(() => feedback.message.success(t('warn.fetchQueued')))}
          >
            {t('warn.fetchNow')}
          </Button>
        </Authorized>
      )}
      <Authorized permi={[permiOf(warnApi.saveRules)]}>
        <Button icon={<ControlOutlined />} onClick={onRules} data-testid="warn-rules-open">
          {t('warn.rules')}
        </Button>
      </Authorized>
    </Space>
  );
  if (!feed) return null;
  const [type, title, description] = !feed.enabled
    ? (['info', t('warn.feedOffTitle'), t('warn.feedOff')] as const)
    : feed.lastError
      ? ([
          'warning',
          t('warn.feedErrorTitle'),
          t('warn.feedError', { at: when(feed.lastErrorAt), error: feed.lastError, last: when(feed.lastSuccessAt) }),
        ] as const)
      : ([
          'success',
          t('warn.feedOnTitle'),
          t('warn.feedOn', { hours: feed.refreshHours, last: when(feed.lastSuccessAt), next: when(feed.nextRunAt) }),
        ] as const);
  return (
    <Alert
      type={type}
      showIcon
      title={title}
      description={description}
      action={buttons}
      data-testid="warn-feed"
      data-feed={feed.enabled ? (feed.lastError ? 'error' : 'on') : 'off'}
      style={{ margin: '0 0 12px' }}
    />
  );
}
