import { randomInt } from 'node:crypto';
import type { renderAsync } from '@resvg/resvg-js';
import type svgCaptcha from 'svg-captcha';

/**
 * The sign-in captcha as a picture. svg-captcha draws the characters as glyph outlines, which a
 * script reads straight out of the SVG; so the SVG never leaves the server: its outlines are bent
 * by a random warp, speckles are sprinkled over them, resvg rasterises the result on libuv's thread
 * pool (off the event loop) and only the PNG is sent.
 *
 * The warp moves the outlines' points in JavaScript rather than with an SVG filter: resvg's
 * feDisplacementMap aborted the whole process on some inputs here (an assertion on region sizes).
 */

/** Letters and digits without the look-alikes 0/o/O, 1/i/I/l/L; checked case-insensitively. */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKMNPQRSTUVWXYZ23456789';
const LENGTH = 4;
const WIDTH = 150;
const HEIGHT = 50;
const BACKGROUND = '#f4f7f6';
/** svg-captcha sets the glyphs low (at 48 px they span y 14–50 of 50): lifted, descenders stay inside. */
const LIFT = -7;
/** Pixels wide of the PNG: twice the 120 CSS px the console shows, sharp on high-density screens. */
export const CAPTCHA_PNG_WIDTH = 240;

// svg-captcha's default export draws a given text; its typings only declare `create`, which picks
// the text with Math.random. Ours comes from the CSPRNG.
type DrawText = (text: string, options: Parameters<typeof svgCaptcha.create>[0]) => string;

/** The drawing libraries, loaded with the first challenge rather than with the server (≈ 30 ms of a start). */
let libraries: Promise<{ drawText: DrawText; renderAsync: typeof renderAsync }> | undefined;
const load = () =>
  (libraries ??= Promise.all([import('svg-captcha'), import('@resvg/resvg-js')]).then(([captcha, resvg]) => ({
    drawText: captcha.default as unknown as DrawText,
    renderAsync: resvg.renderAsync,
  })));

/**
 * Loads the drawing libraries ahead of the first challenge (once the server listens): resvg is a native
 * module, and a platform build missing is said in the log at start rather than by a sign-in that fails.
 */
export const preloadCaptchaDrawing = (): Promise<void> => load().then(() => {});

const pick = (s: string) => s[randomInt(s.length)]!;
const between = (min: number, max: number, step = 1) => +(min + randomInt(Math.round((max - min) / step) + 1) * step).toFixed(3);
const colour = () => `rgb(${randomInt(256)},${randomInt(256)},${randomInt(256)})`;

function speckles(count: number): string {
  let out = '';
  for (let i = 0; i < count; i++) {
    const size = between(0.6, 1.4, 0.2);
    out += `<rect x="${between(0, WIDTH, 0.5)}" y="${between(0, HEIGHT, 0.5)}" width="${size}" height="${size}" fill="${colour()}"/>`;
  }
  return out;
}

/** A smooth random bend of the plane: each axis waves along the other, with a smaller ripple on top. */
function randomWarp(): (x: number, y: number) => [number, number] {
  const phase = () => randomInt(0, 628) / 100;
  const [ax, fx, px] = [between(2, 3.5, 0.5), between(0.08, 0.14, 0.01), phase()];
  const [ay, fy, py] = [between(3, 4.5, 0.5), between(0.04, 0.08, 0.01), phase()];
  const [ry, rf, rp] = [between(0.8, 1.5, 0.1), between(0.2, 0.3, 0.02), phase()];
  return (x, y) => [x + ax * Math.sin(y * fx + px), y + LIFT + ay * Math.sin(x * fy + py) + ry * Math.sin((x + y) * rf + rp)];
}

/** Every point of every path moved by `warp` (svg-captcha writes only absolute M, L, Q and C points). */
function bend(markup: string, warp: (x: number, y: number) => [number, number]): string {
  const point = /(-?\d*\.?\d+)[ ,]+(-?\d*\.?\d+)/g;
  return markup.replace(/ d="([^"]+)"/g, (_, d: string) => {
    const moved = d.replace(point, (_m, x: string, y: string) => {
      const [wx, wy] = warp(Number(x), Number(y));
      return `${wx.toFixed(2)} ${wy.toFixed(2)}`;
    });
    return ` d="${moved}"`;
  });
}

/** The SVG that is rasterised: bent text and noise lines, speckles over everything. */
function composeSvg(drawText: DrawText, text: string): string {
  // svg-captcha picks colours that contrast with the background it is told; told a darker one than
  // ours, it picks darker colours, which stay legible on our light one (its own backdrop is dropped).
  const drawn = drawText(text, { noise: 3, color: true, background: '#c4ccc8', width: WIDTH, height: HEIGHT, fontSize: 48 });
  const inner = drawn.replace(/^<svg[^>]*>(<rect[^>]*\/>)?/, '').replace(/<\/svg>$/, '');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}">` +
    `<rect width="100%" height="100%" fill="${BACKGROUND}"/>${bend(inner, randomWarp())}${speckles(160)}</svg>`
  );
}

/** A fresh challenge: its answer (lower case) and its PNG. */
export async function drawCaptcha(): Promise<{ answer: string; png: Buffer }> {
  let text = '';
  for (let i = 0; i < LENGTH; i++) text += pick(ALPHABET);
  const { drawText, renderAsync } = await load();
  const image = await renderAsync(composeSvg(drawText, text), {
    fitTo: { mode: 'width', value: CAPTCHA_PNG_WIDTH },
    // Every glyph is already a path: no font is needed, and loading the system's takes far longer than the drawing.
    font: { loadSystemFonts: false },
  });
  return { answer: text.toLowerCase(), png: image.asPng() };
}
