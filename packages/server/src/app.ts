import fs from 'node:fs';
import path from 'node:path';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import { allEndpoints, api, translate, type EndpointDef } from '@csms/contract';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { createInProcessBus, type ChargerBus } from './bus/bus.js';
import { clusterEvents, everywhere } from './bus/fanout.js';
import { connectNats, type Cluster } from './bus/nats.js';
import { createOcpp, type Ocpp } from './ocpp/ocpp.js';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import { createUnitOfWork } from './db/unit-of-work.js';
import { createAuditLog } from './http/audit.js';
import { BODY_LIMIT_MB, frameworkErrors, installErrorReplies, MULTIPART_LIMIT_MB } from './http/errors-reply.js';
import { securityHeaders } from './http/security-headers.js';
import { API_PREFIX, langOf, mountAll, type MountDeps } from './http/mount.js';
import { buildOpenApi } from './http/openapi.js';
import { createSessionStore } from './http/sessions.js';
import { createEventHub, type EventHub } from './lib/events.js';
import { createOutboundGuard } from './lib/outbound.js';
import { createClientErrorRepo } from './modules/clientError/client-error.repo.js';
import { clientErrorRoutes } from './modules/clientError/client-error.routes.js';
import { createStoredImages } from './lib/stored-images.js';
import { createPasswordRule } from './lib/password-rule.js';
import { createAttemptLimiter } from './modules/auth/attempts.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { createCaptchaService } from './modules/auth/captcha.js';
import { createWindowLimiter } from './modules/auth/window-limit.js';
import { maskLocation } from './lib/secret-location.js';
import { errForLog } from './lib/error-log.js';
import { preloadCaptchaDrawing } from './modules/auth/captcha-image.js';
import { consoleAssets } from './http/console-assets.js';
import { commonRoutes } from './modules/common/common.routes.js';
import { createDayZone } from './lib/day-zone.js';
import { createExportColumns } from './lib/export-config.js';
import { exportConfigRoutes } from './modules/exportConfig/exportConfig.routes.js';
import { createJobs, type Jobs } from './lib/jobs.js';
import { createPgliteMaintenance } from './db/pglite-maintenance.js';
import { createMessageRepo } from './modules/message/message.repo.js';
import { messageRoutes } from './modules/message/message.routes.js';
import { createMonitorRepo } from './modules/monitor/monitor.repo.js';
import { monitorRoutes } from './modules/monitor/monitor.routes.js';
import { createOcppLogRepo } from './modules/ocppLog/ocppLog.repo.js';
import { ocppLogRoutes } from './modules/ocppLog/ocppLog.routes.js';
import { createPointActionRepo } from './modules/pointAction/pointAction.repo.js';
import { pointActionRoutes } from './modules/pointAction/pointAction.routes.js';
import { createChargingProfileRepo } from './modules/chargingProfile/chargingProfile.repo.js';
import { chargingProfileRoutes } from './modules/chargingProfile/chargingProfile.routes.js';
import { createProfileSender } from './modules/chargingProfile/chargingProfile.service.js';
import { createBalancer, type Balancer } from './modules/localController/balancer.js';
import { createLocalControllerRepo } from './modules/localController/localController.repo.js';
import { createDiagnosticsRepo } from './modules/diagnostics/diagnostics.repo.js';
import { createDiagnosticsReceiver, DIAGNOSTICS_MAX_BYTES, diagnosticsRoutes } from './modules/diagnostics/diagnostics.routes.js';
import { createFirmwareRepo } from './modules/firmware/firmware.repo.js';
import { trustFunction } from './lib/trust-proxy.js';
import { createFtpServer, type FtpServer } from './lib/ftp.js';
import { firmwareFiles, firmwareUpgradeRoutes, firmwareVersionRoutes } from './modules/firmware/firmware.routes.js';
import { createFirmwareUpgrades, startFirmwareSweep } from './modules/firmware/firmware.service.js';
import { createReservationRepo } from './modules/reservation/reservation.repo.js';
import { reservationRoutes } from './modules/reservation/reservation.routes.js';
import { createWorkOrderRepo } from './modules/workOrder/workOrder.repo.js';
import { ownOnly, workOrderRoutes } from './modules/workOrder/workOrder.routes.js';
import { createComponentRepo } from './modules/workOrder/component.repo.js';
import { componentRoutes } from './modules/workOrder/component.routes.js';
import { createApplyLimiter } from './modules/apply/apply-limits.js';
import { createApplyRepo } from './modules/apply/apply.repo.js';
import { applyRoutes } from './modules/apply/apply.routes.js';
import { createMaterialImport } from './modules/material/material-import.js';
import { createMaterialApplyRepo } from './modules/material/material-apply.repo.js';
import { materialApplyRoutes } from './modules/material/material-apply.routes.js';
import { createMaterialRepo } from './modules/material/material.repo.js';
import { materialRoutes } from './modules/material/material.routes.js';
import { createInvoiceRepo } from './modules/finance/invoice.repo.js';
import { invoiceRoutes } from './modules/finance/invoice.routes.js';
import { createTransferRepo } from './modules/finance/transfer.repo.js';
import { transferRoutes } from './modules/finance/transfer.routes.js';
import { createWarnRepo } from './modules/warn/warn.repo.js';
import { warnRoutes } from './modules/warn/warn.routes.js';
import { createWeatherFeed, type WeatherFeed, type WeatherJob } from './modules/warn/weather.service.js';
import { createReservationExpiry } from './modules/reservation/reservation.service.js';
import { createTimedChargeRepo } from './modules/timedCharge/timedCharge.repo.js';
import { timedChargeRoutes } from './modules/timedCharge/timedCharge.routes.js';
import { createTimedCharging, type TimedCharging } from './modules/timedCharge/timedCharge.service.js';
import { localControllerRoutes } from './modules/localController/localController.routes.js';
import { createCommandSender } from './modules/pointAction/pointAction.service.js';
import { createAuthorizationService } from './modules/cards/authorize.js';
import { createLocalListRepo } from './modules/localList/localList.repo.js';
import { createLocalListService } from './modules/localList/localList.service.js';
import { startLocalListSync } from './modules/localList/localList.sync.js';
import { cardsRoutes } from './modules/cards/cards.module.js';
import { createOrganizationRepo } from './modules/organization/organization.repo.js';
import { organizationRoutes } from './modules/organization/organization.routes.js';
import { profileRoutes } from './modules/profile/profile.routes.js';
import { createProviderRepo } from './modules/provider/provider.repo.js';
import { providerRoutes } from './modules/provider/provider.routes.js';
import { createRoleRepo } from './modules/role/role.repo.js';
import { roleRoutes } from './modules/role/role.routes.js';
import { createSystemLogRepo } from './modules/systemLog/systemLog.repo.js';
import { systemLogRoutes } from './modules/systemLog/systemLog.routes.js';
import { createSystemUserRepo } from './modules/systemUser/systemUser.repo.js';
import { systemUserRoutes } from './modules/systemUser/systemUser.routes.js';
import { createStationRepo } from './modules/station/station.repo.js';
import { stationRoutes } from './modules/station/station.routes.js';
import { createPointRepo } from './modules/point/point.repo.js';
import { pointRoutes } from './modules/point/point.routes.js';
import { createLedger } from './modules/cards/ledger.js';
import { createBilling } from './modules/billing/settle.js';
import { createDiscounts } from './modules/operations/discounts.js';
import { createMembership } from './modules/operations/membership.js';
import { createMembershipRepo } from './modules/operations/membership.repo.js';
import { memberLevelRoutes, memberRoutes } from './modules/operations/membership.routes.js';
import { createMemberLevelJob } from './modules/operations/member-level.job.js';
import { createVoucherRepo } from './modules/operations/voucher.repo.js';
import { createRechargeBonus } from './modules/operations/recharge-bonus.js';
import { createActivityGrants } from './modules/operations/activity-grant.js';
import { createActivityRepo } from './modules/operations/activity.repo.js';
import { activityRoutes } from './modules/operations/activity.routes.js';
import { voucherRoutes, voucherTemplateRoutes } from './modules/operations/voucher.routes.js';
import { createPriceRepo } from './modules/price/price.repo.js';
import { priceRoutes } from './modules/price/price.routes.js';
import { createChargeRecordRepo } from './modules/chargeRecord/chargeRecord.repo.js';
import { chargeRecordRoutes } from './modules/chargeRecord/chargeRecord.routes.js';
import { createAlarmRecordRepo } from './modules/alarmRecord/alarmRecord.repo.js';
import { alarmRecordRoutes } from './modules/alarmRecord/alarmRecord.routes.js';
import { createStatisticsRepo } from './modules/statistics/statistics.repo.js';
import { statisticsRoutes } from './modules/statistics/statistics.routes.js';
import { createOperationStatsRepo } from './modules/statistics/operation.repo.js';
import { createFinancialStatsRepo } from './modules/statistics/financial.repo.js';
import { financialStatisticsRoutes, operateStatisticsRoutes } from './modules/statistics/report.routes.js';

export interface App {
  server: FastifyInstance;
  events: ReturnType<typeof createEventHub>;
  /** Commands to chargers: the OCPP endpoint serves each connected charger on it, operator actions request. */
  bus: ChargerBus;
  /** The OCPP 1.6J central system on the same port (`/ocpp/{serialNumber}`). */
  ocpp: Ocpp;
  /** The built-in load balancer (issue 15 item 2). */
  balancer: Balancer;
  /** The durable job queue (DESIGN.md §10) and the timed charging it runs. */
  jobs: Jobs;
  timed: TimedCharging;
  /** The forecast feed of warning management (issue 17 item 3). */
  weather: WeatherFeed;
}

/** How long swipes and starts may use a card's cached data (see createAuthorizationService). */
const AUTH_CACHE_MS = 5_000;

const decodeName = (name: string) => {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
};
/** Query-string tokens never reach the log, however the parameter's name is spelt (`%74oken=`); nor do the file tokens of chargers' paths. */
export const redactUrl = (url: string) =>
  maskLocation(url).replace(/([?&;])([^=&;#]*)=([^&;#]*)/g, (all, sep: string, name: string) =>
    /^(?:token|access_token|x-token|authorization|admin-token)$/i.test(decodeName(name).trim()) ? `${sep}${name}=***` : all,
  );

/** The server's log: no credential of a request, no token of a URL, no value of a failed statement. */
export const loggerOptions = (level: string) => ({
  level,
  redact: ['req.headers.authorization', 'req.headers["x-token"]', 'req.headers.cookie'],
  serializers: {
    req: (req: FastifyRequest) => ({ method: req.method, url: redactUrl(req.url), ip: req.ip }),
    err: errForLog,
  },
});

/** `cluster`: how this node reaches the others when the caller made it (a worker's IPC channel); else NATS_URL decides. */
export async function buildApp({
  config,
  database,
  cluster: given,
}: {
  config: Config;
  database: Database;
  cluster?: Cluster;
}): Promise<App> {
  const server = Fastify({
    // The first start on a large database builds the statistics' day totals before it answers (onReady):
    // tens of seconds at a million records, past Fastify's default 10 s.
    pluginTimeout: 300_000,
    trustProxy: trustFunction(config.trustProxy),
    bodyLimit: BODY_LIMIT_MB * 1024 * 1024,
    frameworkErrors,
    logger: loggerOptions(config.logLevel),
  });
  await server.register(cookie);
  // CSP, nosniff, Referrer-Policy on every answer (HSTS over TLS); stored files keep their stricter CSP.
  securityHeaders(server, { mapTileUrl: config.mapTileUrl, readerPort: config.readerPort });
  // Errors of any layer (JSON parsing, body size, content type, unknown route) answer the envelope.
  installErrorReplies(server);
  // The API speaks JSON (and multipart for uploads): a text body is refused as an unsupported type, not parsed into a string.
  server.removeContentTypeParser('text/plain');
  // The download helper's form POST (spec §7); mount refuses form bodies on every endpoint that does not ask for them.
  await server.register(formbody);
  await server.register(multipart, { limits: { fileSize: MULTIPART_LIMIT_MB * 1024 * 1024, files: 1 } });

  // Repositories and services share `db`; a mutating request's queries join its transaction (unit of work).
  const uow = createUnitOfWork(database.db, (err) => server.log.error({ err }, 'after a commit'));
  const { db } = uow;
  let ready = false;
  // Alone: events and charger commands stay in this process. With NATS_URL: over NATS, so any node's
  // console reaches any node's chargers and every browser gets every node's live events.
  const cluster =
    given ??
    (config.natsUrl
      ? await connectNats({
          url: config.natsUrl,
          nodeId: config.nodeId,
          prefix: config.natsSubjectPrefix,
          commandTimeoutMs: config.ocpp.callTimeoutSec * 1000,
        })
      : undefined);
  const hub = cluster ? clusterEvents(createEventHub(), cluster.fanout) : createEventHub();
  // An operator's change is announced once it is committed (and never when it is rolled back).
  const events: EventHub = {
    subscribe: (sub) => hub.subscribe(sub),
    publish: (event) => uow.afterCommit(() => hub.publish(event)),
    get size() {
      return hub.size;
    },
  };
  const bus = cluster?.bus ?? createInProcessBus();
  const sessions = createSessionStore({ db, config });
  const passwords = createPasswordRule(config.passwordPolicy);
  const deps: MountDeps = { sessions, audit: createAuditLog({ db }), uow, log: server.log };
  const mounted = new Set<EndpointDef>();
  const mount = <G extends Record<string, EndpointDef>>(group: G, handlers: Parameters<typeof mountAll<G>>[3]) => {
    mountAll(server, deps, group, handlers);
    Object.values(group).forEach((ep) => mounted.add(ep));
  };

  // The OCPP endpoint is created further down; health reads its connection count only once requests flow.
  // Record lists take days in the station's zone where they are of one station (DESIGN.md §9).
  const dayZone = createDayZone({ db, defaultZone: config.timeZone });
  mount(
    api.common,
    commonRoutes({
      db,
      uow,
      config,
      events,
      sessions,
      isReady: () => ready,
      ocppConnections: () => ocpp.connections,
      ocppLogBacklog: () => ocpp.logBacklog,
      ocppCompactions: () => ocpp.compactions,
      vacuum: () => (database.kind === 'pglite' ? pgliteMaintenance.counts() : null),
      streamPingMs: config.eventStreamPingMs,
      dayZone,
    }),
  );
  const captcha = createCaptchaService({ db });
  const windows = createWindowLimiter({ db });
  if (config.captcha)
    server.addHook('onListen', async () => {
      void preloadCaptchaDrawing().catch((err: unknown) =>
        server.log.error({ err }, 'captcha: the drawing libraries cannot be loaded; sign-in challenges will fail'),
      );
    });
  mount(
    api.auth,
    authRoutes({
      db,
      config,
      sessions,
      passwords,
      attempts: createAttemptLimiter({ db, config }),
      captcha,
      windows,
    }),
  );
  // System management (tenants, identities, roles, log, messages); exports read the export configuration.
  const columns = createExportColumns({ db });
  // Addresses operators type (SMTP) go through the outbound guard: never the server's own network unless allowed.
  const outbound = createOutboundGuard({ allow: config.outboundAllow });
  // Avatars, logos and station pictures name images this server stored, never a URL.
  const images = createStoredImages({ db });
  mount(
    api.provider,
    providerRoutes({
      repo: createProviderRepo({ db }),
      mail: { outbound },
      log: server.log,
      images,
      uploadDir: path.join(config.dataDir, 'uploads'),
    }),
  );
  mount(api.organization, organizationRoutes({ repo: createOrganizationRepo({ db }), events, config, columns }));
  mount(api.role, roleRoutes({ repo: createRoleRepo({ db }) }));
  const stations = createStationRepo({ db });
  mount(
    api.systemUser,
    systemUserRoutes({ repo: createSystemUserRepo({ db }), stations, sessions, events, columns, config, images, passwords }),
  );
  mount(api.profile, profileRoutes({ db, images }));
  mount(api.systemLog, systemLogRoutes({ repo: createSystemLogRepo({ db }), events, columns, config }));
  // Uncaught errors of production consoles (spec §9): reported by any console, listed for administrators.
  mount(api.clientError, clientErrorRoutes({ repo: createClientErrorRepo({ db }), sessions }));
  const messages = createMessageRepo({ db });
  mount(api.message, messageRoutes({ repo: messages, events, columns, config, images }));
  mount(api.exportConfig, exportConfigRoutes({ db, columns }));

  // Configuration: stations and their charge points. The OCPP endpoint refreshes its cache of points through ocppHooks.
  // Placeholder until the OCPP endpoint is mounted: it replaces pointChanged with its own.
  const ocppHooks = { pointChanged: (_serialNumbers: string[]) => {} };
  // Swipes and starts read cards from memory (DESIGN.md §6). An operator's change through this node
  // (cards, users, groups, balances: every POST, to keep it simple) and every settled session drops the
  // cache at once, here and (over NATS) on the other nodes; a change made in SQL is seen within AUTH_CACHE_MS.
  const { masterPassGroupId } = config.ocpp;
  const cardCache = createAuthorizationService({
    db,
    minBalanceCents: config.ocpp.minBalanceCents,
    masterPassGroupId,
    cacheMs: AUTH_CACHE_MS,
  });
  const forgetCards = everywhere(cluster?.fanout, 'cards.forget', (idTag: string | null) => cardCache.forget(idTag ?? undefined));
  const authorization = { authorize: cardCache.authorize, forget: (idTag?: string) => forgetCards(idTag ?? null) };
  // onSend, not onResponse: dropped before the operator sees the answer, so the next swipe after it sees the change.
  server.addHook('onSend', async (req, _reply, payload) => {
    if (req.method === 'POST' && req.url.startsWith(`${API_PREFIX}/web/`)) authorization.forget();
    return payload;
  });
  // Money moves only through the ledger; billing settles each finished session inside its Stop's transaction
  // (one commit for both), and after the reply when that failed.
  // Operations (issue 19): a recharge during a recharge-bonus activity credits its bonus in the recharge's transaction.
  const ledger = createLedger({ db, hooks: createRechargeBonus() });
  // Operations (issue 19): member levels give their discount at settlement, in its transaction, and follow it.
  const membership = createMembership({ db });
  const billing = createBilling({ db, ledger, hooks: createDiscounts({ membership }) });
  const ocpp = createOcpp({
    server: server.server,
    // Chargers' traffic never runs inside an operator's request: the plain database.
    db: database.db,
    oneSession: database.kind === 'pglite',
    config,
    bus,
    ...(cluster ? { fanout: cluster.fanout } : {}),
    events,
    authorization,
    settleStop: billing.settleIn,
    audit: deps.audit,
    logger: server.log,
  });
  // After the commit: the cache re-reads the points, which must find the change. On every node (over NATS or
  // the workers' channel): the charger's socket may be on another, which would go on acting with the old
  // provider, station or enabled state until the charger reconnected.
  const invalidatePoints = everywhere(
    cluster?.fanout,
    'points.changed',
    (serialNumbers: string[]) =>
      void ocpp.invalidate(serialNumbers).catch((err: unknown) => server.log.error({ err }, 'ocpp: cache refresh failed')),
  );
  ocppHooks.pointChanged = (serialNumbers) => uow.afterCommit(() => invalidatePoints(serialNumbers));
  mount(api.station, stationRoutes({ repo: stations, events, config, columns, images }));
  mount(
    api.point,
    pointRoutes({
      repo: createPointRepo({ db }),
      events,
      config,
      columns,
      onPointChanged: (s) => ocppHooks.pointChanged(s),
      // A charger whose boot was Pending boots again now rather than at its next retry (OCPP 2.0.1 B02.FR.06, TC_B_31).
      onPlaced: (serialNumber) =>
        uow.afterCommit(() => {
          bus
            .request(serialNumber, { action: 'TriggerMessage', payload: { requestedMessage: 'BootNotification' } })
            .then((reply) => {
              if (reply.kind !== 'result' && reply.kind !== 'offline')
                server.log.warn({ serialNumber, reply }, 'ocpp: boot trigger after placement not answered');
            })
            .catch((err: unknown) => server.log.warn({ err, serialNumber }, 'ocpp: boot trigger after placement failed'));
        }),
    }),
  );

  // Operator actions go to the charger over the bus; monitoring and the OCPP log read what the endpoint stored.
  const ask = createCommandSender({ bus, onError: (err) => server.log.error({ err }, 'point action: bus request failed') });
  // Local lists read cards only; the minimum balance plays no part in them. Versions and contents are per point.
  const cardList = createAuthorizationService({ db, minBalanceCents: 0, masterPassGroupId });
  const localLists = createLocalListService({
    repo: createLocalListRepo({ db }),
    ask,
    // A 1.6 charger knows no master pass: its list leaves them out (the server answers them online).
    wanted: async (providerId, now, version) => (await cardList.localList(providerId, now, { masterPasses: version === '2.0.1' })).entries,
  });
  // Smart charging: stored charging profiles, sent on request and again to a point that booted (it may have lost them);
  // a remote start may carry one of them.
  const profiles = createChargingProfileRepo({ db });
  mount(
    api.pointAction,
    pointActionRoutes({
      repo: createPointActionRepo({ db }),
      ask,
      localLists,
      profiles,
      tls: Boolean(config.ocpp.tlsCert && config.ocpp.tlsKey),
    }),
  );
  // Automatic sync: each node sweeps the points whose sockets it holds, so each point is synced by one node.
  const localListSync = startLocalListSync({
    service: localLists,
    nodeId: config.nodeId,
    intervalMs: config.localListSyncMs,
    onError: (err) => server.log.error({ err }, 'local list sync failed'),
  });
  const profileSender = createProfileSender({ repo: profiles, ask });
  mount(api.chargingProfile, chargingProfileRoutes({ repo: profiles, sender: profileSender, ask, events, columns, config }));
  ocpp.onBooted((point) => profileSender.afterBoot(point));
  // The built-in load balancer: each local controller's sessions kept within its limit, re-planned on every charger event.
  const controllers = createLocalControllerRepo({ db });
  const balancer = createBalancer({
    repo: controllers,
    ask,
    events,
    holds: (serialNumber) => ocpp.holds(serialNumber),
    onError: (err, controllerId) => server.log.error({ err, controllerId }, 'balancer: plan failed'),
  });
  // Every node plans from memory: a change made through one node is told to all of them.
  const replan = everywhere(
    cluster?.fanout,
    'balancer.changed',
    (ids: number[]) => void balancer.changed(ids).catch((err: unknown) => server.log.error({ err }, 'balancer: reload failed')),
  );
  mount(api.localController, localControllerRoutes({ repo: controllers, points: profiles, changed: replan, uow, events, columns, config }));
  // PGlite runs no autovacuum: the process that holds it vacuums and analyzes as autovacuum would.
  const pgliteMaintenance = createPgliteMaintenance({
    pool: database.pool,
    intervalMs: database.kind === 'pglite' ? config.pgliteVacuumSeconds * 1000 : 0,
    busyMeter: database.busyMeter,
    onRun: (run) =>
      server.log.debug({ table: run.table, work: run.work, waitedMs: Math.round(run.waitedMs), ms: Math.round(run.ms) }, 'pglite: vacuum'),
    onError: (err) => server.log.error({ err }, 'pglite: vacuum failed'),
  });
  // Scheduled work (DESIGN.md §10): the durable job queue in the database, polled by every node, each job run by one.
  const jobs = createJobs({
    pool: database.pool,
    pollSeconds: config.jobPollSeconds,
    onError: (err, queue) => server.log.error({ err, queue }, 'job failed (it is retried)'),
  });
  // Timed charging: a daily remote start, queued one start at a time.
  const timedRepo = createTimedChargeRepo({ db });
  const timed = createTimedCharging({ db, repo: timedRepo, jobs, ask, messages, events });
  jobs.work<{ id: number; at: string }>('timedCharge', async (job) => void (await timed.run(job.id, new Date(job.at))));
  mount(
    api.timedCharge,
    timedChargeRoutes({
      repo: timedRepo,
      points: profiles,
      timed,
      uow,
      events,
      columns,
      config,
      onError: (err) => server.log.error({ err }, 'timed charge: queueing failed (queued again at start-up)'),
    }),
  );
  // Reservations: ReserveNow and CancelReservation; expiry from the queue, the fee through the ledger.
  const reservationExpiry = createReservationExpiry({ db, ledger, jobs });
  jobs.work<{ id: number }>('reservationExpiry', async (job) => {
    if ((await reservationExpiry.expire(job.id)) === 'notDue') throw new Error(`reservation ${job.id} is not due yet on this node's clock`);
  });
  mount(
    api.reservation,
    reservationRoutes({
      db,
      repo: createReservationRepo({ db }),
      points: profiles,
      expiry: reservationExpiry,
      ask,
      events,
      columns,
      config,
      dayZone,
    }),
  );
  // Remote maintenance: firmware packages served to chargers by the server itself, upgrades followed point by point.
  const firmware = createFirmwareRepo({ db });
  const firmwareUpgrades = createFirmwareUpgrades({ repo: firmware, ask, holds: (serialNumber) => ocpp.holds(serialNumber) });
  // Rollout in waves: what a crash left due is sent at start-up; time limits and the rest every 30 s.
  const firmwareSweep = startFirmwareSweep({
    upgrades: firmwareUpgrades,
    onError: (err) => server.log.error({ err }, 'firmware upgrade: sweep failed'),
  });
  mount(api.firmwareVersion, firmwareVersionRoutes({ repo: firmware, config }));
  mount(
    api.firmwareUpgrade,
    firmwareUpgradeRoutes({
      repo: firmware,
      upgrades: firmwareUpgrades,
      uow,
      events,
      columns,
      config,
      onError: (err) => server.log.error({ err }, 'firmware upgrade: sending failed'),
    }),
  );
  firmwareFiles(server, { repo: firmware, config });
  ocpp.onBooted((point) => firmwareUpgrades.booted(point));
  ocpp.onFirmwareStatus((point, status) => firmwareUpgrades.reported(point, status));
  // Diagnostics: GetDiagnostics with an upload target per request, the file received over HTTP or FTP.
  const diagnostics = createDiagnosticsRepo({ db });
  const diagnosticsReceiver = createDiagnosticsReceiver({ repo: diagnostics, config });
  mount(api.diagnostics, diagnosticsRoutes({ repo: diagnostics, points: firmware, ask, events, columns, config }));
  diagnosticsReceiver.mount(server);
  ocpp.onDiagnosticsStatus((point, status) => diagnosticsReceiver.reported(point, status));
  // The FTP server (CSMS_FTP_PORT): a diagnostics request writes into its own directory; a firmware package is read from its own.
  const ftp: FtpServer | undefined = config.ftp
    ? createFtpServer({
        port: config.ftp.port,
        host: config.host,
        pasvUrl: config.ftp.host ?? (config.publicUrl ? new URL(config.publicUrl).hostname : '127.0.0.1'),
        pasvMin: config.ftp.pasvMin,
        pasvMax: config.ftp.pasvMax,
        onError: (err) => server.log.warn({ err }, 'ftp'),
        async login(username, password) {
          const diag = /^diag(\d+)$/.exec(username);
          if (diag) {
            const r = await diagnostics.byId(Number(diag[1]));
            // A login takes one file, as the HTTP address does: spent once its request received one.
            if (!r?.token || r.token !== password || r.state === 'received') return undefined;
            return {
              mode: 'write',
              root: diagnosticsReceiver.ftpRoot(r.id),
              maxBytes: DIAGNOSTICS_MAX_BYTES,
              onStored: (file) => diagnosticsReceiver.stored(r, file),
            };
          }
          if (username === 'firmware' && /^[0-9a-f]{64}$/.test(password)) {
            const v = await firmware.versionByToken(password);
            if (!v) return undefined;
            return { mode: 'read', root: path.dirname(path.join(config.dataDir, 'uploads', v.storedName)) };
          }
          return undefined;
        },
      })
    : undefined;
  const monitorRepo = createMonitorRepo({ db });
  mount(api.monitor, monitorRoutes({ repo: monitorRepo }));
  mount(api.ocppLog, ocppLogRoutes({ repo: createOcppLogRepo({ db }), events, config, columns, dayZone }));

  // Finance: prices. Billing settles finished sessions; a price change settles the sessions that waited for one.
  mount(api.price, priceRoutes({ repo: createPriceRepo({ db }), billing, log: server.log }));
  // Each finished session is settled once: with its Stop (above), or right after the Stop is answered when that
  // failed; a sweep at start-up settles the ones a crash or restart left unbilled (settlement is idempotent).
  ocpp.onTransactionStopped(async (id, settled) => void (settled || (await billing.settle(id))));
  server.addHook('onReady', async () => {
    void billing.settlePending().catch((err: unknown) => server.log.error({ err }, 'billing: start-up settlement failed'));
  });

  // Records: charging records (bills, process data, confirmation of invalid ones), alarms; dashboard statistics.
  const workOrders = createWorkOrderRepo({ db });
  mount(
    api.chargeRecord,
    chargeRecordRoutes({
      repo: createChargeRecordRepo({ db }),
      billing,
      events,
      config,
      columns,
      dayZone,
      inWorkOrder: (p, id) => workOrders.showsTransaction(p, ownOnly(p), id),
    }),
  );
  mount(api.alarmRecord, alarmRecordRoutes({ repo: createAlarmRecordRepo({ db }), events, config, columns, dayZone }));
  // Work orders (issue 17): a charger's serious alarm opens one by a trigger in the alarm's transaction; the flow
  // moves it from the area leader to a service man and to the archive.
  // Feedback from anyone signed in becomes an order too; a resolved repair records the components it replaced.
  const components = createComponentRepo({ db });
  mount(api.workOrder, workOrderRoutes({ db, repo: workOrders, components, images, events, columns, config, dayZone }));
  mount(api.component, componentRoutes({ repo: components, events, columns, config, dayZone }));
  // Spare parts (issue 17 item 4): the parts catalogue, and apply orders for work orders, agreed (the stock falls) or not.
  const materials = createMaterialRepo({ db });
  const materialImport = createMaterialImport({ db, repo: materials, events, dataDir: config.dataDir });
  mount(api.material, materialRoutes({ repo: materials, materialImport, events, columns, config }));
  mount(api.materialApply, materialApplyRoutes({ repo: createMaterialApplyRepo({ db }), events, columns, config, dayZone }));
  // Warning management (issue 17 item 3): forecasts per station from CSMS_WEATHER_URL on the job queue, the providers'
  // rules raising warnings for stations at risk, and warnings entered by hand.
  const warnRepo = createWarnRepo({ db });
  const weather = createWeatherFeed({ repo: warnRepo, jobs, uow, config, log: server.log });
  jobs.work<WeatherJob>('weatherRefresh', (job) => weather.run(job));
  mount(api.warn, warnRoutes({ repo: warnRepo, weather, events, columns, config }));
  // Applications to join the platform (issue 21): the public form, and the platform's review creating providers.
  mount(
    api.apply,
    applyRoutes({
      db,
      repo: createApplyRepo({ db }),
      uow,
      config,
      captcha,
      limits: createApplyLimiter({ windows }),
      passwords,
      mail: { outbound },
      log: server.log,
      dayZone,
      uploadDir: path.join(config.dataDir, 'uploads'),
    }),
  );
  // Operations (issue 19): membership levels, recomputed with each settlement and nightly on the job queue.
  const membershipRepo = createMembershipRepo({ db });
  mount(api.memberLevel, memberLevelRoutes({ repo: membershipRepo, events, columns, config }));
  mount(api.member, memberRoutes({ repo: membershipRepo, membership, events, columns, config }));
  // Vouchers: templates, issued by hand or to a group; settlement uses the best one once (a conditional update).
  const vouchers = createVoucherRepo({ db });
  mount(api.voucherTemplate, voucherTemplateRoutes({ repo: vouchers, events, columns, config }));
  mount(api.voucher, voucherRoutes({ repo: vouchers, events, columns, config }));
  // Activities: service-fee discounts over a period; the best one applies at settlement, after the member discount.
  // Voucher grants: issued to new users or a group's members by jobs on the durable queue, once per user.
  const grants = createActivityGrants({ db, jobs, uow, log: server.log });
  jobs.work<{ id: number }>('activityGrant', async (job) => void (await grants.run(job.id)));
  mount(api.activity, activityRoutes({ repo: createActivityRepo({ db }), grants, events, columns, config }));
  const memberLevelJob = createMemberLevelJob({ membership, jobs, timeZone: config.timeZone, log: server.log });
  jobs.work<{ night: string }>('memberLevels', (job) => memberLevelJob.run(job));
  const statistics = createStatisticsRepo({ db });
  mount(api.statistics, statisticsRoutes({ repo: statistics, monitor: monitorRepo, config }));
  // Operation and financial statistics (issue 20): periods over the day totals and the settlement and ledger rollups.
  const reportDeps = {
    operation: createOperationStatsRepo({ db, defaultZone: config.timeZone }),
    financial: createFinancialStatsRepo({ db, timeZone: config.timeZone }),
    events,
    columns,
    config,
  };
  mount(api.operateStatistics, operateStatisticsRoutes(reportDeps));
  mount(api.financialStatistics, financialStatisticsRoutes(reportDeps));
  // The revenue trend's day totals cut days in CSMS_TIME_ZONE: built at the first start, rebuilt when it changes,
  // before the server answers.
  server.addHook('onReady', async () => {
    if (await statistics.ensureDayTotals(config.timeZone)) server.log.info({ timeZone: config.timeZone }, 'statistics: day totals built');
  });

  // Users: charge users, RFID cards, user groups, cars; finance: recharge records (the ledger).
  const cards = cardsRoutes({ db, events, columns, config, dayZone, ledger, onRegistered: grants.registered });
  mount(api.chargeUser, cards.chargeUser);
  mount(api.card, cards.card);
  mount(api.userGroup, cards.userGroup);
  mount(api.car, cards.car);
  mount(api.rechargeRecord, cards.rechargeRecord);
  // Finance (issue 18): corporate transfers credited through the ledger on a second user's confirmation; invoices
  // over paid records, issued with a PDF mailed through the provider's SMTP settings.
  const transfers = transferRoutes({ db, repo: createTransferRepo({ db }), ledger, events, columns, config });
  mount(api.corporateTransfer, transfers.corporateTransfer);
  mount(api.transferRecord, transfers.transferRecord);
  mount(
    api.invoice,
    invoiceRoutes({
      db,
      repo: createInvoiceRepo({ db }),
      mail: { outbound },
      log: server.log,
      uploadDir: path.join(config.dataDir, 'uploads'),
      events,
      columns,
      config,
      dayZone,
    }),
  );

  // Deny by default: every contract endpoint must be mounted, each with declared access.
  const missing = allEndpoints().filter((ep) => !mounted.has(ep));
  if (missing.length > 0) throw new Error(`endpoints without a handler: ${missing.map((e) => e.path).join(', ')}`);
  for (const ep of mounted) if (!ep.access) throw new Error(`endpoint without declared access: ${ep.path}`);

  // Built by its first reader, not at start-up (≈ 0.15 s of converting every endpoint's schemas).
  let openapi: ReturnType<typeof buildOpenApi> | undefined;
  server.get(`${API_PREFIX}/openapi.json`, async () => (openapi ??= buildOpenApi([...mounted])));

  // Unknown API paths and wrong methods answer with the envelope too (in the caller's language), never with the console's index.html.
  const notFoundReply = (req: FastifyRequest) => ({ code: 404, msg: translate(langOf(req), 'errors.notFound'), data: null });
  server.all(`${API_PREFIX}/*`, async (req, reply) => reply.send(notFoundReply(req)));

  const dist = config.webDist;
  const hasConsole = dist && fs.existsSync(path.join(dist, 'index.html'));
  // The build's hashed scripts and stylesheets from memory, each in the encoding the browser accepts
  // (http/console-assets.ts); its other files (the icon, the index page) from disk.
  if (hasConsole) {
    consoleAssets(server, { dir: path.join(dist, 'assets') });
    await server.register(fastifyStatic, {
      root: dist,
      wildcard: false,
      globIgnore: ['assets/**'],
      index: false,
      maxAge: '1h',
    });
  }
  server.setNotFoundHandler((req, reply) => {
    // History-mode fallback: any other GET is a console route. A build file that is not there (a
    // console of an earlier build asking for its chunk) is a 404, not the page.
    const consoleRoute = !['/assets/', API_PREFIX, '/ocpp'].some((prefix) => req.url.startsWith(prefix));
    if (hasConsole && req.method === 'GET' && consoleRoute) {
      // Always asked again (no-cache): after an upgrade the page names the new build's files.
      return reply.header('cache-control', 'no-cache').sendFile('index.html', { cacheControl: false });
    }
    return reply.code(404).send(notFoundReply(req));
  });

  server.addHook('onReady', async () => {
    ready = true;
  });
  server.addHook('onReady', async () => localListSync.start());
  server.addHook('onReady', async () => balancer.start());
  server.addHook('onReady', async () => ftp?.start());
  server.addHook('onReady', async () => firmwareSweep.start());
  server.addHook('onReady', async () => pgliteMaintenance.start());
  // The queue's work, and what a crash may have left unqueued: every timed charge's next start, every reservation's expiry.
  server.addHook('onReady', async () => {
    await jobs.start();
    void Promise.all([timed.queueAll(), reservationExpiry.scheduleHeld(), weather.start(), memberLevelJob.start(), grants.resume()]).catch(
      (err: unknown) => server.log.error({ err }, 'jobs: queueing at start-up failed'),
    );
  });
  server.addHook('preClose', async () => {
    ready = false;
    await localListSync.stop();
    await balancer.stop();
    await firmwareSweep.stop();
    await pgliteMaintenance.stop();
    await jobs.stop();
    await ftp?.stop();
    // Chargers' sockets are not HTTP requests: the server would wait for them forever.
    await ocpp.close();
  });
  server.addHook('onClose', async () => {
    await cluster?.close();
  });
  await ocpp.start();
  return { server, events, bus, ocpp, balancer, jobs, timed, weather };
}
