import fs from 'node:fs';
import path from 'node:path';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import { allEndpoints, api, type EndpointDef } from '@csms/contract';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import { createAuditLog } from './http/audit.js';
import { API_PREFIX, mountAll, type MountDeps } from './http/mount.js';
import { buildOpenApi } from './http/openapi.js';
import { createSessionStore } from './http/sessions.js';
import { createEventHub } from './lib/events.js';
import { createAttemptLimiter } from './modules/auth/attempts.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { createCaptchaService } from './modules/auth/captcha.js';
import { commonRoutes } from './modules/common/common.routes.js';
import { createExportColumns } from './lib/export-config.js';
import { exportConfigRoutes } from './modules/exportConfig/exportConfig.routes.js';
import { createMessageRepo } from './modules/message/message.repo.js';
import { messageRoutes } from './modules/message/message.routes.js';
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

export interface App {
  server: FastifyInstance;
  events: ReturnType<typeof createEventHub>;
}

/** Query-string tokens never reach the log. */
const redactUrl = (url: string) => url.replace(/([?&](?:token|access_token)=)[^&]*/gi, '$1***');

export async function buildApp({ config, database }: { config: Config; database: Database }): Promise<App> {
  const server = Fastify({
    trustProxy: config.trustProxy,
    bodyLimit: 2 * 1024 * 1024,
    logger: {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers["x-token"]', 'req.headers.cookie'],
      serializers: {
        req: (req) => ({ method: req.method, url: redactUrl(req.url), ip: req.ip }),
      },
    },
  });
  await server.register(cookie);
  await server.register(multipart, { limits: { fileSize: 50 * 1024 * 1024, files: 1 } });

  const { db } = database;
  let ready = false;
  const events = createEventHub();
  const sessions = createSessionStore({ db, config });
  const deps: MountDeps = { sessions, audit: createAuditLog({ db }), log: server.log };
  const mounted = new Set<EndpointDef>();
  const mount = <G extends Record<string, EndpointDef>>(group: G, handlers: Parameters<typeof mountAll<G>>[3]) => {
    mountAll(server, deps, group, handlers);
    Object.values(group).forEach((ep) => mounted.add(ep));
  };

  mount(api.common, commonRoutes({ db, config, events, sessions, isReady: () => ready }));
  mount(
    api.auth,
    authRoutes({ db, config, sessions, attempts: createAttemptLimiter({ db, config }), captcha: createCaptchaService({ db }) }),
  );
  // System management (tenants, identities, roles, log, messages); exports read the export configuration.
  const columns = createExportColumns({ db });
  mount(api.provider, providerRoutes({ repo: createProviderRepo({ db }) }));
  mount(api.organization, organizationRoutes({ repo: createOrganizationRepo({ db }), events, config, columns }));
  mount(api.role, roleRoutes({ repo: createRoleRepo({ db }) }));
  mount(api.systemUser, systemUserRoutes({ repo: createSystemUserRepo({ db }), sessions, events, columns, config }));
  mount(api.profile, profileRoutes({ db }));
  mount(api.systemLog, systemLogRoutes({ repo: createSystemLogRepo({ db }), events, columns, config }));
  mount(api.message, messageRoutes({ repo: createMessageRepo({ db }), events, columns, config }));
  mount(api.exportConfig, exportConfigRoutes({ db, columns }));

  // Deny by default: every contract endpoint must be mounted, each with declared access.
  const missing = allEndpoints().filter((ep) => !mounted.has(ep));
  if (missing.length > 0) throw new Error(`endpoints without a handler: ${missing.map((e) => e.path).join(', ')}`);
  for (const ep of mounted) if (!ep.access) throw new Error(`endpoint without declared access: ${ep.path}`);

  const openapi = buildOpenApi([...mounted]);
  server.get(`${API_PREFIX}/openapi.json`, async () => openapi);

  // Unknown API paths answer with the envelope too, never with the console's index.html.
  server.all(`${API_PREFIX}/*`, async (req, reply) => reply.send({ code: 404, msg: 'Not Found', data: null }));

  const dist = config.webDist;
  if (dist && fs.existsSync(path.join(dist, 'index.html'))) {
    await server.register(fastifyStatic, { root: dist, wildcard: false, index: false, maxAge: '1h' });
    // History-mode fallback: any other GET is a console route.
    server.setNotFoundHandler((req, reply) => {
      if (req.method !== 'GET' || req.url.startsWith(API_PREFIX) || req.url.startsWith('/ocpp')) {
        return reply.code(404).send({ code: 404, msg: 'Not Found', data: null });
      }
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    });
  }

  server.addHook('onReady', async () => {
    ready = true;
  });
  server.addHook('preClose', async () => {
    ready = false;
  });
  return { server, events };
}
