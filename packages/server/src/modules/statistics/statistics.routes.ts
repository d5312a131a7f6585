import type { statisticsApi } from '@csms/contract';
import type { Config } from '../../config.js';
import type { Handlers } from '../../http/mount.js';
import type { StatisticsRepo } from './statistics.repo.js';

interface Deps {
  repo: StatisticsRepo;
  config: Pick<Config, 'timeZone'>;
  /** The clock; tests pin it. */
  now?: () => Date;
}

/** Dashboard statistics in the server's time zone (`CSMS_TIME_ZONE`), scoped to the caller. */
export function statisticsRoutes({ repo, config, now = () => new Date() }: Deps): Handlers<typeof statisticsApi> {
  return {
    async today({ ctx }) {
      return repo.today(ctx.principal, now(), config.timeZone);
    },
    async revenueTrend({ query, ctx }) {
      return repo.revenueTrend(ctx.principal, query.period, now(), config.timeZone);
    },
  };
}
