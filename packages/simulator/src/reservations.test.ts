import { describe, expect, it } from 'vitest';
import { chargerFixture } from './testing/charger-fixture.js';
import { settle } from './testing/helpers.js';

const SN = 'CP-RES';
const f = chargerFixture(SN, { connectors: 2 });
const { boot, call, answer, statuses } = f;

const inMinutes = (m: number) => new Date(f.clock.now() + m * 60_000).toISOString();
const reserve = (connectorId: number, idTag: string, reservationId: number, extra: Record<string, unknown> = {}) =>
  answer('ReserveNow', { connectorId, idTag, reservationId, expiryDate: inMinutes(30), ...extra });
const statusOf = (connectorId: number) => f.cp.connector(connectorId).status;

describe('ReserveNow', () => {
  it('reserves an Available connector for one idTag, which then starts there with the reservationId', async () => {
    await boot();
    const profiles = (await call('GetConfiguration', { key: ['SupportedFeatureProfiles'] })).result!.configurationKey as {
      value: string;
    }[];
    expect(profiles[0]!.value.split(',')).toEqual(expect.arrayContaining(['SmartCharging', 'Reservation']));

    const reserved = f.csms.waitFor(SN, 'StatusNotification', (p) => p.connectorId === 1 && p.status === 'Reserved');
    expect(await reserve(1, 'DRIVER-A', 7)).toBe('Accepted');
    await reserved;
    expect(f.cp.connector(1)).toMatchObject({ status: 'Reserved', reservationId: 7 });
    expect(statusOf(2)).toBe('Available');

    // Another driver: refused at the connector, and by a remote start there.
    await expect(f.cp.startCharging(1, 'DRIVER-B')).rejects.toThrow('reserved for another idTag');
    expect(f.csms.of(SN, 'StartTransaction')).toHaveLength(0);
    expect(statusOf(1)).toBe('Reserved'); // the other driver's cable changes nothing
    expect(await answer('RemoteStartTransaction', { connectorId: 1, idTag: 'DRIVER-B' })).toBe('Rejected');

    const started = await f.cp.startCharging(1, 'driver-a'); // idTags ignore case
    expect(started).toMatchObject({ accepted: true, transactionId: 101 });
    expect(f.csms.of(SN, 'StartTransaction')[0]!.payload).toMatchObject({ connectorId: 1, idTag: 'driver-a', reservationId: 7 });
    await settle(f.cp);
    expect(f.cp.connector(1).reservationId).toBeUndefined();
    expect(statuses(1)).toEqual(['Available', 'Reserved', 'Charging']);
    expect(await answer('CancelReservation', { reservationId: 7 })).toBe('Rejected'); // used up
  });

  it('sends a remote start without a connector to the one reserved for its idTag, and others elsewhere', async () => {
    await boot();
    expect(await reserve(2, 'DRIVER-A', 1)).toBe('Accepted');
    const first = f.csms.waitFor(SN, 'StartTransaction');
    expect(await answer('RemoteStartTransaction', { idTag: 'DRIVER-B' })).toBe('Accepted');
    expect((await first).payload).toMatchObject({ connectorId: 1, idTag: 'DRIVER-B' });
    expect((await first).payload.reservationId).toBeUndefined();
    await settle(f.cp);
    expect(await answer('RemoteStartTransaction', { idTag: 'DRIVER-C' })).toBe('Rejected'); // only the reserved one is left
    const second = f.csms.waitFor(SN, 'StartTransaction', (p) => p.connectorId === 2);
    expect(await answer('RemoteStartTransaction', { idTag: 'DRIVER-A' })).toBe('Accepted');
    expect((await second).payload).toMatchObject({ idTag: 'DRIVER-A', reservationId: 1 });
  });

  it('admits the idTags of the parentIdTag the reservation names', async () => {
    await boot();
    const list = {
      listVersion: 1,
      updateType: 'Full',
      localAuthorizationList: [
        { idTag: 'CHILD-1', idTagInfo: { status: 'Accepted', parentIdTag: 'FLEET-9' } },
        { idTag: 'STRANGER', idTagInfo: { status: 'Accepted', parentIdTag: 'OTHER' } },
      ],
    };
    expect(await answer('SendLocalList', list)).toBe('Accepted');
    expect(await reserve(1, 'CHILD-0', 3, { parentIdTag: 'FLEET-9' })).toBe('Accepted');
    await expect(f.cp.startCharging(1, 'STRANGER')).rejects.toThrow('reserved');
    expect(await f.cp.startCharging(1, 'CHILD-1')).toMatchObject({ accepted: true });
    expect(f.csms.of(SN, 'StartTransaction')[0]!.payload).toMatchObject({ idTag: 'CHILD-1', reservationId: 3 });
  });

  it('expires at expiryDate: the connector is Available again', async () => {
    await boot();
    expect(await reserve(1, 'DRIVER-A', 4, { expiryDate: inMinutes(10) })).toBe('Accepted');
    await settle(f.cp);
    f.clock.advance(10 * 60_000 - 1);
    expect(statusOf(1)).toBe('Reserved');
    const available = f.csms.waitFor(
      SN,
      'StatusNotification',
      (p) => p.connectorId === 1 && p.status === 'Available',
      f.csms.received.length,
    );
    f.clock.advance(1);
    await available;
    expect(statuses(1)).toEqual(['Available', 'Reserved', 'Available']);
    expect(await f.cp.startCharging(1, 'DRIVER-B')).toMatchObject({ accepted: true });
  });

  it('replaces a reservation with the same id, and cancels one (Rejected for an unknown id)', async () => {
    await boot();
    expect(await reserve(1, 'DRIVER-A', 5)).toBe('Accepted');
    expect(await reserve(2, 'DRIVER-A', 5)).toBe('Accepted');
    await settle(f.cp);
    expect([statusOf(1), statusOf(2)]).toEqual(['Available', 'Reserved']);
    expect(await answer('CancelReservation', { reservationId: 6 })).toBe('Rejected');
    expect(await answer('CancelReservation', { reservationId: 5 })).toBe('Accepted');
    await settle(f.cp);
    expect(statuses(2)).toEqual(['Available', 'Reserved', 'Available']);
    expect(await answer('CancelReservation', { reservationId: 5 })).toBe('Rejected');
    expect(await answer('CancelReservation', {})).toBe('OccurenceConstraintViolation');
  });

  it('answers Occupied, Faulted, Unavailable or Rejected when it cannot reserve', async () => {
    await boot({ connectors: 3 });
    await f.cp.startCharging(1, 'TAG-1');
    expect(await reserve(1, 'DRIVER-A', 1)).toBe('Occupied'); // Charging
    f.cp.plugIn(2);
    expect(await reserve(2, 'DRIVER-A', 1)).toBe('Occupied'); // Preparing
    await f.cp.unplug(2);
    f.cp.fault(2, 'GroundFailure');
    expect(await reserve(2, 'DRIVER-A', 1)).toBe('Faulted');
    expect(await answer('ChangeAvailability', { connectorId: 3, type: 'Inoperative' })).toBe('Accepted');
    expect(await reserve(3, 'DRIVER-A', 1)).toBe('Unavailable');
    expect(await reserve(0, 'DRIVER-A', 1)).toBe('Occupied'); // no free connector left
    expect(await reserve(4, 'DRIVER-A', 1)).toBe('Rejected'); // no such connector
    f.cp.clearFault(2);
    expect(await reserve(2, 'DRIVER-A', 1, { expiryDate: inMinutes(-1) })).toBe('Rejected'); // already expired
    expect(await reserve(2, 'DRIVER-A', 1)).toBe('Accepted');
    expect(await reserve(2, 'DRIVER-B', 2)).toBe('Occupied'); // reserved for someone else
    expect(await answer('ReserveNow', { connectorId: 2, idTag: 'X', reservationId: 3, expiryDate: 'soon' })).toBe(
      'PropertyConstraintViolation',
    );
  });

  it('answers Rejected for connector 0 when ReserveConnectorZeroSupported is false', async () => {
    await boot({ configuration: { ReserveConnectorZeroSupported: 'false' } });
    expect(await reserve(0, 'DRIVER-A', 1)).toBe('Rejected');
    expect(await reserve(1, 'DRIVER-A', 1)).toBe('Accepted');
  });
});

describe('a reservation of connector 0', () => {
  it('keeps one connector free for its idTag: the last free one shows Reserved and takes only that idTag', async () => {
    await boot();
    expect(await reserve(0, 'DRIVER-A', 9)).toBe('Accepted');
    await settle(f.cp);
    expect([statusOf(0), statusOf(1), statusOf(2)]).toEqual(['Available', 'Available', 'Available']);
    expect(await reserve(0, 'DRIVER-B', 10)).toBe('Accepted'); // two free connectors, two reservations
    expect(await reserve(0, 'DRIVER-C', 11)).toBe('Occupied');
    await settle(f.cp);
    expect([statusOf(1), statusOf(2)]).toEqual(['Reserved', 'Reserved']);
    expect(await answer('CancelReservation', { reservationId: 10 })).toBe('Accepted');
    await settle(f.cp);
    expect([statusOf(1), statusOf(2)]).toEqual(['Available', 'Available']);

    expect(await f.cp.startCharging(1, 'DRIVER-B')).toMatchObject({ accepted: true });
    await settle(f.cp);
    expect(statusOf(2)).toBe('Reserved');
    await expect(f.cp.startCharging(2, 'DRIVER-C')).rejects.toThrow('reserved');
    expect(await answer('RemoteStartTransaction', { connectorId: 2, idTag: 'DRIVER-C' })).toBe('Rejected');
    expect(await f.cp.startCharging(2, 'DRIVER-A')).toMatchObject({ accepted: true });
    expect(f.csms.of(SN, 'StartTransaction').map((r) => [r.payload.idTag, r.payload.reservationId])).toEqual([
      ['DRIVER-B', undefined],
      ['DRIVER-A', 9],
    ]);
    await settle(f.cp);
    expect(statuses(2)).toEqual(['Available', 'Reserved', 'Available', 'Reserved', 'Charging']);
  });
});
