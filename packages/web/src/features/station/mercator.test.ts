import { describe, expect, it } from 'vitest';
import { MAX_LATITUDE, project, round6, tileUrl, unproject, visibleTiles } from './mercator';

describe('web mercator', () => {
  it('puts the origin and the corners of the world where the XYZ scheme does', () => {
    expect(project(0, 0, 0)).toEqual({ x: 128, y: 128 });
    expect(project(-180, MAX_LATITUDE, 1).x).toBe(0);
    expect(project(-180, MAX_LATITUDE, 1).y).toBeCloseTo(0, 3);
    expect(project(180, -MAX_LATITUDE, 1).y).toBeCloseTo(512, 3);
    // Shanghai at zoom 10 lies in tile 857/418 (as any XYZ tile server numbers it).
    const sh = project(121.4737, 31.2304, 10);
    expect([Math.floor(sh.x / 256), Math.floor(sh.y / 256)]).toEqual([857, 418]);
  });

  it('round-trips coordinates, wrapping longitude and clamping latitude', () => {
    for (const [lon, lat] of [
      [121.4737, 31.2304],
      [-73.9857, 40.7484],
      [13.405, 52.52],
      [-58.38, -34.6],
    ] as const) {
      const p = project(lon, lat, 15);
      const back = unproject(p.x, p.y, 15);
      expect(round6(back.lon)).toBeCloseTo(lon, 5);
      expect(round6(back.lat)).toBeCloseTo(lat, 5);
    }
    const world = 256 * 2 ** 3;
    expect(unproject(world + 1, world / 2, 3).lon).toBeCloseTo(unproject(1, world / 2, 3).lon, 9);
    expect(project(0, 89.9, 2).y).toBe(project(0, MAX_LATITUDE, 2).y);
  });

  it('covers the viewport with tiles, wrapping columns and skipping rows beyond the poles', () => {
    const tiles = visibleTiles({ x: 10, y: 200 }, 1, 300, 300);
    expect(tiles.every((t) => t.y >= 0 && t.y < 2 && t.x >= 0 && t.x < 2)).toBe(true);
    expect(tiles.map((t) => t.key).sort()).toEqual(['-1:0', '-1:1', '0:0', '0:1']);
    expect(tiles.find((t) => t.key === '-1:0')).toMatchObject({ x: 1, y: 0, left: -256 + 140, top: -50 });
    // Near the north pole the rows above the world are left out.
    expect(new Set(visibleTiles({ x: 256, y: 20 }, 1, 100, 100).map((t) => t.y))).toEqual(new Set([0]));
  });

  it('fills the tile template', () => {
    expect(tileUrl('https://tile.example/{z}/{x}/{y}.png', 3, 4, 5)).toBe('https://tile.example/3/4/5.png');
    expect(tileUrl('https://{s}.tile.example/{z}/{x}/{y}.png', 1, 0, 0)).toBe('https://a.tile.example/1/0/0.png');
  });
});
