import type { BoardStation } from '@csms/contract';
import type { FeatureCollection } from 'geojson';
import { divIcon, latLngBounds } from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CircleMarker, GeoJSON, MapContainer, Marker, Pane, TileLayer, Tooltip, useMap, useMapEvents } from 'react-leaflet';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { formatKw, formatMoney } from '../../shared/format/units';
import { clusterIndex, clusterState, isCluster } from './board-clusters';
import { boardColors, stationState } from './board-state';

/** Country outlines (world-atlas, 1:110m), the base map when no tile server is configured. */
async function loadOutlines(): Promise<FeatureCollection> {
  const topo = (await import('world-atlas/countries-110m.json')).default as unknown as Topology<{ countries: GeometryCollection }>;
  return feature(topo, topo.objects.countries) as FeatureCollection;
}

/** Brings every station into view once they are known (and again when the set of stations changes). */
function FitStations({ stations, maxZoom }: { stations: BoardStation[]; maxZoom: number }) {
  const map = useMap();
  const key = stations.map((s) => s.stationId).join(',');
  useEffect(() => {
    if (stations.length === 0) return;
    const bounds = latLngBounds(stations.map((s) => [s.latitude, s.longitude]));
    map.fitBounds(bounds.pad(0.2), { maxZoom });
    // Only when the set changes: live status updates must not move the view.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [map, key]);
  return null;
}

/** The map's view: the stations' clusters are cut for it. */
function useView() {
  const map = useMap();
  const read = () => {
    const b = map.getBounds();
    return {
      zoom: Math.round(map.getZoom()),
      bbox: [b.getWest(), b.getSouth(), b.getEast(), b.getNorth()] as [number, number, number, number],
    };
  };
  const [view, setView] = useState(read);
  useMapEvents({ moveend: () => setView(read()), zoomend: () => setView(read()) });
  return view;
}

/**
 * The stations at the map's zoom: a circle per station (coloured by its state, sized by its power),
 * or per cluster of near ones (the most urgent state inside, the count written on it; a click
 * zooms in until it splits).
 */
function StationMarkers({ stations }: { stations: BoardStation[] }) {
  const { t } = useTranslation();
  const map = useMap();
  const { zoom, bbox } = useView();
  const index = useMemo(() => clusterIndex(stations), [stations]);
  const maxPower = useMemo(() => Math.max(1, ...stations.map((s) => s.powerW)), [stations]);
  const features = index.getClusters(bbox, zoom);
  return (
    <>
      {features.map((f) => {
        const [lng, lat] = f.geometry.coordinates as [number, number];
        if (isCluster(f)) {
          const c = f.properties;
          const size = Math.round(28 + 8 * Math.log10(c.stations));
          return (
            <Marker
              key={`c${f.properties.cluster_id}`}
              position={[lat, lng]}
              icon={divIcon({
                className: '',
                iconSize: [size, size],
                html: `<div data-testid="board-cluster" style="width:${size}px;height:${size}px;border-radius:50%;background:${boardColors[clusterState(c)]};border:2px solid #fff;color:#fff;font-weight:600;display:flex;align-items:center;justify-content:center">${c.stations}</div>`,
              })}
              eventHandlers={{ click: () => map.flyTo([lat, lng], index.getClusterExpansionZoom(c.cluster_id)) }}
            >
              <Tooltip>
                {t('largeScreen.cluster', { count: c.stations })}
                <br />
                {t(`largeScreen.state.${clusterState(c)}`)}
                <br />
                {t('largeScreen.clusterFigures', { charging: c.charging, connectors: c.connectors, power: formatKw(c.powerW) })}
              </Tooltip>
            </Marker>
          );
        }
        const s = f.properties.station;
        const state = stationState(s);
        return (
          <CircleMarker
            key={s.stationId}
            center={[lat, lng]}
            radius={7 + 9 * Math.sqrt(s.powerW / maxPower)}
            pathOptions={{ color: '#fff', weight: 1, fillColor: boardColors[state], fillOpacity: 0.9 }}
          >
            <Tooltip>
              <strong>{s.stationName}</strong>
              <br />
              {t(`largeScreen.state.${state}`)}
              <br />
              {t('largeScreen.tooltip', {
                charging: s.charging,
                connectors: s.connectors,
                power: formatKw(s.powerW),
                income: formatMoney(s.incomeCents),
              })}
            </Tooltip>
          </CircleMarker>
        );
      })}
    </>
  );
}

/**
 * The stations on a map (Leaflet), clustered where they crowd (StationMarkers): each a circle coloured by its state now (fault, charging, free,
 * offline) and sized by the power it draws; the tooltip gives its figures. Over the configured tiles,
 * else over the country outlines shipped with the console, so that it works without the internet.
 */
export default function BoardMap({ stations, tileUrl }: { stations: BoardStation[]; tileUrl: string }) {
  const [outlines, setOutlines] = useState<FeatureCollection | null>(null);
  useEffect(() => {
    if (tileUrl) return;
    let alive = true;
    void loadOutlines().then((o) => alive && setOutlines(o));
    return () => {
      alive = false;
    };
  }, [tileUrl]);

  return (
    <div style={{ height: '100%', width: '100%' }} data-testid="board-map">
      <MapContainer
        center={[30, 110]}
        zoom={3}
        minZoom={2}
        maxZoom={18}
        zoomControl={false}
        attributionControl={false}
        style={{ height: '100%', width: '100%', background: '#0b1e33' }}
      >
        {tileUrl ? (
          <TileLayer url={tileUrl} maxZoom={18} />
        ) : (
          // Below the stations, which load first and would otherwise be drawn over.
          <Pane name="outlines" style={{ zIndex: 250 }}>
            {outlines && (
              <GeoJSON data={outlines} interactive={false} style={{ color: '#2f6f9f', weight: 1, fillColor: '#12324f', fillOpacity: 1 }} />
            )}
          </Pane>
        )}
        {/* The outlines are coarse: without tiles the view stays far enough out for them to tell where the stations are. */}
        <FitStations stations={stations} maxZoom={tileUrl ? 13 : 7} />
        <StationMarkers stations={stations} />
      </MapContainer>
    </div>
  );
}
