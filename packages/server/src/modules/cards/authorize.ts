import type { AuthorizationReason } from '@csms/contract';
import { asc, eq, inArray, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { card, chargeUser, localListVersion, provider, userGroup } from '../../db/schema.js';
import { jsonCell } from '../../db/json-cell.js';

export type AuthorizationStatus = 'Accepted' | 'Blocked' | 'Expired' | 'Invalid' | 'ConcurrentTx';
export type { AuthorizationReason };

export interface IdTagInfo {
  status: AuthorizationStatus;
  /** ISO 8601; the card's expiry. */
  expiryDate?: string;
  /** The charge user's account, shared by all the cards of that user. */
  parentIdTag?: string;
}

export interface AuthorizationResult extends IdTagInfo {
  reason: AuthorizationReason;
  /** The card the idTag names and its charge user, whatever the decision; absent for an unknown idTag. */
  owner?: { cardId: number; chargeUserId: number | null };
  /** Present when the decision was taken on a cached card row for a write that checks it (`checkedWrite`). */
  check?: CardCheck;
}

/**
 * How the write that records a decision taken without a read (a card row held in memory, however old)
 * confirms it in the same statement. The caller writes only where `holds`, selects `row`, and then calls
 * `seen` (it held: the row is cached as read) or `again` (it did not: the decision on the row as read,
 * which the caller writes without a check).
 */
export interface CardCheck {
  /** SQL, true while the card's row is the one decided on: every field the same, its balance (which may have moved) still enough. */
  holds: SQL;
  /** SQL, the card's row as it is now, as JSON (null: no such card any more). */
  row: SQL;
  seen(row: unknown): void;
  again(row: unknown): Promise<AuthorizationResult>;
}

export interface AuthorizationContext {
  now: Date;
  /** Whether this idTag already has a transaction running (the charge-points module knows). */
  hasActiveTransaction(idTag: string): boolean | Promise<boolean>;
  /**
   * Energy the charge user drew this calendar month, in the station's time zone (DESIGN.md §9).
   * Only called when the user's group has a monthly limit.
   */
  usedWhThisMonth(chargeUserId: number): number | Promise<number>;
  /**
   * Which month `usedWhThisMonth` counts (e.g. its start in the station's zone), for the cache; a
   * function is asked only when the month counts (a user with a group limit).
   */
  monthKey?: string | (() => string);
  /**
   * The provider of the charger asking. A card is good at its own provider's chargers and at
   * those of the providers below it; elsewhere it is unknown (Invalid, reason `otherProvider`).
   * Omitted: no provider check (tests of the card rules alone).
   */
  providerId?: number;
  /**
   * The caller records the decision with one statement that can check it (StartTransaction): an
   * Accepted decision may then be taken on a card row the cache holds, even one `forget(idTag)`
   * marked outdated (a session of the card ended: its balance moved), without reading the
   * database; the result then carries `check`, which the caller must honour.
   */
  checkedWrite?: boolean;
  /**
   * The card's row as the caller's own statement has just read it (`cardRowSql`, e.g. beside a
   * StopTransaction's write): decided on as it is, without a read of its own.
   */
  cardAsRead?: { row: unknown };
  /**
   * The decision starts a session (a StartTransaction, a TransactionEvent that starts one or
   * authorizes it afterwards): a master pass starts none (Invalid, reason `masterPass`). Otherwise
   * (Authorize, a stop) a master pass is Accepted whatever its balance, limit or sessions.
   */
  start?: boolean;
}

/** Entries each cache holds at most (the oldest go first). */
const MAX_CACHED = 200_000;

interface CardRow {
  id: number;
  providerId: number;
  physicalId: string;
  status: 'valid' | 'lost' | 'expired';
  expireAt: Date;
  balanceCents: number;
  chargeUserId: number | null;
  account: string | null;
  userStatus: number | null;
  monthlyLimitWh: number | null;
  masterPass: boolean;
}

/** The card (`c`) an idTag names, with its user (`u`) and the user's group (`g`), for statements of others (`CardCheck`). */
const cardFrom = (key: string | Placeholder) => sql`card c left join charge_user u on u.id = c.charge_user_id
  left join user_group g on g.id = u.group_id where lower(c.physical_id) = ${key}`;

/** A `CardRow` as JSON (`rowFromJson` reads it back). */
const cardJson = sql`json_build_object('id', c.id, 'providerId', c.provider_id, 'physicalId', c.physical_id, 'status', c.status,
  'expireAt', c.expire_at, 'balanceCents', c.balance_cents, 'chargeUserId', c.charge_user_id, 'account', u.account,
  'userStatus', u.status, 'monthlyLimitWh', g.monthly_limit_wh, 'masterPass', c.master_pass)`;

/** SQL: the row of the card an idTag names, as JSON (null: none), for a caller's statement (`cardAsRead`). */
export const cardRowSql = (idTag: string) => cardRowOf(idTag.toLowerCase());

/** `cardRowSql` for a statement built once (`prebuilt`): `key` is the lower-cased idTag (a placeholder's value; null: none). */
export const cardRowOf = (key: string | Placeholder) => sql`(select ${cardJson} from ${cardFrom(key)})`;

function rowFromJson(value: unknown): CardRow | undefined {
  if (value === null || value === undefined) return undefined;
  const j = jsonCell<Omit<CardRow, 'expireAt'> & { expireAt: string }>(value);
  return { ...j, expireAt: new Date(j.expireAt) };
}

const columns = {
  id: card.id,
  providerId: card.providerId,
  physicalId: card.physicalId,
  status: card.status,
  expireAt: card.expireAt,
  balanceCents: card.balanceCents,
  chargeUserId: card.chargeUserId,
  account: chargeUser.account,
  userStatus: chargeUser.status,
  monthlyLimitWh: userGroup.monthlyLimitWh,
  masterPass: card.masterPass,
};

/**
 * What the card's own data says, without balance, limit or running transactions: the part that
 * holds offline too, hence the local list's content. A master pass's group is the master pass group
 * (the charger tells it by its `MasterPassGroupId`), not its user's account; and no other card has it.
 */
function staticDecision(c: CardRow, now: Date, masterPassGroupId: string): AuthorizationResult {
  if (c.status === 'lost') return { status: 'Blocked', reason: 'lost' };
  if (c.status === 'expired') return { status: 'Expired', reason: 'expiredByOperator' };
  if (c.expireAt.getTime() <= now.getTime()) return { status: 'Expired', reason: 'expired' };
  if (c.chargeUserId !== null && c.userStatus !== 1) return { status: 'Blocked', reason: 'userDisabled' };
  // An account that reads as the master pass group would make its cards master passes to 2.0.1 chargers
  // (group ids compare without regard to case): such a card carries no group.
  const group = c.masterPass ? masterPassGroupId : c.account?.toLowerCase() === masterPassGroupId.toLowerCase() ? null : c.account;
  return {
    status: 'Accepted',
    reason: 'accepted',
    expiryDate: c.expireAt.toISOString(),
    ...(group !== null ? { parentIdTag: group } : {}),
  };
}

/**
 * Decides Authorize and StartTransaction for an idTag (the card's physical id, matched without
 * regard to case) per DESIGN.md §9, checked in this order:
 *   unknown → Invalid; lost → Blocked; marked expired or past `expireAt` → Expired; charge user
 *   disabled → Blocked; already charging → ConcurrentTx; card balance ≤ 0 or below
 *   `minBalanceCents` → Blocked 'insufficientBalance'; the group's monthly kWh limit reached →
 *   Blocked 'groupLimit'; else Accepted with the card's expiry and, when the card belongs to a
 *   charge user, that user's account as parentIdTag.
 * A master pass (OCPP 2.0.1 C16) is decided apart after the first four: a start is Invalid (reason
 * `masterPass`); anything else (Authorize, a stop) Accepted with the master pass group as
 * parentIdTag, whatever its balance, limit or sessions (it charges nothing).
 */
export function createAuthorizationService({
  db,
  minBalanceCents,
  masterPassGroupId = 'MasterPass',
  cacheMs = 0,
}: {
  db: Db;
  minBalanceCents: number;
  /** `CSMS_OCPP_MASTER_PASS_GROUP_ID`. */
  masterPassGroupId?: string;
  /**
   * How long a card's row (with its user and group) and a user's energy this month are kept in
   * memory, so that swipes and starts read no database (DESIGN.md §6). Changes made through this
   * node are seen at once (`forget`); changes made elsewhere (another node, SQL) within this time.
   * A StartTransaction may decide on a cached row of any age, even one `forget(idTag)` kept as
   * outdated: its own statement checks the row (`checkedWrite`). 0: no cache.
   */
  cacheMs?: number;
}) {
  const base = () =>
    db
      .select(columns)
      .from(card)
      .leftJoin(chargeUser, eq(chargeUser.id, card.chargeUserId))
      .leftJoin(userGroup, eq(userGroup.id, chargeUser.groupId));

  /**
   * A provider and its ancestors (cached briefly: the tree rarely changes, and this runs on every swipe).
   * Swipes that miss at once share one read.
   */
  const lineageCache = new Map<number, { at: number; ids: Promise<Set<number>> }>();
  function lineage(providerId: number): Promise<Set<number>> {
    const hit = lineageCache.get(providerId);
    if (hit && Date.now() - hit.at < 60_000) return hit.ids;
    const ids = (async () => {
      const found = new Set<number>();
      for (let id: number | null = providerId; id !== null && !found.has(id);) {
        found.add(id);
        const [row] = await db.select({ parentId: provider.parentId }).from(provider).where(eq(provider.id, id));
        id = row?.parentId ?? null;
      }
      return found;
    })();
    const entry = { at: Date.now(), ids };
    lineageCache.set(providerId, entry);
    // A failed read is not kept.
    ids.catch(() => {
      if (lineageCache.get(providerId) === entry) lineageCache.delete(providerId);
    });
    return ids;
  }

  /**
   * Cards by lower-cased idTag (unknown ones too), and energy this month by charge user. An entry
   * `forget(idTag)` marked `outdated` answers no swipe; it is only the guess a checked write starts from.
   */
  type CardEntry = { at: number; row: CardRow | undefined; outdated?: true };
  const cards = new Map<string, CardEntry>();
  const usedWh = new Map<number, { at: number; key: string; wh: number }>();
  /** Bumped by `forget()`: a read that began before it must not be cached after it. */
  let generation = 0;

  /** Caches a row read at `at`, unless this node changed the card (a forget) since the read began (`entry`, `gen`). */
  function remember(key: string, row: CardRow | undefined, at: number, entry: CardEntry | undefined, gen: number): void {
    if (cacheMs <= 0 || gen !== generation || cards.get(key) !== entry) return;
    if (!entry && cards.size >= MAX_CACHED) cards.delete(cards.keys().next().value!);
    cards.set(key, { at, row });
  }

  async function cardOf(idTag: string): Promise<CardRow | undefined> {
    const key = idTag.toLowerCase();
    const hit = cards.get(key);
    if (hit && !hit.outdated && Date.now() - hit.at < cacheMs) return hit.row;
    const at = Date.now();
    const gen = generation;
    const [row] = await base().where(eq(sql`lower(${card.physicalId})`, key));
    remember(key, row, at, hit, gen);
    return row;
  }

  async function usedWhThisMonth(userId: number, ctx: AuthorizationContext): Promise<number> {
    // The month is the station's, so the key says which one was counted.
    const key = (typeof ctx.monthKey === 'function' ? ctx.monthKey() : ctx.monthKey) ?? '';
    const hit = usedWh.get(userId);
    if (hit && hit.key === key && Date.now() - hit.at < cacheMs) return hit.wh;
    const at = Date.now();
    const wh = await ctx.usedWhThisMonth(userId);
    if (cacheMs > 0) {
      if (usedWh.size >= MAX_CACHED) usedWh.delete(usedWh.keys().next().value!);
      usedWh.set(userId, { at, key, wh });
    }
    return wh;
  }

  async function decide(c: CardRow | undefined, idTag: string, ctx: AuthorizationContext): Promise<AuthorizationResult> {
    if (!c) return { status: 'Invalid', reason: 'unknown' };
    const owner = { cardId: c.id, chargeUserId: c.chargeUserId };
    if (ctx.providerId !== undefined && !(await lineage(ctx.providerId)).has(c.providerId))
      return { status: 'Invalid', reason: 'otherProvider', owner };
    const decision = staticDecision(c, ctx.now, masterPassGroupId);
    if (decision.status !== 'Accepted') return { ...decision, owner };
    if (c.masterPass) return ctx.start ? { status: 'Invalid', reason: 'masterPass', owner } : { ...decision, owner };
    if (await ctx.hasActiveTransaction(idTag)) return { status: 'ConcurrentTx', reason: 'concurrentTx', owner };
    if (c.balanceCents <= 0 || c.balanceCents < minBalanceCents) return { status: 'Blocked', reason: 'insufficientBalance', owner };
    if (c.chargeUserId !== null && c.monthlyLimitWh !== null && (await usedWhThisMonth(c.chargeUserId, ctx)) >= c.monthlyLimitWh) {
      return { status: 'Blocked', reason: 'groupLimit', owner };
    }
    return { ...decision, owner };
  }

  /**
   * The check of a decision taken on `guess`: the card row must still hold every value the decision
   * read (expiry to the millisecond, as cached) and a balance that passes. A user's monthly energy is
   * not in the row, so a card with a group limit is never guessed.
   */
  function checkOf(idTag: string, guess: CardRow, ctx: AuthorizationContext, entry: CardEntry): CardCheck {
    const key = idTag.toLowerCase();
    const at = Date.now();
    const gen = generation;
    const same = sql`c.id = ${guess.id} and c.provider_id = ${guess.providerId} and c.physical_id = ${guess.physicalId}
      and c.status = ${guess.status} and date_trunc('milliseconds', c.expire_at) = ${guess.expireAt.toISOString()}::timestamptz
      and c.charge_user_id is not distinct from ${guess.chargeUserId}::int and u.account is not distinct from ${guess.account}::text
      and u.status is not distinct from ${guess.userStatus}::int and g.monthly_limit_wh is null and c.master_pass = ${guess.masterPass}
      and c.balance_cents > 0 and c.balance_cents >= ${minBalanceCents}::int`;
    return {
      holds: sql`exists (select 1 from ${cardFrom(key)} and ${same})`,
      row: cardRowSql(idTag),
      seen: (row) => remember(key, rowFromJson(row), at, entry, gen),
      again: async (row) => {
        const c = rowFromJson(row);
        remember(key, c, at, entry, gen);
        return decide(c, idTag, ctx);
      },
    };
  }

  return {
    async authorize(idTag: string, ctx: AuthorizationContext): Promise<AuthorizationResult> {
      if (ctx.cardAsRead) return decide(rowFromJson(ctx.cardAsRead.row), idTag, ctx);
      const entry = cards.get(idTag.toLowerCase());
      if (ctx.checkedWrite && entry?.row && entry.row.monthlyLimitWh === null) {
        // Taken on the cached row, however old: the write checks it against the card as it is then.
        const guessed = await decide(entry.row, idTag, ctx);
        if (guessed.status === 'Accepted') return { ...guessed, check: checkOf(idTag, entry.row, ctx, entry) };
      }
      return decide(await cardOf(idTag), idTag, ctx);
    },

    /**
     * Drops what the cache holds for one idTag (its card, and its user's energy this month), or
     * everything. Called when this node changes them: a session ends and is settled, an operator
     * edits cards, users, groups or balances.
     */
    forget(idTag?: string): void {
      if (idTag === undefined) {
        generation += 1;
        cards.clear();
        usedWh.clear();
        return;
      }
      const key = idTag.toLowerCase();
      const hit = cards.get(key);
      const userId = hit?.row?.chargeUserId;
      // Kept, outdated, as the guess of the next checked write (the card's next start); a swipe reads it again.
      if (hit?.row) cards.set(key, { at: hit.at, row: hit.row, outdated: true });
      else cards.delete(key);
      if (userId !== undefined && userId !== null) usedWh.delete(userId);
    },

    /**
     * The local authorization list (SendLocalList) for the cards good at one provider's chargers (its own and its parents'), or every card.
     * Entries carry what holds offline: lost → Blocked, expired → Expired, disabled user →
     * Blocked, balance at or below zero → Blocked, else Accepted with expiry and parent id tag. The
     * minimum balance and group limit need the central system and are not in the list: a charger that starts offline on the list is told the
     * decision with the late StartTransaction, and a start that is then not Accepted is billed to nobody
     * (transactions.ts `owner`, README "Refused idTags are billed to nobody").
     *
     * `version` is the counter in `local_list_version`, bumped by database triggers on every
     * card insert or delete, on every change of a card's physical id, status, expiry, owner
     * or provider, on a balance crossing zero, and of a charge user's account or status: it only grows, and grows whenever
     * the content may have changed. It is global, so one provider's list may see a new version
     * without a change of its own (harmless: a full update resends the same entries). It is read
     * before the entries, so a concurrent change can only make the version older than the
     * content, never newer. Expiry by date needs no bump: entries carry `expiryDate`.
     *
     * `masterPasses: false` leaves master passes out: the list of a charger that knows no master pass
     * (OCPP 1.6), which would take the entry for a card that may start offline.
     */
    async localList(providerId?: number, now: Date = new Date(), { masterPasses = true }: { masterPasses?: boolean } = {}) {
      const [v] = await db.select({ version: localListVersion.version }).from(localListVersion).where(eq(localListVersion.id, 1));
      const q = base();
      const rows = await (providerId === undefined ? q : q.where(inArray(card.providerId, [...(await lineage(providerId))]))).orderBy(
        asc(card.id),
      );
      return {
        version: v?.version ?? 0,
        entries: (masterPasses ? rows : rows.filter((c) => !c.masterPass)).map((c) => {
          const { reason: _reason, ...idTagInfo } = staticDecision(c, now, masterPassGroupId);
          // A card with nothing left cannot start offline either (issue 13: balance reaching zero reaches the
          // lists); a master pass starts nothing and stops offline too.
          if (idTagInfo.status === 'Accepted' && c.balanceCents <= 0 && !c.masterPass)
            return { idTag: c.physicalId, idTagInfo: { status: 'Blocked' } as IdTagInfo };
          return { idTag: c.physicalId, idTagInfo: idTagInfo as IdTagInfo };
        }),
      };
    },
  };
}

export type AuthorizationService = ReturnType<typeof createAuthorizationService>;
