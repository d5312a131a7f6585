import { AimOutlined, EnvironmentFilled, MinusOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Space } from 'antd';
import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { MAX_ZOOM, MIN_ZOOM, project, round6, tileUrl, unproject, visibleTiles, type WorldPoint } from './mercator';

export interface MapPickerProps {
  /** XYZ tile template (`CSMS_MAP_TILE_URL`). */
  template: string;
  value?: { lon: number; lat: number };
  onPick: (lon: number, lat: number) => void;
  height?: number;
}

const DRAG_THRESHOLD = 4;

/**
 * A small slippy map without a map library: a grid of tile images placed by Web-Mercator
 * arithmetic. Click sets the coordinates, drag pans, the buttons zoom.
 */
export function MapPicker({ template, value, onPick, height = 340 }: MapPickerProps) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(400);
  const [zoom, setZoom] = useState(value ? 14 : 2);
  const [center, setCenter] = useState<WorldPoint>(() => project(value?.lon ?? 0, value?.lat ?? 20, value ? 14 : 2));
  const drag = useRef<{ x: number; y: number; from: WorldPoint; moved: boolean } | null>(null);
  const picked = useRef<string | null>(null);
  const zoomNow = useRef(zoom);
  zoomNow.current = zoom;

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => setWidth(el.clientWidth || 400);
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  // Coordinates typed into the form (or loaded) bring the map to them; a click on the map does not move it.
  const lon = value?.lon;
  const lat = value?.lat;
  useEffect(() => {
    if (lon === undefined || lat === undefined) return;
    const key = `${lon},${lat}`;
    if (picked.current === key) return;
    picked.current = key;
    const next = Math.max(zoomNow.current, 12);
    setZoom(next);
    setCenter(project(lon, lat, next));
  }, [lon, lat]);

  const zoomTo = (next: number) => {
    const z = Math.max(MIN_ZOOM, Math.min(MAX_ZOOM, next));
    const here = unproject(center.x, center.y, zoom);
    setZoom(z);
    setCenter(project(here.lon, here.lat, z));
  };

  const offset = (e: PointerEvent) => {
    const r = box.current!.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  };
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    e.currentTarget.setPointerCapture?.(e.pointerId);
    drag.current = { ...offset(e), from: center, moved: false };
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d) return;
    const p = offset(e);
    const dx = p.x - d.x;
    const dy = p.y - d.y;
    if (Math.abs(dx) + Math.abs(dy) > DRAG_THRESHOLD) d.moved = true;
    if (d.moved) setCenter({ x: d.from.x - dx, y: d.from.y - dy });
  };
  const onPointerUp = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    drag.current = null;
    if (!d || d.moved) return;
    const p = offset(e);
    const spot = unproject(center.x - width / 2 + p.x, center.y - height / 2 + p.y, zoom);
    const next = { lon: round6(spot.lon), lat: round6(spot.lat) };
    picked.current = `${next.lon},${next.lat}`;
    onPick(next.lon, next.lat);
  };

  const left0 = center.x - width / 2;
  const top0 = center.y - height / 2;
  const marker = value ? project(value.lon, value.lat, zoom) : null;
  return (
    <div
      ref={box}
      data-testid="map-picker"
      style={{
        position: 'relative',
        height,
        overflow: 'hidden',
        borderRadius: 8,
        background: '#dfe6e9',
        cursor: 'crosshair',
        touchAction: 'none',
        userSelect: 'none',
      }}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={() => (drag.current = null)}
    >
      {visibleTiles(center, zoom, width, height).map((tile) => (
        <img
          key={`${zoom}:${tile.key}`}
          src={tileUrl(template, zoom, tile.x, tile.y)}
          alt=""
          draggable={false}
          width={256}
          height={256}
          style={{ position: 'absolute', left: tile.left, top: tile.top, pointerEvents: 'none' }}
        />
      ))}
      {marker && (
        <EnvironmentFilled
          data-testid="map-marker"
          style={{
            position: 'absolute',
            left: marker.x - left0 - 14,
            top: marker.y - top0 - 28,
            fontSize: 28,
            color: '#e74c3c',
            pointerEvents: 'none',
            filter: 'drop-shadow(0 1px 2px rgba(0,0,0,.4))',
          }}
        />
      )}
      <Space.Compact
        orientation="vertical"
        style={{ position: 'absolute', right: 8, top: 8 }}
        onPointerDown={(e) => e.stopPropagation()}
        onPointerUp={(e) => e.stopPropagation()}
      >
        <Button size="small" icon={<PlusOutlined />} aria-label={t('station.zoomIn')} onClick={() => zoomTo(zoom + 1)} />
        <Button size="small" icon={<MinusOutlined />} aria-label={t('station.zoomOut')} onClick={() => zoomTo(zoom - 1)} />
        {value && (
          <Button
            size="small"
            icon={<AimOutlined />}
            aria-label={t('station.centerOnPoint')}
            onClick={() => setCenter(project(value.lon, value.lat, zoom))}
          />
        )}
      </Space.Compact>
    </div>
  );
}
