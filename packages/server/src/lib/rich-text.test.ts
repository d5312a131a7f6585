import { describe, expect, it } from 'vitest';
import { imagesOf, richTextToPlain, sanitizeRichText } from './rich-text.js';

const IMG = '2025/01/31/0b9d3a54-7f5e-4c43-9f57-2a4cf2c1a001.png';
const STORED = `/prod-api/common/download/resource?resource=${encodeURIComponent(IMG)}`;

describe('rich-text allow-list', () => {
  it('keeps what the editor writes: paragraphs, marks, headings, lists, quotes, links and stored images', () => {
    const html =
      `<h2>Terms</h2><p><strong>Bold</strong> <em>it</em> <u>u</u> <s>s</s> <code>c</code></p>` +
      `<ul><li><p>one</p></li></ul><ol start="3"><li>three</li></ol><blockquote><p>q</p></blockquote><hr>` +
      `<p><a href="https://example.com/t?a=1&amp;b=2">link</a> <a href="mailto:ops@example.com">m</a></p><img src="${STORED}" alt="map">`;
    const clean = sanitizeRichText(html)!;
    expect(clean).toContain('<h2>Terms</h2>');
    expect(clean).toContain('<strong>Bold</strong> <em>it</em> <u>u</u> <s>s</s> <code>c</code>');
    expect(clean).toContain('<ol start="3">');
    expect(clean).toContain('<a href="https://example.com/t?a=1&amp;b=2" target="_blank" rel="noopener noreferrer nofollow">link</a>');
    expect(clean).toContain('href="mailto:ops@example.com"');
    expect(clean).toContain(`<img src="${STORED}" alt="map" />`);
    expect(imagesOf(clean)).toEqual([IMG]);
  });

  it('drops scripts with their text, event handlers, styles, frames and forms', () => {
    const clean = sanitizeRichText(
      '<p onclick="steal()" style="color:red" class="x" id="y">hi<script>alert(1)</script></p>' +
        '<img src="x" onerror="alert(2)"><iframe src="https://evil.test"></iframe><style>p{}</style>' +
        '<svg><script>alert(3)</script></svg><form action="/x"><input name="q"></form><object data="a.swf"></object>',
    );
    expect(clean).toBe('<p>hi</p>');
  });

  it('drops javascript:, data: and vbscript: links, whatever their spelling, and keeps the text', () => {
    for (const href of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      ' javascript:alert(1)',
      'java&#x09;script:alert(1)',
      'data:text/html,<b>x',
      'vbscript:x',
    ]) {
      const clean = sanitizeRichText(`<p><a href="${href}">t</a></p>`)!;
      expect(clean).not.toMatch(/javascript|data:|vbscript/i);
      expect(clean).toContain('>t</a>');
    }
    // A link's own target and rel are replaced, never taken from the input.
    expect(sanitizeRichText('<a href="https://a.test" target="_self" rel="opener">a</a>')).toBe(
      '<a href="https://a.test" target="_blank" rel="noopener noreferrer nofollow">a</a>',
    );
  });

  it('keeps only images that name a stored file: no data: URLs, other hosts, protocol-relative or made-up paths', () => {
    const png = 'data:image/png;base64,iVBORw0KGgo=';
    for (const src of [png, 'https://evil.test/a.png', '//evil.test/a.png', '/prod-api/web/logout', 'javascript:alert(1)']) {
      expect(sanitizeRichText(`<p>x</p><img src="${src}">`)).toBe('<p>x</p>');
    }
    // A bare stored name (what the upload reply calls fileName) is written as the server's URL of it.
    expect(sanitizeRichText(`<img src="${IMG}">`)).toBe(`<img src="${STORED}" />`);
  });

  it('is null when nothing visible is left', () => {
    expect(sanitizeRichText('<p></p>')).toBeNull();
    expect(sanitizeRichText('<p> <br></p><script>x</script>')).toBeNull();
    expect(sanitizeRichText('')).toBeNull();
    expect(sanitizeRichText(`<p></p><img src="${STORED}">`)).not.toBeNull();
  });

  it('escapes plain text that looks like markup instead of running it', () => {
    expect(sanitizeRichText('a < b & c > d')).toBe('a &lt; b &amp; c &gt; d');
  });

  it('turns rich text into lines of text for SMS and spreadsheets', () => {
    expect(richTextToPlain('<h2>T</h2><p>a &amp; b</p><ul><li><p>one</p></li><li>two</li></ul><p>x<br>y</p>')).toBe(
      'T\na & b\none\n\ntwo\nx\ny',
    );
  });
});
