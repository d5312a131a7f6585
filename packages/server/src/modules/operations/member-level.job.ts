import { dayAndMonthStart } from '@csms/contract';
import type { Jobs } from '../../lib/jobs.js';
import type { Membership } from './membership.js';

const HOUR_MS = 3_600_000;

/**
 * The nightly recompute of member levels (issue 19 item 1, DESIGN.md §10) on the durable job queue:
 * one job per night at 02:00 in CSMS_TIME_ZONE, keyed by that night, so several nodes queue it once
 * and one of them runs it; each run queues the next night's. Levels may fall here: a level whose
 * validity ended and whose threshold is no longer met drops to the one the user now meets.
 */
export function createMemberLevelJob({
  membership,
  jobs,
  timeZone,
  log,
}: {
  membership: Pick<Membership, 'recomputeAll'>;
  jobs: Pick<Jobs, 'send'>;
  timeZone: string;
  log: { info: (obj: object, msg: string) => void };
}) {
  /** The next 02:00 (local) after `now`. */
  function nextNight(now: Date): Date {
    const today = dayAndMonthStart(now, timeZone).day.getTime();
    const tonight = today + 2 * HOUR_MS;
    return new Date(
      tonight > now.getTime() ? tonight : dayAndMonthStart(new Date(today + 26 * HOUR_MS), timeZone).day.getTime() + 2 * HOUR_MS,
    );
  }
  async function queue(at: Date) {
    await jobs.send('memberLevels', { night: at.toISOString() }, { at, key: `night:${at.toISOString()}` });
  }
  return {
    /** At start-up: the next night's run (added once whatever the number of nodes). */
    start: () => queue(nextNight(new Date())),
    async run(job: { night: string }) {
      const users = await membership.recomputeAll('all');
      log.info({ users, night: job.night }, 'member levels recomputed');
      await queue(nextNight(new Date(Math.max(Date.now(), new Date(job.night).getTime() + HOUR_MS))));
    },
  };
}
