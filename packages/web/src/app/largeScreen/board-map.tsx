import type { BoardStation } from '@csms/contract';
import type { FeatureCollection } from 'geojson';
import { latLngBounds } from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CircleMarker, GeoJSON, MapContainer, Pane, TileLayer, Tooltip, useMap } from 'react-leaflet';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { formatKw, formatMoney } from '../../shared/format/units';
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

/**
 * The stations on a map (Leaflet), each a circle coloured by its state now (fault, charging, free,
 * offline) and sized by the power it draws; the tooltip gives its figures. Over the configured tiles,
 * else over the country outlines shipped with the console, so that it works without the internet.
 */
export default function BoardMap({ stations, tileUrl }: { stations: BoardStation[]; tileUrl: string }) {
  const { t } = useTranslation();
  const [outlines, setOutlines] = useState<FeatureCollection | null>(null);
  useEffect(() => {
    if (tileUrl) return;
    let alive = true;
    void loadOutlines().then((o) => alive && setOutlines(o));
    return () => {
      alive = false;
    };
  }, [tileUrl]);
  const maxPower = useMemo(() => Math.max(1, ...stations.map((s) => s.powerW)), [stations]);

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
        {stations.map((s) => {
          const state = stationState(s);
          return (
            <CircleMarker
              key={s.stationId}
              center={[s.latitude, s.longitude]}
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
      </MapContainer>
    </div>
  );
}
