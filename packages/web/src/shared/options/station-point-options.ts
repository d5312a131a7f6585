import { api } from '@csms/contract';
import { call } from '../api/client';
import type { RemoteOptions } from '../resource/types';

/** Stations the caller can see (`getStations`), for pickers; one cached list for every screen. */
export const stationOptions: RemoteOptions = {
  key: 'stationOptions',
  load: async () => (await call(api.station.options, { body: {} })).map((s) => ({ value: s.id, label: s.stationName })),
};

/** Points the caller can see (`getPoints`), labelled by serial number and name. */
export const pointOptions: RemoteOptions = {
  key: 'pointOptions',
  load: async () =>
    (await call(api.point.options, { body: {} })).map((p) => ({ value: p.id, label: `${p.serialNumber} · ${p.pointName}` })),
};
