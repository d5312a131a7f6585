import { describe, expect, it } from 'vitest';
import { isBadFrame, parseFrame, sniffId } from './rpc.js';
import { ocpp16Validator } from './validator.js';

describe('parseFrame', () => {
  it('reads the three message types', () => {
    expect(parseFrame('[2,"a","Heartbeat",{}]')).toEqual({ type: 2, id: 'a', action: 'Heartbeat', payload: {} });
    expect(parseFrame('[3,"a",{"x":1}]')).toEqual({ type: 3, id: 'a', payload: { x: 1 } });
    expect(parseFrame('[4,"a","NotSupported","no",{}]')).toEqual({
      type: 4,
      id: 'a',
      code: 'NotSupported',
      description: 'no',
      details: {},
    });
    expect(parseFrame('[4,"a","GenericError","no"]')).toMatchObject({ type: 4, details: {} });
  });

  it('never answers a broken response', () => {
    const f = parseFrame('[3,"a",[]]');
    expect(isBadFrame(f) && f.answer).toBe(false);
    const g = parseFrame('[3, "b", {');
    expect(isBadFrame(g) && g).toMatchObject({ id: 'b', answer: false, code: 'FormationViolation' });
  });

  it('sniffs the id of frames that do not parse', () => {
    expect(sniffId('  [ 2 , "abc-1", "Heart')).toEqual({ type: 2, id: 'abc-1' });
    expect(sniffId('[2, 5, "x"]')).toEqual({ type: undefined, id: undefined });
  });
});

describe('the OCPP 1.6 validator', () => {
  const v = ocpp16Validator();
  it('classifies violations as OCPP-J 1.6 §4.2.3 does', () => {
    expect(v.validate('StatusNotification', 'req', { connectorId: 1, errorCode: 'NoError', status: 'Available' })).toBeNull();
    expect(v.validate('StatusNotification', 'req', { connectorId: 1.5, errorCode: 'NoError', status: 'Available' })?.code).toBe(
      'TypeConstraintViolation',
    );
    expect(v.validate('StatusNotification', 'req', { connectorId: 1, errorCode: 'Oops', status: 'Available' })?.code).toBe(
      'PropertyConstraintViolation',
    );
    expect(v.validate('StatusNotification', 'req', { connectorId: 1, errorCode: 'NoError', status: 'Available', x: 1 })?.code).toBe(
      'OccurenceConstraintViolation',
    );
    expect(v.validate('StatusNotification', 'req', [])?.code).toBe('FormationViolation');
    expect(v.validate('Heartbeat.conf', 'req', {})?.code).toBe('NotImplemented');
  });

  it('requires a zone on date-times and accepts fractions', () => {
    expect(v.validate('Heartbeat', 'conf', { currentTime: '2026-01-01T00:00:00.123Z' })).toBeNull();
    expect(v.validate('Heartbeat', 'conf', { currentTime: '2026-01-01T08:00:00+08:00' })).toBeNull();
    expect(v.validate('Heartbeat', 'conf', { currentTime: '2026-01-01T00:00:00' })?.code).toBe('PropertyConstraintViolation');
    expect(v.validate('Heartbeat', 'conf', { currentTime: '2026-13-45T00:00:00Z' })?.code).toBe('PropertyConstraintViolation');
  });
});
