import { BellOutlined } from '@ant-design/icons';
import { messageApi } from '@csms/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Badge, Button, Tooltip } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { call } from '../../shared/api/client';
import { subscribe, type ServerEvent } from '../../shared/events';
import { feedback } from '../../shared/feedback';
import { MESSAGE_PATH, unreadKey } from './message-actions';

type UnreadEvent = ServerEvent & { unread?: number; title?: string; from?: string };

/** The navbar's bell: the unread count, live on `message.new` / `message.read`; a click opens the messages. */
export default function MessageBell() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { data } = useQuery({
    queryKey: unreadKey,
    queryFn: ({ signal }) => call(messageApi.unread, {}, { signal, silent: true }),
    refetchInterval: 5 * 60_000,
  });
  useEffect(() => {
    const update = (e: UnreadEvent) => {
      if (typeof e.unread === 'number') queryClient.setQueryData(unreadKey, { unread: e.unread });
      else void queryClient.invalidateQueries({ queryKey: unreadKey });
      void queryClient.invalidateQueries({ queryKey: [messageApi.list.path] });
    };
    const offNew = subscribe<UnreadEvent>('message.new', (e) => {
      update(e);
      feedback.notification.info({
        title: t('message.newTitle'),
        description: t('message.newText', { title: e.title ?? '', from: e.from ?? '' }),
        placement: 'topRight',
      });
    });
    const offRead = subscribe<UnreadEvent>('message.read', update);
    return () => {
      offNew();
      offRead();
    };
  }, [queryClient, t]);
  const unread = data?.unread ?? 0;
  const label = t('message.bell', { n: unread });
  return (
    <Tooltip title={t('message.title')}>
      <Button type="text" aria-label={label} data-testid="message-bell" onClick={() => navigate(MESSAGE_PATH)}>
        <Badge count={unread} size="small" offset={[2, -2]} data-testid="message-badge">
          <BellOutlined style={{ fontSize: 16 }} />
        </Badge>
      </Button>
    </Tooltip>
  );
}
