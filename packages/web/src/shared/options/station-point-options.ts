import { stationApi, pointApi } from '@csms/contract';
import { useQuery } from '@tanstack/react-query';
import { Form } from 'antd';
import { call } from '../api/client';
import type { FormFieldCtx, RemoteOptions } from '../resource/types';

/** Stations the caller can see (`getStations`), for pickers; one cached list for every screen. */
export const stationOptions: RemoteOptions = {
  key: 'stationOptions',
  load: async () => (await call(stationApi.options, { body: {} })).map((s) => ({ value: s.id, label: s.stationName })),
};

/** Points the caller can see (`getPoints`), labelled by serial number and name. */
export const pointOptions: RemoteOptions = {
  key: 'pointOptions',
  load: async () => (await call(pointApi.options, { body: {} })).map((p) => ({ value: p.id, label: `${p.serialNumber} · ${p.pointName}` })),
};

/** What else narrows a point picker: the model and the firmware version the chargers reported. */
export interface PointNarrowing {
  model?: string | undefined;
  firmwareVersion?: string | undefined;
}

/**
 * The points of one station (`getPoints`) with their connectors, for forms that pick a station and
 * then its points; with `narrow`, only that model or firmware version (then no station is needed).
 */
export function useStationPoints(stationId: number | undefined, narrow: PointNarrowing = {}) {
  const { model, firmwareVersion } = narrow;
  return useQuery({
    queryKey: [pointApi.options.path, 'station', stationId, model, firmwareVersion],
    queryFn: ({ signal }) => call(pointApi.options, { body: { stationId, model, firmwareVersion } }, { signal }),
    enabled: stationId !== undefined || !!model || !!firmwareVersion,
  });
}

export const pointLabel = (p: { serialNumber: string; pointName: string }) => `${p.serialNumber} · ${p.pointName}`;

/** In a form with `stationId` and `serialNumber`: the station's points, and the one chosen once they are loaded. */
export function useChosenPoint(form: FormFieldCtx['form']) {
  const stationId = Form.useWatch('stationId', form) as number | undefined;
  const serialNumber = Form.useWatch('serialNumber', form) as string | undefined;
  const { data, isFetching } = useStationPoints(stationId);
  return { stationId, points: data ?? [], isFetching, point: data?.find((p) => p.serialNumber === serialNumber) };
}
