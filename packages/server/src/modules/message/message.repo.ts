import type { MessageRow } from '@csms/contract';
import { and, asc, count, desc, eq, gt, gte, ilike, inArray, lte, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import { message, messageRecipient, role, systemUser } from '../../db/schema.js';
import type { Principal } from '../../http/context.js';
import { pageTotal } from '../../lib/bounded-count.js';
import { providerScope } from '../../lib/scope.js';
import { contains } from '../../lib/text-search.js';

export interface MessageFilter {
  keyWord?: string | undefined;
  startTime?: Date | undefined;
  endTime?: Date | undefined;
}
/** `inbox`: the caller's own undeleted rows; `admin`: every (message, recipient) pair in scope. */
export type View = 'admin' | 'inbox';

const sender = alias(systemUser, 'sender');
const recipient = alias(systemUser, 'recipient');
const rowColumns = {
  id: messageRecipient.id,
  msgId: message.id,
  userId: messageRecipient.userId,
  title: message.title,
  content: message.content,
  isSend: message.isSend,
  createdAt: message.createdAt,
  createUserName: sender.username,
  recUserName: recipient.username,
  read: messageRecipient.read,
  readAt: messageRecipient.readAt,
  deleted: messageRecipient.deleted,
};

const toRow = (r: {
  msgId: number;
  userId: number;
  title: string;
  content: string;
  isSend: boolean;
  createdAt: Date;
  createUserName: string | null;
  recUserName: string;
  read: number;
  readAt: Date | null;
  deleted: number;
}): MessageRow => ({
  msgId: r.msgId,
  userId: r.userId,
  title: r.title,
  content: r.content,
  isSend: r.isSend,
  createTime: r.createdAt.toISOString(),
  createUserName: r.createUserName,
  recUserName: r.recUserName,
  read: r.read ? 1 : 0,
  readTime: r.readAt?.toISOString() ?? null,
  delete: r.deleted ? 1 : 0,
});

export function createMessageRepo({ db }: { db: Db }) {
  const filterSql = (f: MessageFilter) =>
    and(
      f.keyWord ? or(ilike(message.title, contains(f.keyWord)), ilike(message.content, contains(f.keyWord))) : undefined,
      f.startTime ? gte(message.createdAt, f.startTime) : undefined,
      f.endTime ? lte(message.createdAt, f.endTime) : undefined,
    );
  const viewSql = (p: Principal, view: View) =>
    view === 'admin' ? providerScope(p, message.providerId) : and(eq(messageRecipient.userId, p.userId), eq(messageRecipient.deleted, 0));

  return {
    /** Recipients by role names and usernames, among the users the sender can see; names not found come back as `unknown`. */
    async resolve(p: Principal, roleNames: string[], usernames: string[]) {
      const unknown: string[] = [];
      const users = new Map<number, { id: number; username: string; phone: string | null }>();
      const userCols = { id: systemUser.id, username: systemUser.username, phone: systemUser.phone };
      if (roleNames.length > 0) {
        const roles = await db
          .select({ id: role.id, roleName: role.roleName })
          .from(role)
          .where(and(providerScope(p, role.providerId), inArray(role.roleName, roleNames)));
        unknown.push(...roleNames.filter((n) => !roles.some((r) => r.roleName === n)));
        if (roles.length > 0) {
          const rows = await db
            .select(userCols)
            .from(systemUser)
            .where(
              and(
                providerScope(p, systemUser.providerId),
                inArray(
                  systemUser.roleId,
                  roles.map((r) => r.id),
                ),
              ),
            );
          rows.forEach((u) => users.set(u.id, u));
        }
      }
      if (usernames.length > 0) {
        const lower = usernames.map((u) => u.toLowerCase());
        const rows = await db
          .select(userCols)
          .from(systemUser)
          .where(and(providerScope(p, systemUser.providerId), inArray(sql`lower(${systemUser.username})`, lower)));
        unknown.push(...usernames.filter((n) => !rows.some((u) => u.username.toLowerCase() === n.toLowerCase())));
        rows.forEach((u) => users.set(u.id, u));
      }
      return { users: [...users.values()], unknown };
    },
    async insert(values: typeof message.$inferInsert, userIds: number[]) {
      return db.transaction(async (tx) => {
        const [m] = await tx.insert(message).values(values).returning({ id: message.id });
        await tx.insert(messageRecipient).values(userIds.map((userId) => ({ messageId: m!.id, userId })));
        return m!.id;
      });
    },
    async list(p: Principal, view: View, f: MessageFilter, page: number, limit: number) {
      const cond = and(viewSql(p, view), filterSql(f));
      const offset = (page - 1) * limit;
      const rows = await db
        .select(rowColumns)
        .from(messageRecipient)
        .innerJoin(message, eq(message.id, messageRecipient.messageId))
        .innerJoin(recipient, eq(recipient.id, messageRecipient.userId))
        .leftJoin(sender, eq(sender.id, message.createUserId))
        .where(cond)
        .orderBy(desc(message.id), asc(messageRecipient.id))
        .limit(limit)
        .offset(offset);
      const total = await pageTotal(
        db,
        { offset, size: limit, rows: rows.length },
        db
          .select({ id: messageRecipient.id })
          .from(messageRecipient)
          .innerJoin(message, eq(message.id, messageRecipient.messageId))
          .where(cond),
      );
      return { list: rows.map(toRow), ...total, view };
    },
    /** Messages (not recipient rows) in the view, for the export: one row per message. */
    async countMessages(p: Principal, view: View, f: MessageFilter) {
      const q = db.select({ n: sql<number>`count(distinct ${message.id})::int` }).from(message);
      const [r] = await q
        .innerJoin(messageRecipient, eq(messageRecipient.messageId, message.id))
        .where(and(viewSql(p, view), filterSql(f)));
      return Number(r?.n ?? 0);
    },
    async pageMessages(p: Principal, view: View, f: MessageFilter, afterId: number, size: number) {
      const inView = db
        .select({ id: messageRecipient.messageId })
        .from(messageRecipient)
        .where(view === 'inbox' ? viewSql(p, view) : undefined);
      return db
        .select({ id: message.id, msgId: message.id, title: message.title, content: message.content, createdAt: message.createdAt })
        .from(message)
        .where(and(view === 'admin' ? viewSql(p, view) : inArray(message.id, inView), filterSql(f), gt(message.id, afterId)))
        .orderBy(asc(message.id))
        .limit(size);
    },
    /** Mark one of the caller's own rows; false when there is none (another user's or provider's message). */
    async mark(userId: number, msgId: number, change: 'read' | 'delete') {
      const own = and(eq(messageRecipient.messageId, msgId), eq(messageRecipient.userId, userId), eq(messageRecipient.deleted, 0));
      const set = change === 'read' ? { read: 1, readAt: sql`coalesce(${messageRecipient.readAt}, now())` } : { deleted: 1 };
      const rows = await db
        .update(messageRecipient)
        .set(set as never)
        .where(own)
        .returning({ id: messageRecipient.id });
      return rows.length > 0;
    },
    async unread(userIds: number[]) {
      if (userIds.length === 0) return new Map<number, number>();
      const rows = await db
        .select({ userId: messageRecipient.userId, n: count() })
        .from(messageRecipient)
        .where(and(inArray(messageRecipient.userId, userIds), eq(messageRecipient.read, 0), eq(messageRecipient.deleted, 0)))
        .groupBy(messageRecipient.userId);
      return new Map(rows.map((r) => [r.userId, Number(r.n)]));
    },
    async usersByRole(p: Principal, roleId: number) {
      const [r] = await db
        .select({ id: role.id })
        .from(role)
        .where(and(providerScope(p, role.providerId), eq(role.id, roleId)))
        .limit(1);
      if (!r) return undefined;
      return db
        .select({ id: systemUser.id, username: systemUser.username, name: systemUser.name })
        .from(systemUser)
        .where(and(providerScope(p, systemUser.providerId), eq(systemUser.roleId, roleId)))
        .orderBy(asc(systemUser.id));
    },
  };
}

export type MessageRepo = ReturnType<typeof createMessageRepo>;
