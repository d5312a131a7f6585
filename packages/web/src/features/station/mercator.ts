/** Web-Mercator (XYZ tiles, 256 px) arithmetic for the slippy map. */
export const TILE_SIZE = 256;
/** Beyond this latitude the Mercator square ends. */
export const MAX_LATITUDE = 85.05112878;
export const MIN_ZOOM = 1;
export const MAX_ZOOM = 19;

export interface WorldPoint {
  x: number;
  y: number;
}

const worldSize = (zoom: number) => TILE_SIZE * 2 ** zoom;

/** Longitude and latitude to pixels of the whole world at `zoom`. */
export function project(lon: number, lat: number, zoom: number): WorldPoint {
  const clamped = Math.max(-MAX_LATITUDE, Math.min(MAX_LATITUDE, lat));
  const rad = (clamped * Math.PI) / 180;
  const size = worldSize(zoom);
  return {
    x: ((lon + 180) / 360) * size,
    y: ((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * size,
  };
}

/** World pixels back to longitude (wrapped into -180…180) and latitude. */
export function unproject(x: number, y: number, zoom: number): { lon: number; lat: number } {
  const size = worldSize(zoom);
  const wrapped = ((x % size) + size) % size;
  const lon = (wrapped / size) * 360 - 180;
  const n = Math.PI * (1 - (2 * Math.max(0, Math.min(size, y))) / size);
  const lat = (Math.atan(Math.sinh(n)) * 180) / Math.PI;
  return { lon, lat };
}

/** An XYZ template (`https://tile.example/{z}/{x}/{y}.png`, optional `{s}` subdomain) filled in. */
export function tileUrl(template: string, z: number, x: number, y: number): string {
  return template
    .replace('{z}', String(z))
    .replace('{x}', String(x))
    .replace('{y}', String(y))
    .replace('{s}', 'abc'.charAt((x + y) % 3));
}

export interface PlacedTile {
  key: string;
  /** Tile column and row, the column wrapped around the world. */
  x: number;
  y: number;
  /** Where its top-left corner goes in the viewport. */
  left: number;
  top: number;
}

/** The tiles that cover a viewport of `width` × `height` centred on `center`. */
export function visibleTiles(center: WorldPoint, zoom: number, width: number, height: number): PlacedTile[] {
  const n = 2 ** zoom;
  const left0 = center.x - width / 2;
  const top0 = center.y - height / 2;
  const tiles: PlacedTile[] = [];
  for (let ty = Math.floor(top0 / TILE_SIZE); ty <= Math.floor((top0 + height) / TILE_SIZE); ty++) {
    if (ty < 0 || ty >= n) continue;
    for (let tx = Math.floor(left0 / TILE_SIZE); tx <= Math.floor((left0 + width) / TILE_SIZE); tx++) {
      tiles.push({ key: `${tx}:${ty}`, x: ((tx % n) + n) % n, y: ty, left: tx * TILE_SIZE - left0, top: ty * TILE_SIZE - top0 });
    }
  }
  return tiles;
}

/** Six decimals: about 10 cm, as precise as a station's position needs. */
export const round6 = (v: number) => Math.round(v * 1e6) / 1e6;
