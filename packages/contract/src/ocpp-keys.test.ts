import { describe, expect, it } from 'vitest';
import { ocppKeyInfo, ocppValueProblem } from './ocpp-keys.js';
import { translate } from './i18n/index.js';

const problem = (key: string, value: string) => ocppValueProblem(key, value)?.message ?? null;

describe('OCPP 1.6 configuration values', () => {
  it('passes values that fit the key, and any value of a vendor key', () => {
    expect(problem('HeartbeatInterval', '300')).toBeNull();
    expect(problem('LocalPreAuthorize', 'false')).toBeNull();
    expect(problem('MeterValuesSampledData', 'Energy.Active.Import.Register, Power.Active.Import,SoC')).toBeNull();
    expect(problem('MeterValuesSampledData', '')).toBeNull();
    expect(problem('ConnectorPhaseRotation', '0.RST,1.RTS,2.Unknown')).toBeNull();
    expect(problem('LightIntensity', '100')).toBeNull();
    expect(problem('AcmeVendorThing', 'anything at all')).toBeNull();
    // Names are case-sensitive in OCPP: another case is a vendor's key.
    expect(ocppKeyInfo('heartbeatinterval')).toBeUndefined();
  });

  it('names the rule a value breaks', () => {
    expect(problem('NumberOfConnectors', '2')).toBe('validation.ocppKeyReadonly');
    expect(problem('LocalPreAuthorize', 'yes')).toBe('validation.ocppKeyBoolean');
    expect(problem('HeartbeatInterval', '-5')).toBe('validation.ocppKeyInteger');
    expect(problem('HeartbeatInterval', '1.5')).toBe('validation.ocppKeyInteger');
    expect(problem('LightIntensity', '101')).toBe('validation.ocppKeyInteger');
    expect(problem('SecurityProfile', '4')).toBe('validation.ocppKeyInteger');
    expect(problem('ConnectorPhaseRotation', 'RST')).toBe('validation.ocppKeyPerConnector');
    expect(problem('CpoName', '  ')).toBe('validation.ocppKeyEmpty');
  });

  it("leaves the charger's password to the point's Send new key, in either version's name", () => {
    for (const key of ['AuthorizationKey', 'authorizationkey', 'SecurityCtrlr.BasicAuthPassword'])
      expect(problem(key, '0123456789abcdef0123')).toBe('validation.ocppKeyBySendKey');
    const p = ocppValueProblem('AuthorizationKey', 'x')!;
    expect(translate('en', p.message, p.params)).toContain('Send new key');
    expect(translate('zh', p.message, p.params)).toContain('下发新密钥');
  });

  it('says which item of a list is wrong, in both languages', () => {
    const p = ocppValueProblem('StopTxnSampledData', 'Energy.Active.Import.Register,Watts')!;
    expect(translate('en', p.message, p.params)).toContain('"Watts" is not one of its values');
    expect(translate('zh', p.message, p.params)).toContain('“Watts”不是可选项');
  });
});
