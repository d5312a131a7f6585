import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { card, chargingTransaction, ocppLog } from '../../src/db/schema.js';
import { startServer, type TestServer } from '../harness.js';
import { createPoint, eventually, iso, TestCharger } from './support.js';

/** Operator commands through the bus to a connected charger (DESIGN.md §1, §6). */
describe('commands to chargers over the bus', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(() => s.close());

  async function connect() {
    const p = await createPoint(s.database.db);
    const c = await TestCharger.connect(s.url, p.serialNumber, { key: p.key });
    return { ...p, c };
  }

  it('returns the charger’s answer and logs the call paired with it', async () => {
    const { c, serialNumber } = await connect();
    const asked: unknown[] = [];
    c.onCall = (action, payload) => {
      asked.push([action, payload]);
      return action === 'GetConfiguration'
        ? { configurationKey: [{ key: 'HeartbeatInterval', readonly: false, value: '300' }] }
        : { status: 'Rejected' };
    };
    expect(await s.app.bus.request(serialNumber, { action: 'Reset', payload: { type: 'Soft' } })).toEqual({
      kind: 'result',
      payload: { status: 'Rejected' },
    });
    expect(await s.app.bus.request(serialNumber, { action: 'GetConfiguration', payload: { key: ['HeartbeatInterval'] } })).toEqual({
      kind: 'result',
      payload: { configurationKey: [{ key: 'HeartbeatInterval', readonly: false, value: '300' }] },
    });
    expect(asked).toEqual([
      ['Reset', { type: 'Soft' }],
      ['GetConfiguration', { key: ['HeartbeatInterval'] }],
    ]);
    await s.app.ocpp.flush();
    const rows = await s.database.db
      .select()
      .from(ocppLog)
      .where(and(eq(ocppLog.serialNumber, serialNumber), eq(ocppLog.action, 'Reset')))
      .orderBy(asc(ocppLog.id));
    expect(rows.map((r) => [r.direction, r.messageType])).toEqual([
      ['out', 2],
      ['in', 3],
    ]);
    expect(rows[0]!.messageId).toBe(rows[1]!.messageId);
    expect(rows[1]!.latencyMs).not.toBeNull();
    await c.close();
  });

  it('keeps the charger’s AuthorizationKey out of the OCPP log', async () => {
    const { c, serialNumber } = await connect();
    c.onCall = (action) =>
      action === 'GetConfiguration'
        ? {
            configurationKey: [
              { key: 'AuthorizationKey', readonly: false, value: 'leaked?' },
              { key: 'HeartbeatInterval', readonly: false, value: '60' },
            ],
          }
        : { status: 'Accepted' };
    await s.app.bus.request(serialNumber, {
      action: 'ChangeConfiguration',
      payload: { key: 'AuthorizationKey', value: 'new-secret-key-1234' },
    });
    await s.app.bus.request(serialNumber, { action: 'GetConfiguration', payload: {} });
    await s.app.ocpp.flush();
    const rows = await s.database.db.select().from(ocppLog).where(eq(ocppLog.serialNumber, serialNumber));
    const text = JSON.stringify(rows.map((r) => r.payload));
    expect(text).not.toContain('new-secret-key-1234');
    expect(text).not.toContain('leaked?');
    expect(text).toContain('HeartbeatInterval');
    await c.close();
  });

  it('sends one call at a time and queues the rest', async () => {
    const { c, serialNumber } = await connect();
    const open: string[] = [];
    let maxOpen = 0;
    c.onCall = (action, _payload, id) => {
      open.push(id);
      maxOpen = Math.max(maxOpen, open.length);
      setTimeout(() => {
        open.splice(open.indexOf(id), 1);
        c.ws.send(JSON.stringify([3, id, { status: 'Unlocked' }]));
      }, 20);
      return undefined;
    };
    const replies = await Promise.all(
      [1, 2, 3, 4].map((connectorId) => s.app.bus.request(serialNumber, { action: 'UnlockConnector', payload: { connectorId } })),
    );
    expect(replies.every((r) => r.kind === 'result')).toBe(true);
    expect(maxOpen).toBe(1);
    expect(c.received.filter((m) => m[0] === 2).map((m) => (m[3] as { connectorId: number }).connectorId)).toEqual([1, 2, 3, 4]);
    await c.close();
  });

  it('passes on CALLERRORs, turns an invalid answer into FormationViolation and refuses an invalid command before sending', async () => {
    const { c, serialNumber } = await connect();
    c.onCall = (action, _p, id) => (action === 'ClearCache' ? [4, id, 'NotSupported', 'no cache here', {}] : { status: 'Maybe' });
    expect(await s.app.bus.request(serialNumber, { action: 'ClearCache', payload: {} })).toEqual({
      kind: 'error',
      code: 'NotSupported',
      description: 'no cache here',
      details: {},
    });
    expect(
      await s.app.bus.request(serialNumber, { action: 'ChangeAvailability', payload: { connectorId: 0, type: 'Inoperative' } }),
    ).toMatchObject({
      kind: 'error',
      code: 'FormationViolation',
      details: { violation: 'PropertyConstraintViolation' },
    });
    const before = c.received.length;
    expect(await s.app.bus.request(serialNumber, { action: 'Reset', payload: { type: 'Medium' } })).toMatchObject({
      kind: 'error',
      code: 'PropertyConstraintViolation',
    });
    expect(await s.app.bus.request(serialNumber, { action: 'BrewCoffee', payload: {} })).toMatchObject({
      kind: 'error',
      code: 'NotImplemented',
    });
    expect(c.received.length).toBe(before);
    await c.close();
  });

  it('times out when the charger does not answer, logs its late answer, and says offline without a socket', async () => {
    const { c, serialNumber } = await connect();
    let lateId = '';
    c.onCall = (_a, _p, id) => {
      lateId = id;
      return undefined;
    };
    expect(await s.app.bus.request(serialNumber, { action: 'ClearCache', payload: {}, timeoutMs: 200 })).toEqual({ kind: 'timeout' });
    c.ws.send(JSON.stringify([3, lateId, { status: 'Accepted' }]));
    // The socket is still usable after the timeout.
    c.onCall = () => ({ status: 'Accepted' });
    expect(await s.app.bus.request(serialNumber, { action: 'ClearCache', payload: {} })).toMatchObject({ kind: 'result' });
    await s.app.ocpp.flush();
    const late = await s.database.db
      .select()
      .from(ocppLog)
      .where(and(eq(ocppLog.serialNumber, serialNumber), eq(ocppLog.messageId, lateId)))
      .orderBy(asc(ocppLog.id));
    expect(late.map((r) => [r.direction, r.messageType, r.action])).toEqual([
      ['out', 2, 'ClearCache'],
      ['in', 3, 'ClearCache'],
    ]);

    // Closing mid-call answers offline; afterwards nobody serves the charger.
    c.onCall = () => {
      void c.close();
      return undefined;
    };
    expect(await s.app.bus.request(serialNumber, { action: 'ClearCache', payload: {} })).toEqual({ kind: 'offline' });
    await eventually(async () => !(await s.app.bus.isServed(serialNumber)));
    expect(await s.app.bus.request(serialNumber, { action: 'ClearCache', payload: {} })).toEqual({ kind: 'offline' });
  });

  it('changes several keys of a 1.6 charger one ChangeConfiguration after another within one time limit; after one unanswered, the rest are not sent', async () => {
    const { c, serialNumber } = await connect();
    const asked: unknown[] = [];
    c.onCall = (action, payload) => {
      asked.push([action, payload]);
      return payload.key === 'HeartbeatInterval'
        ? { status: 'RebootRequired' }
        : payload.key === 'Silent'
          ? undefined
          : { status: 'Accepted' };
    };
    const changes = (...keys: string[]) => ({ changes: keys.map((key) => ({ key, value: '1' })) });
    const keys = ['HeartbeatInterval', 'MeterValueSampleInterval'];
    expect(await s.app.bus.request(serialNumber, { action: 'ChangeConfigurations', payload: changes(...keys) })).toEqual({
      kind: 'result',
      payload: {
        results: [
          { key: 'HeartbeatInterval', reply: { kind: 'result', payload: { status: 'RebootRequired' } } },
          { key: 'MeterValueSampleInterval', reply: { kind: 'result', payload: { status: 'Accepted' } } },
        ],
      },
    });
    expect(asked).toEqual(keys.map((key) => ['ChangeConfiguration', { key, value: '1' }]));
    asked.length = 0;
    const r = await s.app.bus.request(serialNumber, {
      action: 'ChangeConfigurations',
      payload: changes('WebSocketPingInterval', 'Silent', 'ClockAlignedDataInterval'),
      timeoutMs: 300,
    });
    expect(r).toEqual({
      kind: 'result',
      payload: {
        results: [
          { key: 'WebSocketPingInterval', reply: { kind: 'result', payload: { status: 'Accepted' } } },
          { key: 'Silent', reply: { kind: 'timeout' } },
          {
            key: 'ClockAlignedDataInterval',
            reply: expect.objectContaining({ kind: 'error', messageKey: 'errors.pointAction.notSentAfterFailure' }),
          },
        ],
      },
    });
    expect(asked.map((x) => (x as [string, { key: string }])[1].key)).toEqual(['WebSocketPingInterval', 'Silent']);
    await c.close();
    await eventually(async () => !(await s.app.bus.isServed(serialNumber)));
    expect(await s.app.bus.request(serialNumber, { action: 'ChangeConfigurations', payload: changes(...keys) })).toEqual({
      kind: 'offline',
    });
  });

  it('records a start the charger makes after an accepted RemoteStartTransaction as remote', async () => {
    const { c, serialNumber } = await connect();
    const [k] = await s.database.db
      .insert(card)
      .values({
        providerId: 1,
        cardNumber: 'REMOTE-1',
        physicalId: 'REMOTE1',
        balanceCents: 1000,
        expireAt: new Date(Date.now() + 86_400_000),
      })
      .returning();
    c.onCall = () => ({ status: 'Accepted' });
    await s.app.bus.request(serialNumber, { action: 'RemoteStartTransaction', payload: { idTag: k!.physicalId, connectorId: 1 } });
    const remote = await c.ok<{ transactionId: number }>('StartTransaction', {
      connectorId: 1,
      idTag: k!.physicalId,
      meterStart: 0,
      timestamp: iso(),
    });
    const local = await c.ok<{ transactionId: number }>('StartTransaction', {
      connectorId: 2,
      idTag: 'SWIPED',
      meterStart: 0,
      timestamp: iso(),
    });
    const rows = await s.database.db.select().from(chargingTransaction).where(eq(chargingTransaction.id, remote.transactionId));
    expect(rows[0]!.startType).toBe('remote');
    const other = await s.database.db.select().from(chargingTransaction).where(eq(chargingTransaction.id, local.transactionId));
    expect(other[0]!.startType).toBe('card');
    await c.close();
  });
});
