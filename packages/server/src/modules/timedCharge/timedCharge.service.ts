import { instantOf, TIMED_CHARGE_GRACE_MINUTES, translate, wallClock, type Lang, type TimedChargeReason } from '@csms/contract';
import type { Db } from '../../db/client.js';
import type { EventHub } from '../../lib/events.js';
import type { Jobs } from '../../lib/jobs.js';
import { validCardOf } from '../cards/valid-card.js';
import type { MessageRepo } from '../message/message.repo.js';
import type { Answer, CommandSender } from '../pointAction/pointAction.service.js';
import type { TimedChargeRepo, TimedChargeRow } from './timedCharge.repo.js';

const nextDay = (day: string) => {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
};

/**
 * The next start of a timed charge at or after `after`: the first day of its period, not before
 * `notBefore` (the day after the last one run), whose start time on the station's wall clock has
 * not passed. None when the period has no such day left.
 */
export function nextStart(
  t: Pick<TimedChargeRow, 'validFrom' | 'validTo' | 'startTime' | 'lastRunDay'>,
  timeZone: string,
  after: Date,
): { day: string; at: Date } | undefined {
  let day = wallClock(after, timeZone).slice(0, 10);
  if (day < t.validFrom) day = t.validFrom;
  if (t.lastRunDay && day <= t.lastRunDay) day = nextDay(t.lastRunDay);
  for (let i = 0; i < 3 && day <= t.validTo; i++, day = nextDay(day)) {
    const at = instantOf(`${day} ${t.startTime}`, timeZone)!;
    if (at.getTime() >= after.getTime()) return { day, at };
  }
  return undefined;
}

/** A RemoteStartTransaction answer as a day's outcome. */
function outcome(a: Answer): { status: 'started' | 'failed'; reason: TimedChargeReason | null } {
  if (a.status === 'accepted') return { status: 'started', reason: null };
  if (a.status === 'offline') return { status: 'failed', reason: 'offline' };
  if (a.chargerStatus === 'Rejected') return { status: 'failed', reason: 'rejected' };
  if (a.messageKey === 'errors.pointAction.timeout') return { status: 'failed', reason: 'timeout' };
  return { status: 'failed', reason: 'error' };
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Timed charging (issue 15 item 3). Each timed charge has one start in the job queue at a time, at
 * `next_run_at`; the job runs `run`, which claims the day per connector (a job that runs twice
 * starts nothing twice), sends RemoteStartTransaction with the user's valid card, stores each
 * connector's outcome, tells the creator of a failed day by system message, and queues the next day.
 */
export function createTimedCharging({
  db,
  repo,
  jobs,
  ask,
  messages,
  events,
  now = () => new Date(),
}: {
  db: Db;
  repo: TimedChargeRepo;
  jobs: Jobs;
  ask: CommandSender;
  messages: Pick<MessageRepo, 'insert' | 'unread'>;
  events: EventHub;
  now?: () => Date;
}) {
  const key = (id: number, at: Date) => `${id}@${at.getTime()}`;
  const queue = (id: number, at: Date) => jobs.send('timedCharge', { id, at: at.toISOString() }, { at, key: key(id, at) });

  /** The row's next start from `after`, stored, and (once committed, by the caller) queued. */
  async function plan(t: TimedChargeRow, timeZone: string, after: Date) {
    const next = nextStart(t, timeZone, after);
    const status = next ? t.status : t.status === 'cancelled' ? 'cancelled' : 'finished';
    const row = await repo.update(t.id, { nextRunAt: next?.at ?? null, status });
    return { row: row!, next };
  }

  async function tell(
    t: TimedChargeRow,
    info: { serialNumber: string; account: string; timeZone: string },
    day: string,
    failures: { connectorNo: number; reason: TimedChargeReason }[],
  ) {
    if (t.createdBy === null || failures.length === 0) return;
    const lang: Lang = t.lang;
    const content = failures
      .map((f) =>
        translate(lang, 'errors.timedCharge.failedContent', {
          id: t.id,
          serialNumber: info.serialNumber,
          connector: f.connectorNo,
          account: info.account,
          day,
          time: t.startTime,
          reason: translate(lang, `enums.timedChargeReason.${f.reason}`),
        }),
      )
      .map((line) => `<p>${escapeHtml(line)}</p>`)
      .join('');
    const title = translate(lang, 'errors.timedCharge.failedTitle');
    const msgId = await messages.insert({ providerId: t.providerId, title, content, isSend: false, createUserId: null }, [t.createdBy]);
    const unread = (await messages.unread([t.createdBy])).get(t.createdBy) ?? 0;
    events.publish({ type: 'message.new', userId: t.createdBy, payload: { msgId, title, from: '', unread } });
  }

  return {
    nextStart,
    /** After an add or an edit: the next start stored; queued once the caller's change is committed. */
    async planned(t: TimedChargeRow): Promise<{ row: TimedChargeRow; queue: () => Promise<void> }> {
      const { row, next } = await plan(t, await repo.timeZone(t.stationId), now());
      return { row, queue: async () => (next ? queue(t.id, next.at) : undefined) };
    },
    /** Drops a queued start (an edit moved it, or the timed charge was cancelled); a start already running finishes. */
    unqueue: (id: number, at: Date) => jobs.cancel('timedCharge', key(id, at)),
    /** The queued start of one timed charge: `at` is the start it was queued for (an edit since makes it stale). */
    async run(id: number, at: Date): Promise<'ran' | 'stale'> {
      const found = await repo.forRun(id);
      if (!found) return 'stale';
      const { t, serialNumber, pointProviderId, pointStationId, timeZone, account } = found;
      if (!['waiting', 'started', 'failed'].includes(t.status) || t.nextRunAt?.getTime() !== at.getTime()) return 'stale';
      const day = wallClock(at, timeZone).slice(0, 10);
      const claimed = await repo.claim(t.id, day, t.connectors);
      // A point moved to another station (or provider) since is no longer this timed charge's to start.
      const moved = pointStationId !== t.stationId || pointProviderId !== t.providerId;
      const card = claimed.length && !moved ? await validCardOf(db, t.chargeUserId, pointProviderId, now()) : undefined;
      const failures: { connectorNo: number; reason: TimedChargeReason }[] = [];
      // One connector after the other: a charger answers one CALL at a time.
      const missed = now().getTime() - at.getTime() > TIMED_CHARGE_GRACE_MINUTES * 60_000;
      for (const connectorNo of claimed) {
        const refused = moved ? 'moved' : missed ? 'missed' : undefined;
        if (refused) {
          await repo.ran(t.id, day, connectorNo, { status: 'failed', reason: refused, chargerStatus: null, cardId: null });
          failures.push({ connectorNo, reason: refused });
          continue;
        }
        if (!card) {
          await repo.ran(t.id, day, connectorNo, { status: 'failed', reason: 'noCard', chargerStatus: null, cardId: null });
          failures.push({ connectorNo, reason: 'noCard' });
          continue;
        }
        const a = await ask(serialNumber, 'RemoteStartTransaction', { connectorId: connectorNo, idTag: card.idTag });
        const o = outcome(a);
        await repo.ran(t.id, day, connectorNo, { ...o, chargerStatus: a.chargerStatus, cardId: card.id });
        if (o.reason) failures.push({ connectorNo, reason: o.reason });
      }
      const ranDay = {
        ...t,
        lastRunDay: day,
        lastReason: failures[0]?.reason ?? null,
        status: failures.length ? ('failed' as const) : ('started' as const),
      };
      await repo.update(t.id, { lastRunDay: day, lastReason: ranDay.lastReason, status: ranDay.status });
      const { next } = await plan(ranDay, timeZone, new Date(Math.max(now().getTime(), at.getTime() + 1)));
      if (next) await queue(t.id, next.at);
      await tell(t, { serialNumber, account, timeZone }, day, failures);
      events.publish({ type: 'timedCharge.ran', providerId: t.providerId, stationId: t.stationId, payload: { id: t.id, day } });
      return 'ran';
    },
    /** At start-up: every timed charge's next start is in the queue (a crash between a change and its job loses nothing). */
    async queueAll(): Promise<void> {
      for (const t of await repo.scheduled()) if (t.nextRunAt) await queue(t.id, t.nextRunAt);
    },
  };
}

export type TimedCharging = ReturnType<typeof createTimedCharging>;
