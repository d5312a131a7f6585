import { api } from '@csms/contract';
import { call } from '../../shared/api/client';
import type { RemoteOptions } from '../../shared/resource/types';

/** Stations the caller can see (`getStations`), for the search bar. */
export const stationOptions: RemoteOptions = {
  key: 'chargeRecord.stations',
  load: async () => (await call(api.station.options, { body: {} })).map((s) => ({ value: s.id, label: s.stationName })),
};

/** Points the caller can see (`getPoints`), labelled by serial number and name. */
export const pointOptions: RemoteOptions = {
  key: 'chargeRecord.points',
  load: async () =>
    (await call(api.point.options, { body: {} })).map((p) => ({ value: p.id, label: `${p.serialNumber} · ${p.pointName}` })),
};
