import { describe, expect, it } from 'vitest';
import { loggable } from './session.js';

const token = 'ab'.repeat(32);

describe('what the OCPP log keeps of a frame', () => {
  it('masks the upload and package locations of both OCPP versions, and leaves other frames alone', () => {
    expect(loggable('GetDiagnostics', { location: `ftp://diag3:${token}@10.0.0.5:2121/`, retries: 1 })).toEqual({
      location: 'ftp://diag3:***@10.0.0.5:2121/',
      retries: 1,
    });
    expect(loggable('UpdateFirmware', { location: `https://c.example/files/firmware/${token}/fw.bin`, retrieveDate: 'x' })).toEqual({
      location: 'https://c.example/files/firmware/***/fw.bin',
      retrieveDate: 'x',
    });
    expect(
      loggable('GetLog', {
        logType: 'DiagnosticsLog',
        requestId: 4,
        log: { remoteLocation: `https://c.example/files/diagnostics/${token}` },
      }),
    ).toEqual({
      logType: 'DiagnosticsLog',
      requestId: 4,
      log: { remoteLocation: 'https://c.example/files/diagnostics/***' },
    });
    expect(
      loggable('UpdateFirmware', { requestId: 5, firmware: { location: `ftp://firmware:${token}@h/fw.bin`, retrieveDateTime: 'y' } }),
    ).toEqual({
      requestId: 5,
      firmware: { location: 'ftp://firmware:***@h/fw.bin', retrieveDateTime: 'y' },
    });
    const meter = { connectorId: 1, meterValue: [] };
    expect(loggable('MeterValues', meter)).toBe(meter);
    expect(loggable('GetLog', { logType: 'SecurityLog' })).toEqual({ logType: 'SecurityLog' });
  });
});
