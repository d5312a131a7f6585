import { Writable } from 'node:stream';
import { DrizzleQueryError } from 'drizzle-orm';
import Fastify from 'fastify';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { loggerOptions } from '../app.js';
import { installErrorReplies } from '../http/errors-reply.js';
import { errForLog } from './error-log.js';

/** What a refused insert looks like: drizzle's error around PostgreSQL's, with the row's values in both. */
function failedInsert() {
  const cause = new pg.DatabaseError('null value in column "name" of relation "provider" violates not-null constraint', 0, 'error');
  cause.code = '23502';
  cause.table = 'provider';
  cause.column = 'name';
  cause.detail = 'Failing row contains (7, null, mail-code-483920).';
  return new DrizzleQueryError(
    'insert into "provider" ("id", "name", "mail_code") values ($1, $2, $3)',
    [7, null, 'mail-code-483920'],
    cause,
  );
}

describe('errForLog', () => {
  it("keeps a failed statement's text and PostgreSQL's code, table and column, and none of its values", () => {
    const logged = JSON.stringify(errForLog(failedInsert()));
    expect(logged).not.toContain('mail-code-483920');
    expect(logged).toContain('insert into \\"provider\\"');
    expect(logged).toContain('params: (hidden)');
    expect(logged).toContain('"code":"23502"');
    expect(logged).toContain('"column":"name"');
    expect(logged).toContain('violates not-null constraint');
  });

  it('leaves other errors and non-errors as they are', () => {
    const e = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    expect(errForLog(e)).toMatchObject({ type: 'Error', message: 'socket hang up', code: 'ECONNRESET' });
    // pino hands the serializer whatever a caller put under `err`.
    expect(errForLog('plain text' as unknown as Error)).toBe('plain text');
    const wrapped = errForLog(
      new Error('outer', { cause: Object.assign(new Error('inner'), { detail: 'Key (uid)=(secret-uid) already exists.' }) }),
    );
    expect(JSON.stringify(wrapped)).not.toContain('secret-uid');
    expect(JSON.stringify(wrapped)).toContain('inner');
  });

  it("is the server log's error serializer", async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const server = Fastify({ logger: { ...loggerOptions('info'), stream } });
    installErrorReplies(server);
    server.get('/boom', () => {
      throw failedInsert();
    });
    await server.inject({ url: '/boom' });
    await server.close();
    const failure = lines.find((l) => l.includes('Failed query'));
    expect(failure).toBeDefined();
    expect(lines.join('')).not.toContain('mail-code-483920');
  });
});
