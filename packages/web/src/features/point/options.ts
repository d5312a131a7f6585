import { api } from '@csms/contract';
import { call } from '../../shared/api/client';
import type { RemoteOptions } from '../../shared/resource/types';

/** Stations the caller can see (`getStations`: provider scope and bound stations), for the point's station. */
export const stationOptions: RemoteOptions = {
  key: 'stations',
  load: async () => (await call(api.station.options, { body: {} })).map((s) => ({ value: s.id, label: s.stationName })),
};
