import type { monitorApi } from '@csms/contract';
import type { Handlers } from '../../http/mount.js';
import type { MonitorRepo } from './monitor.repo.js';

/** Real-time monitoring reads; the console keeps them live from the event stream between reads. */
export function monitorRoutes({ repo }: { repo: MonitorRepo }): Handlers<typeof monitorApi> {
  return {
    async charging({ query, ctx }) {
      const { page, limit, ...filter } = query;
      return repo.charging(ctx.principal, filter, page, limit);
    },
    async stations({ query, ctx }) {
      return repo.stations(ctx.principal, { stationName: query.stationName }, query.page, query.limit);
    },
    async points({ query, ctx }) {
      const { page, limit, ...filter } = query;
      return repo.points(ctx.principal, filter, page, limit);
    },
    async counts({ query, ctx }) {
      return repo.counts(ctx.principal, query.stationId);
    },
    async faults({ query, ctx }) {
      return repo.faults(ctx.principal, query.limit);
    },
    async powerTrend({ query, ctx }) {
      return repo.powerTrend(ctx.principal, query.bucketMinutes);
    },
  };
}
