import { AimOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { divIcon, type Map as LeafletMap } from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MapContainer, Marker, TileLayer, useMap, useMapEvents, ZoomControl } from 'react-leaflet';
import './map-picker.css';

export interface MapPickerProps {
  /** XYZ tile template (`CSMS_MAP_TILE_URL`). */
  template: string;
  value?: { lon: number; lat: number };
  onPick: (lon: number, lat: number) => void;
  height?: number;
}

/** Coordinates as the station form keeps them: 6 decimals (about 0.1 m). */
export const round6 = (v: number) => Math.round(v * 1e6) / 1e6;

/** A pin drawn by CSS (map-picker.css), so that no marker image has to be served; its tip is the place. */
const pin = divIcon({ className: 'csms-map-pin', html: '<div class="csms-map-pin-drop"></div>', iconSize: [22, 22], iconAnchor: [11, 27] });

/** Leaflet keeps the longitude of a click past the antimeridian as is (e.g. 200): back into −180…180. */
const wrapLon = (lon: number) => ((((lon + 180) % 360) + 360) % 360) - 180;

/**
 * The station's map (Leaflet through react-leaflet, DESIGN.md §10): drag and the wheel or a pinch pan
 * and zoom, a click sets the coordinates. Coordinates typed into the form (or loaded) bring the map to
 * them; a click on the map does not move it.
 */
export function MapPicker({ template, value, onPick, height = 340 }: MapPickerProps) {
  const { t } = useTranslation();
  const [map, setMap] = useState<LeafletMap | null>(null);
  return (
    <div data-testid="map-picker" style={{ position: 'relative', height, borderRadius: 8, overflow: 'hidden' }}>
      <MapContainer
        ref={setMap}
        center={value ? [value.lat, value.lon] : [20, 0]}
        zoom={value ? 14 : 2}
        minZoom={1}
        maxZoom={19}
        worldCopyJump
        zoomControl={false}
        attributionControl={false}
        style={{ height: '100%', cursor: 'crosshair' }}
      >
        <TileLayer url={template} maxZoom={19} />
        <ZoomControl position="topright" zoomInTitle={t('station.zoomIn')} zoomOutTitle={t('station.zoomOut')} />
        {value && <Marker position={[value.lat, value.lon]} icon={pin} interactive={false} />}
        <Follow value={value} onPick={onPick} />
      </MapContainer>
      {map && value && (
        <Button
          size="small"
          icon={<AimOutlined />}
          aria-label={t('station.centerOnPoint')}
          title={t('station.centerOnPoint')}
          style={{ position: 'absolute', left: 10, bottom: 10, zIndex: 1000 }}
          onClick={() => map.setView([value.lat, value.lon], map.getZoom())}
        />
      )}
    </div>
  );
}

/** Clicks pick the place; coordinates typed into the form move the view to them. */
function Follow({ value, onPick }: Pick<MapPickerProps, 'value' | 'onPick'>) {
  const map = useMap();
  /** The place the view was last brought to, or picked by a click (which leaves the view as it is). */
  const picked = useRef<string | null>(null);
  useMapEvents({
    click(e) {
      const next = { lon: round6(wrapLon(e.latlng.lng)), lat: round6(e.latlng.lat) };
      picked.current = `${next.lon},${next.lat}`;
      onPick(next.lon, next.lat);
    },
  });
  const lon = value?.lon;
  const lat = value?.lat;
  useEffect(() => {
    if (lon === undefined || lat === undefined) return;
    const key = `${lon},${lat}`;
    if (picked.current === key) return;
    picked.current = key;
    // The map may have been created on them already (this part mounts after the map): leave its zoom be.
    if (map.getCenter().distanceTo([lat, lon]) < 1) return;
    map.setView([lat, lon], Math.max(map.getZoom(), 12));
  }, [map, lon, lat]);
  return null;
}
