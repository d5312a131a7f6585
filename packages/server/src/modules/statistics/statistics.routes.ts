import { BOARD_STATIONS, type statisticsApi } from '@csms/contract';
import type { Config } from '../../config.js';
import type { Handlers } from '../../http/mount.js';
import type { MonitorRepo } from '../monitor/monitor.repo.js';
import type { StatisticsRepo } from './statistics.repo.js';

interface Deps {
  repo: StatisticsRepo;
  monitor: Pick<MonitorRepo, 'board'>;
  config: Pick<Config, 'timeZone'>;
  /** The clock; tests pin it. */
  now?: () => Date;
}

/** Dashboard statistics in the server's time zone (`CSMS_TIME_ZONE`), scoped to the caller. */
export function statisticsRoutes({ repo, monitor, config, now = () => new Date() }: Deps): Handlers<typeof statisticsApi> {
  return {
    async today({ ctx }) {
      return repo.today(ctx.principal, now(), config.timeZone);
    },
    async revenueTrend({ query, ctx }) {
      return repo.revenueTrend(ctx.principal, query.period, now(), config.timeZone);
    },
    async assets({ ctx }) {
      return repo.assets(ctx.principal);
    },
    async stationBoard({ ctx }) {
      const at = now();
      const [board, today, date] = await Promise.all([
        monitor.board(ctx.principal, BOARD_STATIONS),
        repo.todayByStation(ctx.principal, at, config.timeZone),
        repo.localDate(at, config.timeZone),
      ]);
      const none = { chargeCount: 0, energyWh: 0, incomeCents: 0 };
      return {
        date,
        timeZone: config.timeZone,
        stations: board.stations.map((s) => ({ ...s, ...(today.get(s.stationId) ?? none) })),
        truncated: board.truncated,
      };
    },
  };
}
