import { inflateSync } from 'node:zlib';
import svgCaptcha from 'svg-captcha';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness.js';
import { CAPTCHA_PNG_WIDTH, drawCaptcha } from './captcha-image.js';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The chunks of a PNG file, in order (throws on anything that is not one). */
function pngChunks(file: Buffer): { type: string; data: Buffer }[] {
  if (!file.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG');
  const chunks = [];
  for (let at = 8; at < file.length;) {
    const length = file.readUInt32BE(at);
    chunks.push({ type: file.toString('latin1', at + 4, at + 8), data: file.subarray(at + 8, at + 8 + length) });
    at += 12 + length;
  }
  return chunks;
}

/**
 * The script that read the old captcha: svg-captcha draws each character as one filled path whose
 * sequence of commands depends only on the glyph, so a table of those sequences spells the answer.
 */
const commands = (d: string) => d.replace(/[^MLQCZ]/g, '');
const glyphTable = new Map(
  [...'abcdefghjkmnpqrstuvwxyzABCDEFGHJKMNPQRSTUVWXYZ23456789'].map((ch) => {
    const svg = (svgCaptcha as unknown as (text: string, o: object) => string)(ch, { noise: 0 });
    return [commands(/<path fill="[^"]+" d="([^"]+)"/.exec(svg)![1]!), ch.toLowerCase()] as const;
  }),
);
function readAnswerFromMarkup(markup: string): string {
  const glyphs = [...markup.matchAll(/<path fill="[^"]+" d="M([\d.]+)[^"]*"/g)].map((m) => ({
    x: Number(m[1]),
    ch: glyphTable.get(commands(m[0].slice(m[0].indexOf(' d="'))))!,
  }));
  return glyphs
    .sort((a, b) => a.x - b.x)
    .map((g) => g.ch ?? '?')
    .join('');
}

let s: TestServer;
beforeAll(async () => {
  s = await startServer({ captcha: true });
});
afterAll(() => s.close());

describe('captcha picture', () => {
  it('the old script reads svg-captcha answers from the markup', () => {
    for (let i = 0; i < 20; i++) {
      const old = svgCaptcha.create({ size: 4, noise: 2, ignoreChars: '0oO1iIlL', color: true, background: '#f4f7f6' });
      expect(readAnswerFromMarkup(old.data)).toBe(old.text.toLowerCase());
    }
  });

  it('is a PNG of pixels only: no markup, paths, text or metadata to read the answer from', async () => {
    for (let i = 0; i < 10; i++) {
      const r = await s.call<never>('GET', '/captchaImage');
      expect(r).toMatchObject({ code: 200, captchaEnabled: true, uuid: expect.any(String), img: expect.any(String) });
      const file = Buffer.from(r.img as string, 'base64');
      const chunks = pngChunks(file);
      expect(chunks.map((c) => c.type)).toEqual(['IHDR', ...chunks.slice(1, -1).map(() => 'IDAT'), 'IEND']);
      expect(chunks[0]!.data.readUInt32BE(0)).toBe(CAPTCHA_PNG_WIDTH);
      const text = file.toString('latin1');
      for (const marker of ['<svg', '<path', '<text', 'xmlns', ' d="']) expect(text).not.toContain(marker);
      expect(readAnswerFromMarkup(text)).toBe('');
      // The pixels themselves: a full 240×80 RGBA image, not a stored shape.
      const pixels = inflateSync(Buffer.concat(chunks.filter((c) => c.type === 'IDAT').map((c) => c.data)));
      expect(pixels.length).toBe((CAPTCHA_PNG_WIDTH * 4 + 1) * chunks[0]!.data.readUInt32BE(4));
    }
  });

  it('draws a fresh answer of four characters from the alphabet without look-alikes', async () => {
    const answers = new Set<string>();
    // Many pictures: a warp by SVG filter once aborted the process (resvg) on about one in a few hundred.
    for (let i = 0; i < 200; i++) {
      const { answer, png } = await drawCaptcha();
      expect(answer).toMatch(/^[a-hjkmnp-z2-9]{4}$/);
      expect(png.subarray(0, 8).equals(SIGNATURE)).toBe(true);
      answers.add(answer);
    }
    expect(answers.size).toBeGreaterThan(190);
  });
});
