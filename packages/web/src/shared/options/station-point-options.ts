import { api } from '@csms/contract';
import { useQuery } from '@tanstack/react-query';
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

/** The points of one station (`getPoints`) with their connectors, for forms that pick a station and then its points. */
export function useStationPoints(stationId: number | undefined) {
  return useQuery({
    queryKey: [api.point.options.path, 'station', stationId],
    queryFn: ({ signal }) => call(api.point.options, { body: { stationId } }, { signal }),
    enabled: stationId !== undefined,
  });
}

export const pointLabel = (p: { serialNumber: string; pointName: string }) => `${p.serialNumber} · ${p.pointName}`;
