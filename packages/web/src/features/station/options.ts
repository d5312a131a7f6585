import { countryCodes, countryName, timeZones, providerApi } from '@csms/contract';
import i18n from 'i18next';
import { call } from '../../shared/api/client';
import type { RemoteOptions } from '../../shared/resource/types';

/** Providers the caller can see (`getAllProviders`), for the station's provider. */
export const providerOptions: RemoteOptions = {
  key: 'providers',
  load: async () => (await call(providerApi.options, { query: {} })).map((p) => ({ value: p.id, label: p.providerName })),
};

const uiLang = () => (i18n.language?.startsWith('zh') ? 'zh' : 'en');

/** ISO 3166 countries named in the UI language by the browser (`Intl.DisplayNames`), sorted by name. */
export const countryOptions: RemoteOptions = {
  key: 'countries',
  load: async () => {
    const lang = uiLang();
    return countryCodes
      .map((code) => ({ value: code, label: `${countryName(code, lang)} (${code})` }))
      .sort((a, b) => a.label.localeCompare(b.label, lang === 'zh' ? 'zh-CN' : 'en'));
  },
};

/** IANA time zones the browser knows, with their current UTC offset. */
export const timeZoneOptions: RemoteOptions = {
  key: 'timeZones',
  load: async () => timeZones().map((zone) => ({ value: zone, label: `${zone} (${utcOffset(zone)})` })),
};

function utcOffset(zone: string): string {
  try {
    const part = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'shortOffset' })
      .formatToParts(new Date())
      .find((p) => p.type === 'timeZoneName');
    return part?.value ?? 'GMT';
  } catch {
    return 'GMT';
  }
}
