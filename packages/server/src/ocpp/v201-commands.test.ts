import { describe, expect, it } from 'vitest';
import type { PointState, TxState } from './registry.js';
import type { Payload } from './rpc.js';
import { ocpp16Validator, ocpp201Validator } from './validator.js';
import { translateCommand } from './v201-commands.js';

/**
 * Each console command a 2.0.1 charger can get, as its 2.0.1 request (which must pass OCA's 2.0.1
 * schema, as the session checks before sending) and a schema-valid 2.0.1 answer read back as a
 * schema-valid 1.6 answer (what the console's modules expect). Answers only 2.0.1 has (Reset
 * Scheduled, Unlock's ongoing transaction) become words of the console's vocabulary instead.
 */
const v16 = ocpp16Validator();
const v201 = ocpp201Validator();

const tx = { id: 41, ocppTxId: 'abc-41' } as TxState;
const session = { point: { transactions: new Map([[41, tx]]) } as unknown as PointState };

const profile16 = {
  chargingProfileId: 7,
  stackLevel: 1,
  chargingProfilePurpose: 'TxDefaultProfile',
  chargingProfileKind: 'Absolute',
  validFrom: '2026-01-01T00:00:00Z',
  chargingSchedule: {
    duration: 3600,
    startSchedule: '2026-01-01T00:00:00Z',
    chargingRateUnit: 'A',
    chargingSchedulePeriod: [{ startPeriod: 0, limit: 16, numberPhases: 3 }],
  },
};

const cases: [string, Payload, Payload][] = [
  [
    'RemoteStartTransaction',
    { idTag: 'CARD1', connectorId: 1, chargingProfile: { ...profile16, chargingProfilePurpose: 'TxProfile' } },
    { status: 'Accepted' },
  ],
  ['RemoteStopTransaction', { transactionId: 41 }, { status: 'Rejected' }],
  ['Reset', { type: 'Hard' }, { status: 'Accepted' }],
  ['UnlockConnector', { connectorId: 2 }, { status: 'UnknownConnector' }],
  ['ChangeAvailability', { connectorId: 0, type: 'Operative' }, { status: 'Accepted' }],
  ['ClearCache', {}, { status: 'Rejected' }],
  ['TriggerMessage', { requestedMessage: 'DiagnosticsStatusNotification' }, { status: 'Accepted' }],
  ['DataTransfer', { vendorId: 'com.example', messageId: 'm', data: 'x' }, { status: 'UnknownVendorId' }],
  ['GetLocalListVersion', {}, { versionNumber: 3 }],
  [
    'SendLocalList',
    {
      listVersion: 4,
      updateType: 'Differential',
      localAuthorizationList: [
        { idTag: 'CARD1', idTagInfo: { status: 'Accepted', expiryDate: '2027-01-01T00:00:00Z' } },
        { idTag: 'GONE' },
      ],
    },
    { status: 'VersionMismatch' },
  ],
  [
    'ReserveNow',
    { connectorId: 1, expiryDate: '2026-01-01T01:00:00Z', idTag: 'CARD1', reservationId: 9, parentIdTag: 'ACCT' },
    { status: 'Occupied' },
  ],
  ['CancelReservation', { reservationId: 9 }, { status: 'Accepted' }],
  ['SetChargingProfile', { connectorId: 0, csChargingProfiles: profile16 }, { status: 'Accepted' }],
  ['ClearChargingProfile', { id: 7, connectorId: 1, chargingProfilePurpose: 'TxDefaultProfile', stackLevel: 1 }, { status: 'Unknown' }],
  [
    'GetCompositeSchedule',
    { connectorId: 1, duration: 600, chargingRateUnit: 'W' },
    {
      status: 'Accepted',
      schedule: {
        evseId: 1,
        duration: 600,
        scheduleStart: '2026-01-01T00:00:00Z',
        chargingRateUnit: 'W',
        chargingSchedulePeriod: [{ startPeriod: 0, limit: 11000 }],
      },
    },
  ],
  ['UpdateFirmware', { location: 'https://x.example/fw.bin', retrieveDate: '2026-01-01T00:00:00Z', retries: 2 }, { status: 'Accepted' }],
  ['GetDiagnostics', { location: 'ftp://x.example/logs/', startTime: '2026-01-01T00:00:00Z' }, { status: 'Accepted', filename: 'log.zip' }],
  [
    'GetConfiguration',
    { key: ['HeartbeatInterval', 'NoSuchKey', 'OCPPCommCtrlr.WebSocketPingInterval'] },
    {
      getVariableResult: [
        {
          attributeStatus: 'Accepted',
          attributeValue: '300',
          component: { name: 'OCPPCommCtrlr' },
          variable: { name: 'HeartbeatInterval' },
        },
        { attributeStatus: 'UnknownVariable', component: { name: 'OCPPCommCtrlr' }, variable: { name: 'WebSocketPingInterval' } },
      ],
    },
  ],
  [
    'ChangeConfiguration',
    { key: 'MeterValueSampleInterval', value: '30' },
    {
      setVariableResult: [
        { attributeStatus: 'UnknownVariable', component: { name: 'SampledDataCtrlr' }, variable: { name: 'TxUpdatedInterval' } },
      ],
    },
  ],
];

describe('console commands to an OCPP 2.0.1 charger', () => {
  for (const [action, request, answer] of cases) {
    it(`${action}: a schema-valid 2.0.1 request, and its answer as a schema-valid 1.6 answer`, () => {
      expect(v16.validate(action, 'req', request), 'the 1.6 sample itself').toBeNull();
      const t = translateCommand(session, action, request);
      if ('reply' in t) throw new Error(`${action} was not sent`);
      expect(v201.validate(t.action, 'req', t.payload), JSON.stringify(t.payload)).toBeNull();
      expect(v201.validate(t.action, 'conf', answer), 'the 2.0.1 sample answer').toBeNull();
      const back = t.back(answer);
      if ('kind' in back) return;
      expect(v16.validate(action, 'conf', back), JSON.stringify(back)).toBeNull();
    });
  }

  it('reads the answers in the console’s words', () => {
    const read = (action: string, request: Payload, answer: Payload) => {
      const t = translateCommand(session, action, request);
      if ('reply' in t) throw new Error('not sent');
      return t.back(answer);
    };
    expect(read('Reset', { type: 'Soft' }, { status: 'Scheduled' })).toEqual({ status: 'Scheduled' });
    expect(read('UnlockConnector', { connectorId: 1 }, { status: 'OngoingAuthorizedTransaction' })).toEqual({ status: 'Occupied' });
    expect(read('GetLocalListVersion', {}, { versionNumber: 0 })).toEqual({ listVersion: 0 });
    expect(read('ChangeConfiguration', { key: 'X.Y', value: '1' }, { setVariableResult: [{ attributeStatus: 'RebootRequired' }] })).toEqual(
      {
        status: 'RebootRequired',
      },
    );
    expect(read('UpdateFirmware', { location: 'https://x', retrieveDate: '2026-01-01T00:00:00Z' }, { status: 'Rejected' })).toMatchObject({
      kind: 'error',
    });
    expect(read('GetConfiguration', { key: ['NoSuchKey', 'HeartbeatInterval'] }, { getVariableResult: [] })).toEqual({
      configurationKey: [],
      unknownKey: ['NoSuchKey'],
    });
  });

  it('answers without asking the charger what it cannot be asked', () => {
    // A session the charger never named (no transactionId known): Rejected.
    expect(translateCommand(session, 'RemoteStopTransaction', { transactionId: 99 })).toEqual({
      reply: { kind: 'result', payload: { status: 'Rejected' } },
    });
    // A key with no 2.0.1 variable.
    expect(translateCommand(session, 'ChangeConfiguration', { key: 'NoSuchKey', value: '1' })).toEqual({
      reply: { kind: 'result', payload: { status: 'NotSupported' } },
    });
    expect(translateCommand(session, 'GetConfiguration', { key: ['NoSuchKey'] })).toEqual({
      reply: { kind: 'result', payload: { configurationKey: [], unknownKey: ['NoSuchKey'] } },
    });
    expect(translateCommand(session, 'ChangeMeterPolicy', {})).toMatchObject({
      reply: { kind: 'error', code: 'NotSupported', messageKey: 'errors.pointAction.notInVersion', params: { version: '2.0.1' } },
    });
  });
});
