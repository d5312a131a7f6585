import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite } from '../../src/db/client.js';
import { chargingTransaction, meterValue } from '../../src/db/schema.js';
import { iso, TestCharger } from './support.js';

/**
 * DESIGN.md §3, "durable": a StartTransaction answered is committed. The real entry point is
 * killed with SIGKILL right after the reply, restarted on the same data directory, and the
 * session completes and is recorded once.
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'csms-durable-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function start(port: number) {
  let out = '';
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'src/main.ts'], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      CSMS_DATA_DIR: dataDir,
      CSMS_CAPTCHA: 'false',
      CSMS_LOG_LEVEL: 'warn',
      CSMS_WEB_DIST: '',
      DATABASE_URL: '',
      CSMS_ADMIN_PASSWORD: 'admin123',
      // The point registers itself: a second process cannot open the embedded database to insert it.
      CSMS_OCPP_AUTO_REGISTER: 'true',
      // …and charges where it registered, without an operator placing it.
      CSMS_OCPP_PENDING_UNTIL_PLACED: 'false',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const ready = (async () => {
    // Up to 2 minutes, as in main.test.ts: a fresh PGlite migrates on first start, and CI machines are shared.
    for (let i = 0; i < 600; i++) {
      if (child.exitCode !== null) throw new Error(`server exited: ${out}`);
      try {
        const r = await fetch(`http://127.0.0.1:${port}/prod-api/health`);
        if (((await r.json()) as { code: number }).code === 200) return;
      } catch {
        /* not listening yet */
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`server did not start: ${out}`);
  })();
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.on('exit', (code, signal) => resolve(signal ?? code)));
  return { child, ready, exited };
}

describe.skipIf(!!process.env.DATABASE_URL)('durability', () => {
  it(
    'keeps an answered StartTransaction (1.6) and TransactionEvent (2.0.1) across SIGKILL; the end after restart is recorded once',
    { timeout: 180_000 },
    async () => {
      const port = 20000 + Math.floor(Math.random() * 20000);
      const base = `http://127.0.0.1:${port}`;
      const serial = 'DURABLE-1';
      const serial201 = 'DURABLE-2';
      const key = 'durable-password-123';

      const first = start(port);
      await first.ready;
      const c = await TestCharger.connect(base, serial, { key });
      await c.ok('BootNotification', { chargePointVendor: 'V', chargePointModel: 'M' });
      const startReq = { connectorId: 1, idTag: 'ANYTAG', meterStart: 1000, timestamp: iso() };
      const { transactionId } = await c.ok<{ transactionId: number }>('StartTransaction', startReq);
      await c.ok('MeterValues', { connectorId: 1, transactionId, meterValue: [{ timestamp: iso(), sampledValue: [{ value: '1200' }] }] });
      // The same for an OCPP 2.0.1 charger: its TransactionEvents, answered, are committed.
      const c201 = await TestCharger.connect(base, serial201, { key, protocols: ['ocpp2.0.1'] });
      await c201.ok('BootNotification', { reason: 'PowerUp', chargingStation: { model: 'M', vendorName: 'V' } });
      const tx201 = 'durable-tx-1';
      const energy = (value: number, context: string) => ({ value, context, measurand: 'Energy.Active.Import.Register' });
      const started = {
        eventType: 'Started',
        timestamp: iso(),
        triggerReason: 'Authorized',
        seqNo: 0,
        transactionInfo: { transactionId: tx201 },
        idToken: { idToken: 'ANYTAG2', type: 'ISO14443' },
        evse: { id: 1, connectorId: 1 },
        meterValue: [{ timestamp: iso(), sampledValue: [energy(2000, 'Transaction.Begin')] }],
      };
      await c201.ok('TransactionEvent', started);
      await c201.ok('TransactionEvent', {
        eventType: 'Updated',
        timestamp: iso(),
        triggerReason: 'MeterValuePeriodic',
        seqNo: 1,
        transactionInfo: { transactionId: tx201 },
        meterValue: [{ timestamp: iso(), sampledValue: [energy(2300, 'Sample.Periodic')] }],
      });
      // A Started that names no EVSE yet (the driver authorized first): held, answered, then the crash.
      const heldStartedAt = new Date(Date.now() - 30_000).toISOString();
      const tx201b = 'durable-tx-2';
      await c201.ok('TransactionEvent', {
        eventType: 'Started',
        timestamp: heldStartedAt,
        triggerReason: 'Authorized',
        seqNo: 0,
        transactionInfo: { transactionId: tx201b },
        idToken: { idToken: 'ANYTAG3', type: 'ISO14443' },
        meterValue: [{ timestamp: heldStartedAt, sampledValue: [energy(7000, 'Transaction.Begin')] }],
      });
      first.child.kill('SIGKILL');
      expect(await first.exited).toBe('SIGKILL');

      const second = start(port);
      await second.ready;
      const c2 = await TestCharger.connect(base, serial, { key });
      // The charger never saw an answer to its Start? Repeating it gets the same transaction.
      expect((await c2.ok<{ transactionId: number }>('StartTransaction', startReq)).transactionId).toBe(transactionId);
      const stop = { transactionId, meterStop: 1500, timestamp: iso(), reason: 'Local' };
      await c2.ok('StopTransaction', stop);
      await c2.ok('StopTransaction', stop);
      await c2.close();
      const d201 = await TestCharger.connect(base, serial201, { key, protocols: ['ocpp2.0.1'] });
      await d201.ok('TransactionEvent', started);
      const ended = {
        eventType: 'Ended',
        timestamp: iso(),
        triggerReason: 'StopAuthorized',
        seqNo: 2,
        transactionInfo: { transactionId: tx201, stoppedReason: 'Local' },
        meterValue: [{ timestamp: iso(), sampledValue: [energy(2600, 'Transaction.End')] }],
      };
      await d201.ok('TransactionEvent', ended);
      await d201.ok('TransactionEvent', ended);
      // The held Started survived: the session is recorded from it once the EVSE is known.
      for (const [seqNo, eventType, extra] of [
        [1, 'Updated', { triggerReason: 'CablePluggedIn', evse: { id: 1, connectorId: 1 } }],
        [
          2,
          'Ended',
          {
            triggerReason: 'EVCommunicationLost',
            transactionInfo: { transactionId: tx201b, stoppedReason: 'EVDisconnected' },
            meterValue: [{ timestamp: iso(), sampledValue: [energy(7400, 'Transaction.End')] }],
          },
        ],
      ] as const)
        await d201.ok('TransactionEvent', { eventType, timestamp: iso(), seqNo, transactionInfo: { transactionId: tx201b }, ...extra });
      await d201.close();
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);

      const database = await openPglite({ dataDir: path.join(dataDir, 'pglite') });
      try {
        const rows = await database.db.select().from(chargingTransaction).orderBy(chargingTransaction.id);
        expect(rows).toHaveLength(3);
        expect(rows[2]).toMatchObject({
          ocppTxId: 'durable-tx-2',
          idTag: 'ANYTAG3',
          connectorNo: 1,
          startedAt: new Date(heldStartedAt),
          meterStartWh: 7000,
          energyWh: 400,
          stopReason: 'EVDisconnected',
        });
        expect(rows[1]).toMatchObject({
          ocppTxId: 'durable-tx-1',
          meterStartWh: 2000,
          meterStopWh: 2600,
          energyWh: 600,
          stopReason: 'Local',
        });
        const samples201 = await database.db.select().from(meterValue).where(eq(meterValue.transactionId, rows[1]!.id));
        // The Ended's own sample is kept like a 1.6 Stop's transactionData.
        expect(samples201.map((s) => s.energyWh)).toEqual([2300, 2600]);
        expect(rows[0]).toMatchObject({ id: transactionId, meterStartWh: 1000, meterStopWh: 1500, energyWh: 500, stopReason: 'Local' });
        const samples = await database.db.select().from(meterValue).where(eq(meterValue.transactionId, transactionId));
        expect(samples.map((s) => s.energyWh)).toEqual([1200]);
      } finally {
        await database.close();
      }
    },
  );
});
