import { Code, dayAndMonthStart, isTimeZone, translate, type chargeUserApi } from '@csms/contract';
import { eq } from 'drizzle-orm';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { chargeUser } from '../../db/schema.js';
import type { Principal } from '../../http/context.js';
import { AppError, badField, conflict, notFound } from '../../http/errors.js';
import type { Handlers } from '../../http/mount.js';
import type { EventHub } from '../../lib/events.js';
import type { ExportColumns } from '../../lib/export-config.js';
import type { DayZone } from '../../lib/day-zone.js';
import { keysetBatches, streamExport, type ExportColumn } from '../../lib/export.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../lib/scope.js';
import { toChargeUserDto, type ChargeUserRepo, type ChargeUserRow } from './charge-user.repo.js';
import { blank, centsText, centsValue, type Refs } from './common.js';
import { consoleRef, type Ledger } from './ledger.js';

interface Deps {
  db: Db;
  repo: ChargeUserRepo;
  refs: Refs;
  ledger: Ledger;
  events: EventHub;
  columns: ExportColumns;
  config: Pick<Config, 'exportMaxRows'>;
  dayZone: DayZone;
  onRegistered?: ((chargeUserId: number) => Promise<void>) | undefined;
}

export function chargeUserRoutes({
  db,
  repo,
  refs,
  ledger,
  events,
  columns,
  config,
  dayZone,
  onRegistered,
}: Deps): Handlers<typeof chargeUserApi> {
  const mustGet = async (p: Principal, id: number) => (await repo.get(p, id)) ?? Promise.reject(notFound());
  const reread = async (p: Principal, id: number) => toChargeUserDto((await repo.get(p, id))!);
  const accountTaken = (account: string) => conflict('errors.chargeUser.accountTaken', { account }, 'account');

  /** A group must be one the caller sees (else 404) and of the user's provider. */
  async function checkGroup(p: Principal, groupId: number | null | undefined, providerId: number) {
    if (!groupId) return;
    const g = await refs.group(p, groupId);
    if (!g) throw notFound();
    if (g.providerId !== providerId) throw badField('groupId', 'errors.chargeUser.groupMismatch');
  }

  return {
    async list({ query, ctx }) {
      const { page, limit, ...f } = query;
      return repo.list(ctx.principal, await dayZone.bound(ctx.principal, f), page, limit);
    },
    async get({ query, ctx }) {
      return toChargeUserDto(await mustGet(ctx.principal, query.id));
    },
    async add({ body, ctx, audit }) {
      const p = ctx.principal;
      audit.operand = `chargeUser:${body.account}`;
      if (!(await refs.provider(p, body.providerId))) throw notFound();
      await checkGroup(p, body.groupId, body.providerId);
      if (await refs.accountTaken(body.account)) throw accountTaken(body.account);
      try {
        const id = await repo.insert({
          providerId: body.providerId,
          account: body.account,
          phone: blank(body.phone),
          email: blank(body.email),
          userType: body.userType,
          groupId: body.groupId ?? null,
          memberLevel: body.memberLevel ?? 0,
          status: body.status ?? 1,
        });
        await onRegistered?.(id);
        return reread(p, id);
      } catch (err) {
        throw isUniqueViolation(err) ? accountTaken(body.account) : err;
      }
    },
    async edit({ body, ctx, audit }) {
      const p = ctx.principal;
      const current = await mustGet(p, body.id);
      audit.operand = `chargeUser:${current.account}`;
      await checkGroup(p, body.groupId, current.providerId);
      if (await refs.accountTaken(body.account, body.id)) throw accountTaken(body.account);
      try {
        await repo.update(body.id, {
          account: body.account,
          phone: blank(body.phone),
          email: blank(body.email),
          userType: body.userType,
          groupId: body.groupId ?? null,
          memberLevel: body.memberLevel ?? current.memberLevel,
        });
      } catch (err) {
        throw isUniqueViolation(err) ? accountTaken(body.account) : err;
      }
      return reread(p, body.id);
    },
    async status({ body, ctx, audit }) {
      const p = ctx.principal;
      const current = await mustGet(p, body.id);
      audit.operand = `chargeUser:${current.account}`;
      await repo.update(body.id, { status: body.status });
      return reread(p, body.id);
    },
    async remove({ body, ctx, audit }) {
      const found = await repo.visible(ctx.principal, body.ids);
      if (found.length !== new Set(body.ids).size) throw notFound();
      audit.operand = `chargeUser:${found.map((u) => u.account).join(',')}`.slice(0, 255);
      for (const u of found) if (await repo.inUse(u.id)) throw conflict('errors.chargeUser.inUse', { account: u.account });
      try {
        return { removed: await repo.remove(body.ids) };
      } catch (err) {
        // Something came to refer to the user between the check and the delete.
        if (isForeignKeyViolation(err)) throw conflict('errors.chargeUser.inUse', { account: found[0]!.account });
        throw err;
      }
    },
    async recharge({ body, ctx, audit }) {
      const p = ctx.principal;
      const current = await mustGet(p, body.id);
      audit.operand = `chargeUser:${current.account}`;
      await ledger.post({
        account: { kind: 'mobile', chargeUserId: body.id },
        tradeType: 'recharge',
        amountCents: body.amountCents,
        operatorUserId: p.userId,
        source: 'console',
        thirdPartyTxnId: blank(body.thirdPartyTxnId),
        transactionRef: consoleRef(body.requestId),
      });
      return reread(p, body.id);
    },
    async refund({ body, ctx, audit }) {
      const p = ctx.principal;
      const current = await mustGet(p, body.id);
      audit.operand = `chargeUser:${current.account}`;
      // Check and post under the account's row lock, so two refunds cannot both pass the check.
      await db.transaction(async (tx) => {
        const [row] = await tx
          .select({ balance: chargeUser.mobileBalanceCents })
          .from(chargeUser)
          .where(eq(chargeUser.id, body.id))
          .for('update');
        const account = { kind: 'mobile', chargeUserId: body.id } as const;
        // Sent again after an answer that never came: answered as the first was, before the balance check.
        if (await ledger.posted(account, 'refund', consoleRef(body.requestId), tx)) return;
        const balance = row?.balance ?? 0;
        if (body.amountCents > balance) {
          throw new AppError(Code.CONFLICT, 'errors.chargeUser.refundTooLarge', { balance: centsText(balance) }, 'amountCents');
        }
        await ledger.post(
          {
            account: { kind: 'mobile', chargeUserId: body.id },
            tradeType: 'refund',
            amountCents: -body.amountCents,
            operatorUserId: p.userId,
            source: 'console',
            thirdPartyTxnId: blank(body.thirdPartyTxnId),
            transactionRef: consoleRef(body.requestId),
          },
          tx,
        );
      });
      return reread(p, body.id);
    },
    async export({ body, ctx, reply }) {
      const p = ctx.principal;
      const { format, exportId, ...days } = body;
      const filter = await dayZone.bound(p, days);
      const t = (key: string) => translate(ctx.lang, key);
      const defaults: ExportColumn<ChargeUserRow & Record<string, unknown>>[] = [
        { key: 'id' },
        { key: 'account' },
        { key: 'phone' },
        { key: 'email' },
        { key: 'userType', value: (r) => t(`enums.chargeUserType.${r.userType}`) },
        { key: 'status', value: (r) => t(`enums.userStatus.${r.status}`) },
        { key: 'groupName' },
        { key: 'memberLevelName' },
        { key: 'cardCount', value: (r) => Number(r.cardCount) },
        { key: 'cardBalanceCents', value: (r) => centsValue(Number(r.cardBalanceCents)) },
        { key: 'mobileBalanceCents', value: (r) => centsValue(r.mobileBalanceCents) },
        { key: 'providerName' },
        { key: 'registerTime', value: (r) => r.createdAt.toISOString() },
      ];
      await streamExport(reply, {
        lang: ctx.lang,
        resource: 'chargeUser',
        fileBase: 'chargeUser',
        format,
        columns: await columns.columnsFor('chargeUser', defaults, ctx),
        total: await repo.count(p, filter),
        batches: keysetBatches((after, size) => repo.page(p, filter, after, size)) as AsyncIterable<
          (ChargeUserRow & Record<string, unknown>)[]
        >,
        maxRows: config.exportMaxRows,
        progress: { hub: events, userId: p.userId, exportId },
      });
    },
    async options({ query, ctx }) {
      return repo.options(ctx.principal, query.keyword, query.providerId);
    },
    async newMembers({ query, ctx }) {
      const tz = query.tz || 'UTC';
      if (!isTimeZone(tz))
        throw new AppError(Code.BAD_REQUEST, 'validation.invalidFormat', { field: translate(ctx.lang, 'fields.chargeUser.tz') }, 'tz');
      const { day, month } = dayAndMonthStart(new Date(), tz);
      const [today, thisMonth] = await Promise.all([repo.registeredSince(ctx.principal, day), repo.registeredSince(ctx.principal, month)]);
      return { today, month: thisMonth };
    },
  };
}
