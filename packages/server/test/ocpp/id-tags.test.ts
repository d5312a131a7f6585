import { api, type CardDto } from '@csms/contract';
import { createChargePoint, type ChargePoint } from '@csms/simulator';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargingTransaction } from '../../src/db/schema.js';
import { startServer, type TestServer } from '../harness.js';
import { createPoint, eventually } from './support.js';

/*
 * idTags as OCPP 1.6 defines them (IdToken, CiString20): a card whose physical id is a contract id
 * is issued over HTTP, swiped at a simulated charger and started remotely, all over real sockets.
 */

let s: TestServer;
let admin: string;
let sim: ChargePoint;
let serialNumber: string;
beforeAll(async () => {
  s = await startServer();
  admin = await s.login();
  const p = await createPoint(s.database.db, { providerId: 1, connectors: 2 });
  serialNumber = p.serialNumber;
  sim = createChargePoint({
    url: `${s.url.replace(/^http/, 'ws')}/ocpp`,
    serialNumber,
    key: p.key!,
    connectors: 2,
    // No periodic or clock-aligned samples: the test reads the transaction's start only.
    meterValueSampleInterval: 0,
    clockAlignedDataInterval: 0,
  });
  sim.start();
  await sim.ready();
});
afterAll(async () => {
  await sim?.stop();
  await s.close();
});

const issue = (physicalId: string, cardNumber: string) =>
  s.call<CardDto>('POST', api.card.add.path, {
    token: admin,
    body: {
      cardNumber,
      physicalId,
      providerId: 1,
      expireTime: new Date(Date.now() + 365 * 86_400_000).toISOString(),
      prepaidCents: 10_000,
      email: 'driver@example.test',
    },
  });

describe('idTags are OCPP IdTokens', () => {
  it('issues NL-TNM-C12345678-X, a charger authorises it in any case, and a remote start sends it as issued', async () => {
    const issued = await issue('  NL-TNM-C12345678-X ', 'CONTRACT-1');
    expect(issued).toMatchObject({ code: 200, data: { physicalId: 'NL-TNM-C12345678-X' } });
    // Unique without regard to case.
    expect(await issue('nl-tnm-c12345678-x', 'CONTRACT-2')).toMatchObject({ code: 409, data: { field: 'physicalId' } });

    // The charger's reader reports it as printed, or lower-cased: both are the card.
    expect(await sim.swipe('NL-TNM-C12345678-X')).toMatchObject({ status: 'Accepted' });
    expect(await sim.swipe('nl-tnm-c12345678-x')).toMatchObject({ status: 'Accepted' });

    // The operator types it in lower case; the charger gets it as issued and starts.
    const r = await s.call<{ status: string; idTag: string }>('POST', api.pointAction.remoteStart.path, {
      token: admin,
      body: { serialNumber, connectorId: 1, idTag: 'nl-tnm-c12345678-x' },
    });
    expect(r).toMatchObject({ code: 200, data: { status: 'accepted', idTag: 'NL-TNM-C12345678-X' } });
    // Started once the charger has the server's answer to its StartTransaction.
    const transactionId = await eventually(() => Promise.resolve(sim.connector(1).transactionId));
    expect(sim.connector(1).idTag).toBe('NL-TNM-C12345678-X');
    const [tx] = await s.database.db.select().from(chargingTransaction).where(eq(chargingTransaction.id, transactionId));
    expect(tx).toMatchObject({
      idTag: 'NL-TNM-C12345678-X',
      startType: 'remote',
      authStatus: 'Accepted',
      cardId: issued.data.id,
      connectorNo: 1,
    });
    await sim.stopCharging(1);
  });

  it('issues app tokens, lower-case and short tags, and the reader’s hex UIDs, and authorises each', async () => {
    for (const [tag, no] of [
      ['APP-4471', 'APP-1'],
      ['driver.app_7', 'APP-2'],
      ['K9', 'SHORT-1'],
      ['04A1B2C3D4E5F6', 'UID-1'],
    ] as const) {
      expect(await issue(tag, no), tag).toMatchObject({ code: 200, data: { physicalId: tag } });
      expect(await sim.swipe(tag), tag).toMatchObject({ status: 'Accepted' });
    }
    expect(await sim.swipe('NO-SUCH-TAG')).toMatchObject({ status: 'Invalid' });
  });
});
