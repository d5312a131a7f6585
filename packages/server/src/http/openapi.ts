import type { EndpointDef } from '@csms/contract';
import { z } from 'zod';
import { API_PREFIX } from './mount.js';

const json = (schema: z.ZodType, io: 'input' | 'output') => z.toJSONSchema(schema, { io, unrepresentable: 'any' });

function security(ep: EndpointDef) {
  return ep.access === 'public' ? [] : [{ bearer: [] }];
}

function access(ep: EndpointDef) {
  if (typeof ep.access === 'string') return ep.access;
  if ('permi' in ep.access) return `permission ${ep.access.permi}`;
  return 'anyPermi' in ep.access ? `any permission of ${ep.access.anyPermi.join(', ')}` : `role ${ep.access.role}`;
}

/** OpenAPI 3.1 document generated from the contract: the same schemas the server validates with. */
export function buildOpenApi(endpoints: EndpointDef[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const ep of endpoints) {
    const url = API_PREFIX + ep.path.replace(/:(\w+)/g, '{$1}');
    const parameters: unknown[] = [];
    for (const [where, schema] of [
      ['path', ep.params],
      ['query', ep.query],
    ] as const) {
      if (!schema) continue;
      const js = json(schema, 'input') as { properties?: Record<string, unknown>; required?: string[] };
      for (const [name, s] of Object.entries(js.properties ?? {})) {
        parameters.push({ name, in: where, required: where === 'path' || (js.required ?? []).includes(name), schema: s });
      }
    }
    const envelope = {
      type: 'object',
      properties: { code: { type: 'integer' }, msg: { type: 'string' }, data: json(ep.data, 'output') },
      required: ['code', 'msg'],
    };
    (paths[url] ??= {})[ep.method.toLowerCase()] = {
      summary: ep.summary ?? `${ep.resource} ${ep.path.split('/').pop()}`,
      description: `Access: ${access(ep)}.${ep.mutation ? ' Writes one system-log row.' : ''}`,
      tags: [ep.resource],
      security: security(ep),
      parameters,
      ...(ep.body ? { requestBody: { required: true, content: { 'application/json': { schema: json(ep.body, 'input') } } } } : {}),
      responses: {
        200:
          ep.raw === 'download'
            ? { description: 'The file, or a JSON envelope on failure', content: { 'application/octet-stream': {} } }
            : ep.raw === 'stream'
              ? { description: 'Server-sent events', content: { 'text/event-stream': {} } }
              : { description: 'Envelope; `code` says what happened', content: { 'application/json': { schema: envelope } } },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'CSMS API',
      version: '0.1.0',
      description: 'Every reply is `{ code, msg, data }` with HTTP 200; `X-Language: zh|en` selects the language of messages.',
    },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    paths,
  };
}
