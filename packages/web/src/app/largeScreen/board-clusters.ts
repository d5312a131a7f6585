import type { BoardStation } from '@csms/contract';
import Supercluster from 'supercluster';
import { BOARD_STATES, stationState, type BoardState } from './board-state';

/** What a cluster of stations shows: how many, the most urgent state among them, and their power. */
export interface ClusterFigures {
  stations: number;
  /** Index into BOARD_STATES: the lowest (a fault first) of the stations inside. */
  worst: number;
  powerW: number;
  charging: number;
  connectors: number;
}

export type StationFeature = Supercluster.PointFeature<{ station: BoardStation }>;
export type ClusterFeature = Supercluster.ClusterFeature<ClusterFigures>;

/**
 * The stations grouped by supercluster for the map's zoom: near ones merge into one circle that
 * says how many and shows the most urgent state inside (a fault is never hidden in a cluster).
 */
export function clusterIndex(stations: BoardStation[]) {
  const index = new Supercluster<{ station: BoardStation }, ClusterFigures>({
    radius: 24,
    maxZoom: 16,
    map: ({ station }) => ({
      stations: 1,
      worst: BOARD_STATES.indexOf(stationState(station)),
      powerW: station.powerW,
      charging: station.charging,
      connectors: station.connectors,
    }),
    reduce: (acc, p) => {
      acc.stations += p.stations;
      acc.worst = Math.min(acc.worst, p.worst);
      acc.powerW += p.powerW;
      acc.charging += p.charging;
      acc.connectors += p.connectors;
    },
  });
  index.load(
    stations.map((station) => ({
      type: 'Feature',
      properties: { station },
      geometry: { type: 'Point', coordinates: [station.longitude, station.latitude] },
    })),
  );
  return index;
}

export const isCluster = (f: StationFeature | ClusterFeature): f is ClusterFeature => 'cluster' in f.properties;

export const clusterState = (c: ClusterFigures): BoardState => BOARD_STATES[c.worst] ?? 'offline';
