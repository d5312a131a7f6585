import { describe, expect, it } from 'vitest';
import type { ChargingProfile } from './smart-charging.js';
import { chargerFixture } from './testing/charger-fixture.js';
import { reading, settle, tick as tickBy } from './testing/helpers.js';
import { profile, T0 } from './testing/profiles.js';

const SN = 'CP-SMART';
const f = chargerFixture(SN, { connectors: [{ maxPowerW: 11_000 }, { maxPowerW: 11_000 }] });
const { boot, call, answer, statuses } = f;

const set = (connectorId: number, p: ChargingProfile | Record<string, unknown>) =>
  call('SetChargingProfile', { connectorId, csChargingProfiles: p });
const limits = async (connectorId: number, duration = 3600, chargingRateUnit?: 'A' | 'W') => {
  const r = await call('GetCompositeSchedule', { connectorId, duration, ...(chargingRateUnit ? { chargingRateUnit } : {}) });
  const schedule = r.result!.chargingSchedule as { chargingSchedulePeriod: { startPeriod: number; limit: number }[] };
  return schedule.chargingSchedulePeriod.map((p) => [p.startPeriod, p.limit]);
};
const tick = (ms: number) => tickBy(f.clock, f.cp, ms);
const meterValues = (from: number) => f.csms.received.slice(from).filter((r) => r.serial === SN && r.action === 'MeterValues');

const txDefault = (id: number, stackLevel: number, limit: number) => profile(id, 'TxDefaultProfile', stackLevel, [[0, limit]]);

describe('SetChargingProfile', () => {
  it('answers as a charger does: CALLERRORs for malformed profiles, Rejected for ones it cannot take', async () => {
    await boot({ configuration: { MaxChargingProfilesInstalled: '3' } });
    const good = txDefault(1, 0, 7000);
    expect(await answer('SetChargingProfile', { connectorId: 1 })).toBe('OccurenceConstraintViolation');
    expect(await answer('SetChargingProfile', { connectorId: 1, csChargingProfiles: 'all' })).toBe('TypeConstraintViolation');
    expect(await answer('SetChargingProfile', { connectorId: 1, csChargingProfiles: { ...good, stackLevel: 1.5 } })).toBe(
      'TypeConstraintViolation',
    );
    expect(await answer('SetChargingProfile', { connectorId: 1, csChargingProfiles: { ...good, chargingProfileKind: 'Sometimes' } })).toBe(
      'PropertyConstraintViolation',
    );

    const rejected = async (connectorId: number, p: ChargingProfile) =>
      expect((await set(connectorId, p)).result).toEqual({ status: 'Rejected' });
    await rejected(1, profile(2, 'ChargePointMaxProfile', 0, [[0, 7000]])); // only on connector 0
    await rejected(0, profile(2, 'TxProfile', 0, [[0, 7000]]));
    await rejected(1, profile(2, 'TxProfile', 0, [[0, 7000]])); // no transaction
    await rejected(3, good); // no such connector
    await rejected(1, profile(2, 'TxDefaultProfile', 0, [[30, 7000]]));
    await rejected(
      1,
      profile(2, 'TxDefaultProfile', 0, [
        [0, 7000],
        [600, 5000],
        [600, 4000],
      ]),
    );
    await rejected(1, profile(2, 'TxDefaultProfile', 0, [[0, 7000]], { kind: 'Recurring' }));
    await rejected(1, profile(2, 'TxDefaultProfile', 11, [[0, 7000]])); // ChargeProfileMaxStackLevel 10
    await rejected(
      1,
      profile(
        2,
        'TxDefaultProfile',
        0,
        Array.from({ length: 25 }, (_, i) => [i * 60, 7000] as [number, number]),
      ),
    );

    expect((await set(1, good)).result).toEqual({ status: 'Accepted' });
    expect((await set(0, profile(2, 'ChargePointMaxProfile', 0, [[0, 20_000]]))).result).toEqual({ status: 'Accepted' });
    expect((await set(2, txDefault(3, 0, 8000))).result).toEqual({ status: 'Accepted' });
    await rejected(2, txDefault(4, 1, 8000)); // MaxChargingProfilesInstalled 3
    expect((await set(2, txDefault(4, 0, 6000))).result).toEqual({ status: 'Accepted' }); // replaces number 3: still three
    expect(await limits(1)).toEqual([[0, 7000]]);
    expect(await limits(2)).toEqual([[0, 6000]]);
  });

  it('refuses a rate unit the point does not take (ChargingScheduleAllowedChargingRateUnit)', async () => {
    await boot({ configuration: { ChargingScheduleAllowedChargingRateUnit: 'Power' } });
    expect((await set(1, profile(1, 'TxDefaultProfile', 0, [[0, 16]], { unit: 'A' }))).result).toEqual({ status: 'Rejected' });
    expect((await set(1, profile(1, 'TxDefaultProfile', 0, [[0, 7000]], { unit: 'W' }))).result).toEqual({ status: 'Accepted' });
  });

  it('replaces a profile with the same id, and one with the same stack level and purpose on the same connector', async () => {
    await boot();
    expect((await set(1, txDefault(1, 0, 7000))).result).toEqual({ status: 'Accepted' });
    expect((await set(2, txDefault(1, 0, 8000))).result).toEqual({ status: 'Accepted' }); // id 1 moves to connector 2
    expect(await limits(1)).toEqual([[0, 11_000]]);
    expect(await limits(2)).toEqual([[0, 8000]]);
    expect((await set(2, txDefault(2, 0, 6000))).result).toEqual({ status: 'Accepted' }); // same level and purpose: id 1 goes
    expect(await limits(2)).toEqual([[0, 6000]]);
    expect(await answer('ClearChargingProfile', { id: 1 })).toBe('Unknown');
    expect((await set(1, txDefault(3, 0, 5000))).result).toEqual({ status: 'Accepted' }); // another connector: both stay
    expect(await limits(1)).toEqual([[0, 5000]]);
    expect(await limits(2)).toEqual([[0, 6000]]);
  });

  it('takes a TxProfile for the transaction in progress only, and drops it when the transaction ends', async () => {
    await boot();
    const { transactionId } = await f.cp.startCharging(1, 'TAG-1');
    expect(transactionId).toBe(101);
    const tx = (id: number, transactionId?: number) =>
      profile(id, 'TxProfile', 0, [[0, 4000]], { kind: 'Relative', ...(transactionId ? { transactionId } : {}) });
    expect((await set(1, tx(1, 999))).result).toEqual({ status: 'Rejected' });
    expect((await set(2, tx(1))).result).toEqual({ status: 'Rejected' });
    expect((await set(1, tx(1, 101))).result).toEqual({ status: 'Accepted' });
    expect(await limits(1)).toEqual([[0, 4000]]);
    await f.cp.stopCharging(1);
    await settle(f.cp);
    expect(await limits(1)).toEqual([[0, 11_000]]);
    expect(await answer('ClearChargingProfile', { id: 1 })).toBe('Unknown');
  });
});

describe('ClearChargingProfile', () => {
  it('clears by id, by connector, purpose and stack level, or everything; Unknown when nothing matches', async () => {
    await boot();
    const install = async () => {
      for (const [connectorId, p] of [
        [0, profile(1, 'ChargePointMaxProfile', 0, [[0, 9000]])],
        [0, txDefault(2, 0, 8000)],
        [1, txDefault(3, 1, 7000)],
        [2, txDefault(4, 1, 6000)],
      ] as const)
        expect((await set(connectorId, p)).result).toEqual({ status: 'Accepted' });
    };
    await install();
    expect([await limits(1), await limits(2), await limits(0)]).toEqual([[[0, 7000]], [[0, 6000]], [[0, 9000]]]);

    expect(await answer('ClearChargingProfile', { id: 9 })).toBe('Unknown');
    // With an id the other criteria do not count.
    expect(await answer('ClearChargingProfile', { id: 3, connectorId: 2 })).toBe('Accepted');
    expect(await limits(1)).toEqual([[0, 8000]]);
    expect(await answer('ClearChargingProfile', { connectorId: 2, stackLevel: 0 })).toBe('Unknown');
    expect(await answer('ClearChargingProfile', { connectorId: 2, stackLevel: 1 })).toBe('Accepted');
    expect(await limits(2)).toEqual([[0, 8000]]);
    expect(await answer('ClearChargingProfile', { chargingProfilePurpose: 'ChargePointMaxProfile' })).toBe('Accepted');
    expect(await limits(0)).toEqual([[0, 16_000]]);
    expect(await answer('ClearChargingProfile', { chargingProfilePurpose: 'TxProfile' })).toBe('Unknown');
    expect(await answer('ClearChargingProfile', { chargingProfilePurpose: 'Some' })).toBe('PropertyConstraintViolation');

    await install();
    expect(await answer('ClearChargingProfile', {})).toBe('Accepted');
    expect(await answer('ClearChargingProfile', {})).toBe('Unknown');
    expect(await limits(0)).toEqual([[0, 22_000]]);
  });
});

describe('GetCompositeSchedule', () => {
  it('answers the composite of the installed profiles from now, in W or A, with periods merged', async () => {
    await boot();
    f.clock.advance(30 * 60_000);
    expect((await set(0, profile(1, 'ChargePointMaxProfile', 0, [[0, 9000]], { start: T0 + 3_600_000 }))).result).toEqual({
      status: 'Accepted',
    });
    expect(
      (
        await set(
          1,
          profile(
            2,
            'TxDefaultProfile',
            0,
            [
              [0, 16],
              [600, 16],
              [1200, 10],
            ],
            { unit: 'A', start: T0 },
          ),
        )
      ).result,
    ).toEqual({ status: 'Accepted' });
    const r = await call('GetCompositeSchedule', { connectorId: 1, duration: 7200, chargingRateUnit: 'A' });
    expect(r.result).toEqual({
      status: 'Accepted',
      connectorId: 1,
      scheduleStart: '2026-01-01T00:30:00.000Z',
      chargingSchedule: {
        duration: 7200,
        startSchedule: '2026-01-01T00:30:00.000Z',
        chargingRateUnit: 'A',
        // 10 A is 6900 W, under the 9000 W the point may draw from 01:00
        chargingSchedulePeriod: [{ startPeriod: 0, limit: 10, numberPhases: 3 }],
      },
    });
    expect(await limits(1, 7200, 'W')).toEqual([[0, 6900]]);
    expect(await limits(0, 7200, 'W')).toEqual([
      [0, 17_900],
      [1800, 9000],
    ]);
    expect(await answer('GetCompositeSchedule', { connectorId: 1, duration: -1 })).toBe('PropertyConstraintViolation');
  });
});

describe('charging under a profile', () => {
  it('draws only what the profile allows, suspends (SuspendedEVSE) at 0 and resumes when the limit rises', async () => {
    await boot({ meterValueSampleInterval: 60 });
    await f.cp.startCharging(1, 'TAG-1');
    await tick(60_000);
    const first = meterValues(0).at(-1)!.payload;
    expect(reading(first, 'Power.Active.Import')).toBe(11_000);
    expect(reading(first, 'Energy.Active.Import.Register')).toBe(183);

    const from = f.csms.received.length;
    const stepped = profile(
      1,
      'TxProfile',
      0,
      [
        [0, 6000],
        [120, 0],
        [240, 4000],
      ],
      { start: f.clock.now() },
    );
    expect((await set(1, stepped)).result).toEqual({ status: 'Accepted' });
    expect(f.cp.connector(1)).toMatchObject({ powerW: 6000, limitW: 6000 });
    await tick(60_000); // 00:02
    const limited = meterValues(from).at(-1)!.payload;
    expect(reading(limited, 'Power.Active.Import')).toBe(6000);
    expect(reading(limited, 'Current.Offered')).toBe(8.7); // 6000 W on 3 × 230 V
    expect(reading(limited, 'Energy.Active.Import.Register')).toBe(283);

    await tick(60_000); // 00:03: the limit drops to 0
    expect(f.cp.connector(1)).toMatchObject({ status: 'SuspendedEVSE', powerW: 0 });
    await tick(60_000); // 00:04
    const suspended = meterValues(from).at(-1)!.payload;
    expect(reading(suspended, 'Power.Active.Import')).toBe(0);
    expect(reading(suspended, 'Energy.Active.Import.Register')).toBe(383);

    await tick(60_000); // 00:05: 4 kW
    expect(f.cp.connector(1)).toMatchObject({ status: 'Charging', powerW: 4000 });
    await tick(60_000);
    expect(reading(meterValues(from).at(-1)!.payload, 'Energy.Active.Import.Register')).toBe(450);
    expect(statuses(1).slice(-3)).toEqual(['Charging', 'SuspendedEVSE', 'Charging']);
    for (const mv of meterValues(from)) expect(reading(mv.payload, 'Power.Active.Import')).toBeLessThanOrEqual(6000);

    expect(await answer('ClearChargingProfile', { id: 1 })).toBe('Accepted');
    await settle(f.cp);
    expect(f.cp.connector(1)).toMatchObject({ status: 'Charging', powerW: 11_000 });
    expect(f.cp.connector(1).limitW).toBeUndefined();
  });

  it('installs the TxProfile of a RemoteStartTransaction for the new transaction, and rejects another purpose', async () => {
    await boot();
    const chargingProfile = profile(5, 'TxProfile', 0, [[0, 16, 1]], { unit: 'A', kind: 'Relative' });
    const wrong = { ...chargingProfile, chargingProfilePurpose: 'TxDefaultProfile' };
    expect(await answer('RemoteStartTransaction', { connectorId: 1, idTag: 'R-1', chargingProfile: wrong })).toBe('Rejected');
    expect(
      await answer('RemoteStartTransaction', { connectorId: 1, idTag: 'R-1', chargingProfile: { ...chargingProfile, stackLevel: 'x' } }),
    ).toBe('TypeConstraintViolation');
    const start = f.csms.waitFor(SN, 'StartTransaction');
    expect(await answer('RemoteStartTransaction', { connectorId: 1, idTag: 'R-1', chargingProfile })).toBe('Accepted');
    await start;
    await settle(f.cp);
    expect(f.cp.connector(1)).toMatchObject({ status: 'Charging', powerW: 3680, limitW: 3680 }); // 16 A on one phase
    const r = await call('GetCompositeSchedule', { connectorId: 1, duration: 60, chargingRateUnit: 'A' });
    expect(r.result).toMatchObject({ chargingSchedule: { chargingSchedulePeriod: [{ startPeriod: 0, limit: 16, numberPhases: 1 }] } });
    await f.cp.stopCharging(1);
    expect(await answer('ClearChargingProfile', { id: 5 })).toBe('Unknown');
  });

  it('shares the ChargePointMaxProfile among the connectors that charge', async () => {
    await boot();
    expect((await set(0, profile(1, 'ChargePointMaxProfile', 0, [[0, 10_000]]))).result).toEqual({ status: 'Accepted' });
    await f.cp.startCharging(1, 'TAG-1');
    expect(f.cp.connector(1).powerW).toBe(10_000);
    await f.cp.startCharging(2, 'TAG-2');
    expect([f.cp.connector(1).powerW, f.cp.connector(2).powerW]).toEqual([5000, 5000]);
    expect((await set(2, profile(2, 'TxProfile', 0, [[0, 2000]], { kind: 'Relative' }))).result).toEqual({ status: 'Accepted' });
    await settle(f.cp);
    expect([f.cp.connector(1).powerW, f.cp.connector(2).powerW]).toEqual([8000, 2000]);
    await f.cp.stopCharging(2);
    expect(f.cp.connector(1).powerW).toBe(10_000);
  });
});
