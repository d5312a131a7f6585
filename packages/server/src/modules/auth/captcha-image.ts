import { randomInt } from 'node:crypto';
import { renderAsync } from '@resvg/resvg-js';
import svgCaptcha from 'svg-captcha';

/**
 * The sign-in captcha as a picture. svg-captcha draws the characters as glyph outlines, which a
 * script reads straight out of the SVG; so the SVG never leaves the server: resvg rasterises it,
 * warped by a random turbulence field and sprinkled with speckles, and only the PNG is sent.
 * The rasterising (the costly part, ~5 ms) runs on libuv's thread pool, off the event loop.
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
const drawText = svgCaptcha as unknown as (text: string, options: Parameters<typeof svgCaptcha.create>[0]) => string;

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

/** The SVG that is rasterised: text and noise lines under a random warp, speckles over everything. */
function composeSvg(text: string): string {
  // svg-captcha picks colours that contrast with the background it is told; told a darker one than
  // ours, it picks darker colours, which stay legible on our light one (its own backdrop is dropped).
  const drawn = drawText(text, { noise: 3, color: true, background: '#c4ccc8', width: WIDTH, height: HEIGHT, fontSize: 48 });
  const inner = drawn.replace(/^<svg[^>]*>(<rect[^>]*\/>)?/, '').replace(/<\/svg>$/, '');
  const warp =
    `<filter id="warp" x="0" y="0" width="100%" height="100%">` +
    `<feTurbulence type="fractalNoise" baseFrequency="${between(0.03, 0.05, 0.005)} ${between(0.06, 0.1, 0.01)}" numOctaves="1" seed="${randomInt(1, 1_000_000)}"/>` +
    `<feDisplacementMap in="SourceGraphic" scale="${between(8, 12)}" xChannelSelector="R" yChannelSelector="G"/></filter>`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}">` +
    `<rect width="100%" height="100%" fill="${BACKGROUND}"/>${warp}<g filter="url(#warp)"><g transform="translate(0 ${LIFT})">${inner}</g></g>${speckles(160)}</svg>`
  );
}

/** A fresh challenge: its answer (lower case) and its PNG. */
export async function drawCaptcha(): Promise<{ answer: string; png: Buffer }> {
  let text = '';
  for (let i = 0; i < LENGTH; i++) text += pick(ALPHABET);
  const image = await renderAsync(composeSvg(text), {
    fitTo: { mode: 'width', value: CAPTCHA_PNG_WIDTH },
    // Every glyph is already a path: no font is needed, and loading the system's takes far longer than the drawing.
    font: { loadSystemFonts: false },
  });
  return { answer: text.toLowerCase(), png: image.asPng() };
}
