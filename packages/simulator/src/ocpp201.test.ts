import { createRequire } from 'node:module';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import type { Payload } from './ocpp.js';
import { createWireTranslator, meterValues201 } from './ocpp201.js';
import { schemaErrors } from './testing/fake-csms.js';

/** OCA's 2.0.1 schemas (ocpp-rpc's copy), as the 1.6 ones in the fake CSMS. */
const require = createRequire(import.meta.url);
const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;
const ajv = new Ajv({ strict: false, allErrors: true, multipleOfPrecision: 6 });
addFormats(ajv);
for (const { $id, ...schema } of require('ocpp-rpc/lib/schemas/ocpp2_0_1.json') as { $id: string }[])
  ajv.addSchema(schema, `v201:${$id.replace(/^urn:/, '')}`);
function errors201(id: string, payload: unknown): string | null {
  const v = ajv.getSchema(`v201:${id}`) as ValidateFunction | undefined;
  if (!v) return `no schema ${id}`;
  return v(payload) ? null : ajv.errorsText(v.errors);
}

const at = '2026-01-01T00:00:00.000Z';

describe('the simulator on the OCPP 2.0.1 wire', () => {
  it('sends its 1.6 calls as schema-valid 2.0.1 ones, a transaction as TransactionEvents of one transactionId, and reads the answers back', () => {
    const t = createWireTranslator();
    const sent: [string, Payload][] = [];
    const out = (action: string, payload: Payload, answer: Payload) => {
      expect(schemaErrors(`${action}.req`, payload), `1.6 ${action}`).toBeNull();
      const x = t.outgoing(action, payload);
      expect(errors201(`${x.action}.req`, x.payload), `${x.action} ${JSON.stringify(x.payload)}`).toBeNull();
      expect(errors201(`${x.action}.conf`, answer), `${x.action} answer`).toBeNull();
      sent.push([x.action, x.payload]);
      const back = x.back(answer);
      expect(schemaErrors(`${action}.conf`, back), `1.6 ${action} answer ${JSON.stringify(back)}`).toBeNull();
      return back;
    };
    out(
      'BootNotification',
      { chargePointVendor: 'V', chargePointModel: 'M', chargePointSerialNumber: 'S', firmwareVersion: '1' },
      {
        status: 'Accepted',
        currentTime: at,
        interval: 60,
      },
    );
    out('StatusNotification', { connectorId: 1, errorCode: 'NoError', status: 'Charging', timestamp: at }, {});
    expect(out('Authorize', { idTag: 'CARD' }, { idTokenInfo: { status: 'NoCredit' } })).toEqual({ idTagInfo: { status: 'Invalid' } });
    const started = out(
      'StartTransaction',
      { connectorId: 2, idTag: 'CARD', meterStart: 100, timestamp: at },
      { idTokenInfo: { status: 'Accepted' } },
    );
    const n = started.transactionId as number;
    out(
      'MeterValues',
      {
        connectorId: 2,
        transactionId: n,
        meterValue: [
          {
            timestamp: at,
            sampledValue: [
              { value: '150', measurand: 'Energy.Active.Import.Register', unit: 'Wh' },
              { value: '31', measurand: 'Temperature', unit: 'Celsius' },
              { value: '16.5', measurand: 'Current.Import', phase: 'L1', unit: 'A' },
            ],
          },
        ],
      },
      {},
    );
    // Meter values sent on a TriggerMessage (context Trigger) are the Updated of a trigger.
    out(
      'MeterValues',
      {
        connectorId: 2,
        transactionId: n,
        meterValue: [{ timestamp: at, sampledValue: [{ value: '160', context: 'Trigger', unit: 'Wh' }] }],
      },
      {},
    );
    out('StopTransaction', { transactionId: n, meterStop: 200, timestamp: at, reason: 'HardReset', idTag: 'CARD' }, {});
    out('DiagnosticsStatusNotification', { status: 'UploadFailed' }, {});
    const events = sent
      .filter(([a]) => a === 'TransactionEvent')
      .map(([, p]) => p as { eventType: string; seqNo: number; triggerReason: string; transactionInfo: Payload });
    expect(events.map((e) => [e.eventType, e.seqNo, e.triggerReason])).toEqual([
      ['Started', 0, 'Authorized'],
      ['Updated', 1, 'MeterValuePeriodic'],
      ['Updated', 2, 'Trigger'],
      ['Ended', 3, 'ResetCommand'],
    ]);
    expect(new Set(events.map((e) => e.transactionInfo.transactionId)).size).toBe(1);
    expect(events[3]!.transactionInfo.stoppedReason).toBe('ImmediateReset');
    expect(sent.at(-1)).toEqual(['LogStatusNotification', { status: 'UploadFailure' }]);
  });

  it('leaves out what 2.0.1 cannot carry (temperatures, signed data)', () => {
    const mv = meterValues201([
      {
        timestamp: at,
        sampledValue: [
          { value: '20', measurand: 'Temperature' },
          { value: 'x', format: 'SignedData' },
        ],
      },
      { timestamp: at, sampledValue: [{ value: '7.4', measurand: 'Power.Active.Import', unit: 'kW' }] },
    ]);
    expect(mv).toEqual([
      { timestamp: at, sampledValue: [{ value: 7.4, measurand: 'Power.Active.Import', unitOfMeasure: { unit: 'kW' } }] },
    ]);
  });

  it('takes the CSMS’s 2.0.1 calls as schema-valid 1.6 ones and answers them in 2.0.1', () => {
    const t = createWireTranslator();
    const profile = {
      id: 3,
      stackLevel: 0,
      chargingProfilePurpose: 'TxDefaultProfile',
      chargingProfileKind: 'Absolute',
      chargingSchedule: [{ id: 3, chargingRateUnit: 'A', startSchedule: at, chargingSchedulePeriod: [{ startPeriod: 0, limit: 10 }] }],
    };
    const cases: [string, Payload, Payload][] = [
      ['RequestStartTransaction', { idToken: { idToken: 'CARD', type: 'ISO14443' }, remoteStartId: 5, evseId: 1 }, { status: 'Accepted' }],
      ['Reset', { type: 'Immediate' }, { status: 'Accepted' }],
      ['UnlockConnector', { evseId: 1, connectorId: 1 }, { status: 'NotSupported' }],
      ['ChangeAvailability', { operationalStatus: 'Inoperative', evse: { id: 1 } }, { status: 'Scheduled' }],
      ['ClearCache', {}, { status: 'Accepted' }],
      ['TriggerMessage', { requestedMessage: 'LogStatusNotification' }, { status: 'Accepted' }],
      ['TriggerMessage', { requestedMessage: 'TransactionEvent', evse: { id: 1 } }, { status: 'Accepted' }],
      ['DataTransfer', { vendorId: 'v', data: { a: 1 } }, { status: 'UnknownVendorId' }],
      ['GetLocalListVersion', {}, { listVersion: 2 }],
      [
        'SendLocalList',
        {
          versionNumber: 3,
          updateType: 'Full',
          localAuthorizationList: [{ idToken: { idToken: 'CARD', type: 'ISO14443' }, idTokenInfo: { status: 'Accepted' } }],
        },
        { status: 'Accepted' },
      ],
      ['ReserveNow', { id: 4, expiryDateTime: at, idToken: { idToken: 'CARD', type: 'ISO14443' }, evseId: 1 }, { status: 'Accepted' }],
      ['CancelReservation', { reservationId: 4 }, { status: 'Rejected' }],
      ['SetChargingProfile', { evseId: 0, chargingProfile: profile }, { status: 'Accepted' }],
      ['ClearChargingProfile', { chargingProfileId: 3 }, { status: 'Unknown' }],
      [
        'GetCompositeSchedule',
        { duration: 60, evseId: 1 },
        {
          status: 'Accepted',
          connectorId: 1,
          scheduleStart: at,
          chargingSchedule: { chargingRateUnit: 'A', chargingSchedulePeriod: [{ startPeriod: 0, limit: 10 }] },
        },
      ],
      ['UpdateFirmware', { requestId: 1, firmware: { location: 'https://x/fw', retrieveDateTime: at } }, {}],
      ['GetLog', { logType: 'DiagnosticsLog', requestId: 2, log: { remoteLocation: 'ftp://x/' } }, { fileName: 'd.zip' }],
      [
        'GetVariables',
        { getVariableData: [{ component: { name: 'OCPPCommCtrlr' }, variable: { name: 'HeartbeatInterval' } }] },
        { configurationKey: [{ key: 'HeartbeatInterval', readonly: false, value: '60' }] },
      ],
    ];
    for (const [action, payload, answer16] of cases) {
      expect(errors201(`${action}.req`, payload), `2.0.1 ${action}`).toBeNull();
      const x = t.incoming(action, payload);
      if ('reply' in x) throw new Error(`${action} answered without the point`);
      expect(schemaErrors(`${x.action}.req`, x.payload), `${x.action} ${JSON.stringify(x.payload)}`).toBeNull();
      expect(schemaErrors(`${x.action}.conf`, answer16), `${x.action} answer`).toBeNull();
      const back = x.back(answer16);
      expect(errors201(`${action}.conf`, back), `2.0.1 ${action} answer ${JSON.stringify(back)}`).toBeNull();
    }
    // Several variables at once: the point's own call for several keys (no 1.6 message has it), each key's answer back.
    const setData = [
      { component: { name: 'OCPPCommCtrlr' }, variable: { name: 'HeartbeatInterval' }, attributeValue: '30' },
      { component: { name: 'SampledDataCtrlr' }, variable: { name: 'TxUpdatedInterval' }, attributeValue: '10' },
      { component: { name: 'SimulatorCtrlr' }, variable: { name: 'Nope' }, attributeValue: '1' },
    ];
    const set = t.incoming('SetVariables', { setVariableData: setData });
    expect(set).toMatchObject({
      action: 'ChangeConfigurations',
      payload: {
        changes: [
          { key: 'HeartbeatInterval', value: '30' },
          { key: 'MeterValueSampleInterval', value: '10' },
          { key: 'Nope', value: '1' },
        ],
      },
    });
    const setBack = (set as { back: (p: Payload) => Payload }).back({
      results: [
        { key: 'HeartbeatInterval', status: 'Accepted' },
        { key: 'MeterValueSampleInterval', status: 'RebootRequired' },
        { key: 'Nope', status: 'NotSupported' },
      ],
    });
    expect(errors201('SetVariables.conf', setBack)).toBeNull();
    expect((setBack.setVariableResult as { attributeStatus: string }[]).map((r) => r.attributeStatus)).toEqual([
      'Accepted',
      'RebootRequired',
      'UnknownVariable',
    ]);
    // One EVSE's reset: the point's Reset of that connector (no 1.6 schema has it), Scheduled on idle read back as is.
    const evse = t.incoming('Reset', { type: 'OnIdle', evseId: 2 });
    expect(evse).toMatchObject({ action: 'Reset', payload: { type: 'Soft', connectorId: 2 } });
    expect(errors201('Reset.conf', (evse as { back: (p: Payload) => Payload }).back({ status: 'Scheduled' }))).toBeNull();
    // A transaction it never started cannot be stopped; an action it does not know is NotImplemented.
    expect(t.incoming('RequestStopTransaction', { transactionId: 'nope' })).toEqual({ reply: { status: 'Rejected' } });
    expect(() => t.incoming('GetStatus', {})).toThrow(/not implemented/);
  });

  it('hands GetTransactionStatus to the point with the transaction’s number; one it never numbered is neither ongoing nor waiting', () => {
    const t = createWireTranslator();
    const started = t.outgoing('StartTransaction', { connectorId: 1, idTag: 'CARD', meterStart: 0, timestamp: at });
    const n = started.back({ transactionId: 0, idTagInfo: { status: 'Accepted' } }).transactionId;
    const id = (started.payload.transactionInfo as { transactionId: string }).transactionId;
    for (const [req, handed] of [
      [{ transactionId: id }, { transactionId: n }],
      [{}, {}],
    ] as const) {
      expect(errors201('GetTransactionStatus.req', req)).toBeNull();
      const x = t.incoming('GetTransactionStatus', req);
      if ('reply' in x) throw new Error('answered without the point');
      expect(x).toMatchObject({ action: 'GetTransactionStatus', payload: handed });
      const answer = { ...('transactionId' in req ? { ongoingIndicator: true } : {}), messagesInQueue: true };
      expect(errors201('GetTransactionStatus.conf', x.back(answer))).toBeNull();
    }
    const unknown = t.incoming('GetTransactionStatus', { transactionId: 'nope' });
    expect(unknown).toEqual({ reply: { ongoingIndicator: false, messagesInQueue: false } });
    expect(errors201('GetTransactionStatus.conf', (unknown as { reply: Payload }).reply)).toBeNull();
  });

  it('answers GetBaseReport with its configuration as NotifyReports, and reads and writes each key by the variable reported', () => {
    const t = createWireTranslator();
    const keys = [
      { key: 'HeartbeatInterval', readonly: false, value: '300' },
      { key: 'NumberOfConnectors', readonly: true, value: '2' },
      ...Array.from({ length: 25 }, (_, i) => ({ key: `Vendor${i}`, readonly: false, value: String(i) })),
    ];
    const req = { requestId: 7, reportBase: 'ConfigurationInventory' };
    expect(errors201('GetBaseReport.req', req)).toBeNull();
    const x = t.incoming('GetBaseReport', req);
    if ('reply' in x) throw new Error('answered without the point');
    expect(schemaErrors(`${x.action}.req`, x.payload)).toBeNull();
    const answer16 = { configurationKey: keys };
    expect(schemaErrors(`${x.action}.conf`, answer16)).toBeNull();
    expect(errors201('GetBaseReport.conf', x.back(answer16))).toBeNull();
    const calls = x.then!(answer16);
    expect(calls.map((c) => [c.action, c.payload.seqNo, c.payload.tbc])).toEqual([
      ['NotifyReport', 0, true],
      ['NotifyReport', 1, undefined],
    ]);
    for (const c of calls) expect(errors201('NotifyReport.req', c.payload), JSON.stringify(c.payload)).toBeNull();
    type Item = { component: { name: string }; variable: { name: string }; variableAttribute: { value?: string; mutability?: string }[] };
    const items = calls.flatMap((c) => c.payload.reportData as Item[]);
    expect(items).toHaveLength(keys.length);
    expect(items[0]).toMatchObject({
      component: { name: 'OCPPCommCtrlr' },
      variable: { name: 'HeartbeatInterval' },
      variableAttribute: [{ value: '300', mutability: 'ReadWrite' }],
    });
    expect(items[1]).toMatchObject({ variable: { name: 'NumberOfConnectors' }, variableAttribute: [{ mutability: 'ReadOnly' }] });
    // Each reported variable reads and writes its key.
    const vendor = items[2]!;
    const get = t.incoming('GetVariables', { getVariableData: [{ component: vendor.component, variable: vendor.variable }] });
    expect(get).toMatchObject({ action: 'GetConfiguration', payload: { key: ['Vendor0'] } });
    const set = t.incoming('SetVariables', {
      setVariableData: [{ component: vendor.component, variable: vendor.variable, attributeValue: '9' }],
    });
    expect(set).toMatchObject({ action: 'ChangeConfigurations', payload: { changes: [{ key: 'Vendor0', value: '9' }] } });
    expect(t.incoming('GetBaseReport', { requestId: 8, reportBase: 'SummaryInventory' })).toEqual({ reply: { status: 'NotSupported' } });
  });

  it('answers GetBaseReport FullInventory with its station, EVSEs and connectors before its configuration', () => {
    const t = createWireTranslator(() => ({
      vendor: 'V',
      model: 'M',
      evses: [
        { id: 1, current: 'AC', phases: 3, maxPowerW: 22_000, available: true },
        { id: 2, current: 'DC', phases: 3, maxPowerW: 60_000, available: false },
      ],
    }));
    const x = t.incoming('GetBaseReport', { requestId: 9, reportBase: 'FullInventory' });
    if ('reply' in x) throw new Error('answered without the point');
    const calls = x.then!({ configurationKey: [{ key: 'HeartbeatInterval', readonly: false, value: '300' }] });
    for (const c of calls) expect(errors201('NotifyReport.req', c.payload), JSON.stringify(c.payload)).toBeNull();
    type Item = { component: Payload; variable: { name: string }; variableAttribute: Payload[]; variableCharacteristics: Payload };
    const items = calls.flatMap((c) => c.payload.reportData as Item[]);
    const names = items.map((i) => `${String(i.component.name)}.${i.variable.name}`);
    expect(names.slice(0, 3)).toEqual(['ChargingStation.VendorName', 'ChargingStation.Model', 'ChargingStation.AvailabilityState']);
    expect(names.at(-1)).toBe('OCPPCommCtrlr.HeartbeatInterval');
    expect(items.find((i) => i.variable.name === 'Power' && (i.component.evse as Payload).id === 2)).toMatchObject({
      variableAttribute: [{ type: 'MaxSet', value: '60000', mutability: 'ReadOnly' }],
      variableCharacteristics: { unit: 'W', dataType: 'decimal' },
    });
    expect(items.find((i) => i.variable.name === 'ConnectorType' && (i.component.evse as Payload).id === 2)).toMatchObject({
      component: { name: 'Connector', evse: { id: 2, connectorId: 1 } },
      variableAttribute: [{ value: 'cCCS2' }],
    });
    expect(items.filter((i) => i.variable.name === 'AvailabilityState').map((i) => i.variableAttribute[0]!.value)).toEqual([
      'Available',
      'Available',
      'Available',
      'Unavailable',
      'Unavailable',
    ]);
  });
});
