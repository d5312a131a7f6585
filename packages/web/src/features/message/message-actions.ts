import { type MessageRow, messageApi } from '@csms/contract';
import type { QueryClient } from '@tanstack/react-query';
import i18n from 'i18next';
import { call } from '../../shared/api/client';
import { feedback } from '../../shared/feedback';

/** Where the navbar's bell leads; open to every signed-in user. */
export const MESSAGE_PATH = '/message/inbox';
export const unreadKey = [messageApi.unread.path] as const;

/** The row's unread count after a read or delete, without waiting for the next poll. */
function settle(queryClient: QueryClient, unread: number) {
  queryClient.setQueryData(unreadKey, { unread });
  void queryClient.invalidateQueries({ queryKey: [messageApi.list.path] });
}

/** Spec §4: an unread inbox row becomes read when its owner opens it, and the server is told. */
export async function markRead(queryClient: QueryClient, row: MessageRow) {
  if (row.read === 1) return;
  const { unread } = await call(messageApi.read, { body: { msgId: row.msgId, userId: row.userId } });
  settle(queryClient, unread);
}

/** Delete from one's inbox after the spec's confirm; '消息删除成功' or '删除新增失败'. */
export function confirmDelete(queryClient: QueryClient, row: MessageRow) {
  const t = i18n.t.bind(i18n);
  feedback.modal.confirm({
    title: t('common.systemPrompt'),
    content: t('message.deleteConfirm', { title: row.title }),
    okText: t('common.confirm'),
    cancelText: t('common.cancel'),
    onOk: async () => {
      try {
        const { unread } = await call(messageApi.remove, { body: { msgId: row.msgId, userId: row.userId } });
        feedback.message.success(t('message.deleted'));
        settle(queryClient, unread);
      } catch {
        feedback.message.error(t('message.deleteFailed'));
      }
    },
  });
}
