import { DeleteOutlined } from '@ant-design/icons';
import { messageCreate, type MessageRow, roleApi, messageApi } from '@csms/contract';
import type { QueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { call } from '../../shared/api/client';
import { RichTextView } from '../../shared/richtext/RichTextView';
import { defineResource, type ColumnDef, type SearchDef } from '../../shared/resource/types';
import { confirmDelete, markRead } from './message-actions';

type Filter = { keyWord?: string; startTime?: unknown; endTime?: unknown };

/** The spec's page size for messages (§9). */
export const MESSAGE_PAGE_SIZE = 1000;

const search: SearchDef<Filter>[] = [
  { key: 'keyWord', kind: 'text' },
  { key: 'createTime', kind: 'dateRange', keys: ['startTime', 'endTime'], instant: true },
];

function Content({ row }: { row: MessageRow }) {
  return <RichTextView html={row.content} testId="message-content" style={{ paddingInline: 16 }} />;
}

const filled = (v: unknown) => typeof v === 'string' && v.trim() !== '';
/**
 * The contract's send body, with the recipients rule checked even while other fields are still
 * empty (a refinement normally waits for them), so the dialog names every missing field at once.
 */
const sendForm = z.object(messageCreate.shape).refine((b) => filled(b.roleName) || filled(b.username), {
  message: 'validation.recipientsRequired',
  path: ['username'],
  when: () => true,
});

const roleOptions = {
  key: 'message.roles',
  load: async () => (await call(roleApi.options, { query: {} })).map((r) => ({ value: r.roleName, label: r.roleName })),
};

const base = {
  name: 'message',
  rowKey: 'msgId' as const,
  rowId: (row: MessageRow) => `${row.msgId}-${row.userId}`,
  search,
  pageSize: MESSAGE_PAGE_SIZE,
  exportSource: 'message' as const,
  hideActions: ['detail', 'edit', 'remove'] as Array<'detail' | 'edit' | 'remove'>,
};

const titleCol: ColumnDef<MessageRow> = { key: 'title', ellipsis: true };
const createTimeCol: ColumnDef<MessageRow> = { key: 'createTime', kind: 'datetime', width: 180, sorter: true };

/** Spec §6, the user named admin: everything sent, one row per recipient; sends, never deletes. */
export const adminMessageResource = defineResource({
  ...base,
  api: { list: messageApi.list, add: messageApi.add, export: messageApi.export },
  columns: [
    { key: 'msgId', width: 100, sorter: true, defaultHidden: true },
    titleCol,
    { key: 'createUserName', width: 130, defaultHidden: true },
    { key: 'recUserName', width: 140 },
    createTimeCol,
    { key: 'read', dict: 'messageRead', width: 100, defaultHidden: true },
    { key: 'readTime', kind: 'datetime', width: 180 },
    { key: 'delete', dict: 'yesNo', width: 100 },
  ],
  expandable: { render: (row) => <Content row={row} /> },
  form: [
    { key: 'title', kind: 'text', span: 24 },
    { key: 'content', kind: 'richtext', span: 24 },
    { key: 'roleName', kind: 'select', remote: roleOptions, props: { mode: 'multiple' } },
    { key: 'username', kind: 'text', extra: () => 'message.usernameHint' },
    { key: 'isSend', kind: 'checkbox', extra: () => 'message.isSendHint' },
  ],
  formWidth: 720,
  formSchema: { create: sendForm },
  toBody: (values) => ({ ...values, roleName: Array.isArray(values.roleName) ? values.roleName.join(',') : values.roleName }),
  texts: {
    createTitle: 'message.sendTitle',
    createConfirm: 'message.sendConfirm',
    saved: 'message.sent',
    saveFailed: 'message.sendFailed',
    listFailed: 'message.searchFailed',
  },
});

/** Everyone else: their inbox; opening a row reads it, and rows can be deleted. */
export function inboxMessageResource(queryClient: QueryClient) {
  return defineResource({
    ...base,
    api: { list: messageApi.list, export: messageApi.export },
    columns: [
      { key: 'msgId', width: 100, sorter: true, defaultHidden: true },
      { key: 'createUserName', width: 140, label: 'message.from' },
      titleCol,
      createTimeCol,
      { key: 'read', dict: 'messageRead', width: 100 },
    ],
    expandable: { render: (row) => <Content row={row} />, onExpand: (row) => void markRead(queryClient, row).catch(() => undefined) },
    texts: { listFailed: 'message.searchFailed' },
    rowActions: [
      { key: 'delete', label: 'common.delete', icon: <DeleteOutlined />, danger: true, onClick: (row) => confirmDelete(queryClient, row) },
    ],
  });
}
