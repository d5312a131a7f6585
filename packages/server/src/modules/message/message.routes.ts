import { Code, fieldLabel, type messageApi } from '@csms/contract';
import type { Config } from '../../config.js';
import type { Principal } from '../../http/context.js';
import { badField, notFound } from '../../http/errors.js';
import { external, Outcome, type Handlers } from '../../http/mount.js';
import type { EventHub } from '../../lib/events.js';
import { cleanRichText, richTextToPlain } from '../../lib/rich-text.js';
import { postSms, type SmsConfig } from '../../lib/sms.js';
import type { StoredImages } from '../../lib/stored-images.js';
import type { ExportColumns } from '../../lib/export-config.js';
import { keysetBatches, streamExport, type ExportColumn } from '../../lib/export.js';
import type { MessageRepo, View } from './message.repo.js';

interface Deps {
  repo: MessageRepo;
  events: EventHub;
  columns: ExportColumns;
  config: Pick<Config, 'exportMaxRows'> & SmsConfig;
  images: StoredImages;
}

/** Spec §6: the user named admin gets the admin view (everything sent); everyone else an inbox. */
const viewOf = (p: Principal): View => (p.username === 'admin' ? 'admin' : 'inbox');
const splitList = (s: string | undefined) => [
  ...new Set(
    (s ?? '')
      .split(/[,，]/)
      .map((x) => x.trim())
      .filter(Boolean),
  ),
];

export function messageRoutes({ repo, events, columns, config, images }: Deps): Handlers<typeof messageApi> {
  async function sendSms(
    msg: { msgId: number; title: string; content: string },
    recipients: { id: number; username: string; phone: string | null }[],
  ) {
    await postSms(config, {
      ...msg,
      recipients: recipients.filter((r) => r.phone).map((r) => ({ userId: r.id, username: r.username, phone: r.phone })),
    });
  }

  async function publishUnread(type: string, userIds: number[], payload: Record<string, unknown> = {}) {
    const counts = await repo.unread(userIds);
    for (const userId of userIds) events.publish({ type, userId, payload: { ...payload, unread: counts.get(userId) ?? 0 } });
  }

  return {
    // May call the SMS webhook (up to 10 s): no transaction is held open meanwhile; the system-log row is written first.
    add: external(async ({ body, ctx, audit }) => {
      const p = ctx.principal;
      audit.operand = `message:${body.title}`.slice(0, 255);
      const roleNames = splitList(body.roleName);
      const usernames = splitList(body.username);
      const { users, unknown } = await repo.resolve(p, roleNames, usernames);
      if (unknown.length > 0) {
        const field = roleNames.some((r) => unknown.includes(r)) ? 'roleName' : 'username';
        throw badField(field, 'errors.message.unknownRecipient', { names: unknown.join(', ') });
      }
      if (users.length === 0) throw badField('roleName', 'errors.message.noRecipients');
      // The editor's HTML, allow-listed; nothing visible left is no content at all.
      const content = await cleanRichText({ images, lang: ctx.lang }, p, body.content, { resource: 'message', field: 'content' });
      if (!content) throw badField('content', 'validation.required', { field: fieldLabel(ctx.lang, 'message', 'content') });
      const isSend = Boolean(body.isSend);
      const msgId = await repo.insert(
        { providerId: p.providerId, title: body.title, content, isSend, createUserId: p.userId },
        users.map((u) => u.id),
      );
      audit.operand = `message:${msgId}`;
      await publishUnread(
        'message.new',
        users.map((u) => u.id),
        { msgId, title: body.title, from: p.username },
      );
      const data = { msgId, recipients: users.length, smsSent: false };
      if (!isSend) return new Outcome(data, Code.OK, 'errors.message.sent');
      if (!config.smsWebhook) return new Outcome(data, Code.WARN, 'errors.message.smsNotConfigured');
      try {
        await sendSms({ msgId, title: body.title, content: richTextToPlain(content) }, users);
        return new Outcome({ ...data, smsSent: true }, Code.OK, 'errors.message.sent');
      } catch (err) {
        return new Outcome(data, Code.WARN, 'errors.message.smsFailed', { reason: (err as Error).message });
      }
    }),
    async list({ query, ctx }) {
      const { page, limit, ...f } = query;
      return repo.list(ctx.principal, viewOf(ctx.principal), f, page, limit);
    },
    async search({ body, ctx }) {
      const { page, limit, ...f } = body;
      return repo.list(ctx.principal, viewOf(ctx.principal), f, page, limit);
    },
    async read({ body, ctx, audit }) {
      const p = ctx.principal;
      audit.operand = `message:${body.msgId}`;
      // Only one's own inbox row: another user's (or provider's) message "does not exist".
      if (body.userId !== p.userId || !(await repo.mark(p.userId, body.msgId, 'read'))) throw notFound();
      const unread = (await repo.unread([p.userId])).get(p.userId) ?? 0;
      events.publish({ type: 'message.read', userId: p.userId, payload: { msgId: body.msgId, unread } });
      return { unread };
    },
    async remove({ body, ctx, audit }) {
      const p = ctx.principal;
      audit.operand = `message:${body.msgId}`;
      if (body.userId !== p.userId || !(await repo.mark(p.userId, body.msgId, 'delete'))) throw notFound();
      const unread = (await repo.unread([p.userId])).get(p.userId) ?? 0;
      events.publish({ type: 'message.read', userId: p.userId, payload: { msgId: body.msgId, unread } });
      return { unread };
    },
    async usersByRole({ body, ctx }) {
      return (await repo.usersByRole(ctx.principal, body.roleId)) ?? Promise.reject(notFound());
    },
    async unread({ ctx }) {
      return { unread: (await repo.unread([ctx.principal.userId])).get(ctx.principal.userId) ?? 0 };
    },
    async export({ body, ctx, reply }) {
      const p = ctx.principal;
      const { format, exportId, ...f } = body;
      const view = viewOf(p);
      type Row = { id: number; msgId: number; title: string; content: string; createdAt: Date };
      const defaults: ExportColumn<Row>[] = [
        { key: 'msgId' },
        { key: 'title' },
        { key: 'content', value: (r) => richTextToPlain(r.content) },
        { key: 'createTime', value: (r) => r.createdAt.toISOString() },
      ];
      await streamExport(reply, {
        lang: ctx.lang,
        resource: 'message',
        fileBase: 'message',
        format,
        columns: await columns.columnsFor('message', defaults, ctx),
        total: await repo.countMessages(p, view, f),
        batches: keysetBatches((after, size) => repo.pageMessages(p, view, f, after, size)),
        maxRows: config.exportMaxRows,
        progress: { hub: events, userId: p.userId, exportId },
      });
    },
  };
}
