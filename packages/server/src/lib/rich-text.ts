import { fieldLabel, richTextAttributes, richTextTags, type Lang } from '@csms/contract';
import sanitizeHtml from 'sanitize-html';
import type { Principal } from '../http/context.js';
import { API_PREFIX } from '../http/mount.js';
import { storedFileNameOf, type StoredImages } from './stored-images.js';

/** Rich text's images are 5 MB at most (spec §5), like the image widgets. */
export const RICH_TEXT_IMAGE_MB = 5;

const RESOURCE_URL = `${API_PREFIX}/common/download/resource?resource=`;

/**
 * Rich text (provider agreements, system messages) as the console's editor writes it, kept to an
 * allow-list by sanitize-html before it is stored: formatting tags only, links to http(s), mailto
 * and tel, and images only when they name a file this server stored (never a data: URL or another
 * host). No attribute outside the list survives, so no on* handler, style or class does either.
 */
const options = (imageUrl: (name: string) => string): sanitizeHtml.IOptions => ({
  allowedTags: [...richTextTags],
  // `target` and `rel` are set by the transform below; whatever the input said is replaced.
  allowedAttributes: Object.fromEntries(Object.entries(richTextAttributes).map(([tag, attrs]) => [tag, [...attrs]])),
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: [] },
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // The text of these goes with them instead of being kept as text.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'object', 'title'],
  transformTags: {
    b: 'strong',
    i: 'em',
    strike: 's',
    // Links open outside the page that shows them and hand it nothing.
    a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, target: '_blank', rel: 'noopener noreferrer nofollow' } }),
    // An image is written as the server's own URL of the stored file it names, or dropped.
    img: (tagName, attribs) => {
      const name = storedFileNameOf(attribs.src ?? '');
      const src = name ? imageUrl(name) : '';
      return { tagName, attribs: { src, ...(attribs.alt ? { alt: attribs.alt } : {}) } };
    },
  },
  exclusiveFilter: (frame) => frame.tag === 'img' && !frame.attribs.src,
});

const STORED = options((name) => RESOURCE_URL + encodeURIComponent(name));
const TEXT_ONLY: sanitizeHtml.IOptions = { allowedTags: [], allowedAttributes: {}, nonTextTags: STORED.nonTextTags! };

/**
 * The allow-listed HTML; null when nothing visible is left (an empty editor writes `<p></p>`).
 * `imageUrl` says where an image is fetched from (by default the stored file's own URL).
 */
export function sanitizeRichText(html: string | null | undefined, imageUrl?: (name: string) => string): string | null {
  if (!html) return null;
  const clean = sanitizeHtml(html, imageUrl ? options(imageUrl) : STORED).trim();
  const visible = clean.includes('<img') || sanitizeHtml(clean, TEXT_ONLY).trim() !== '';
  return visible ? clean : null;
}

/** The stored files the images of a sanitised text name. */
export function imagesOf(html: string | null): string[] {
  if (!html) return [];
  const names = new Set<string>();
  for (const m of html.matchAll(/<img src="([^"]*)"/g)) {
    const name = storedFileNameOf(m[1]!.replace(/&amp;/g, '&'));
    if (name) names.add(name);
  }
  return [...names];
}

/**
 * Sanitise a rich-text field and check its images: each one a stored image the caller may see,
 * at most 5 MB, or a 400 naming the field. Returns what is to be stored.
 */
export async function cleanRichText(
  deps: { images: StoredImages; lang: Lang },
  p: Principal,
  html: string | null | undefined,
  at: { resource: string; field: string },
): Promise<string | null> {
  const clean = sanitizeRichText(html);
  for (const name of imagesOf(clean)) {
    await deps.images.check(p, name, {
      field: at.field,
      key: 'errors.upload.richTextImage',
      maxMb: RICH_TEXT_IMAGE_MB,
      params: { field: fieldLabel(deps.lang, at.resource, at.field) },
    });
  }
  return clean;
}

/** The text of rich text, for where markup means nothing (an SMS, a spreadsheet cell): blocks end a line. */
export function richTextToPlain(html: string): string {
  const lines = sanitizeHtml(html.replace(/<\/(p|h[1-4]|li|blockquote|pre)>|<br\s*\/?>/gi, '$&\n'), TEXT_ONLY);
  // sanitize-html leaves entities escaped; these are the ones it writes.
  return lines
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
