import { richTextAttributes, richTextTags } from '@csms/contract';
import DOMPurify from 'dompurify';
import { useMemo, type CSSProperties } from 'react';
import './rich-text.css';

/**
 * The contract's rich-text allow-list, which the server's sanitiser applies before storing, applied again in
 * the browser: what is shown cannot run script even if a stored text escaped the server's check.
 */
const ALLOWED_TAGS = [...richTextTags];
const ALLOWED_ATTR = [...new Set(Object.values(richTextAttributes).flat())];
/** Links: http(s), mailto and tel; images: only this server's paths (no data: URL, no other host). */
const LINK = /^(?:https?:|mailto:|tel:)/i;
const IMAGE = /^\/prod-api\/(?:common\/download\/resource|web\/getProviderAgreement\/image)\?/;

let hooked = false;
function purifier() {
  if (!hooked) {
    DOMPurify.addHook('afterSanitizeAttributes', (node) => {
      if (node.tagName === 'A') {
        if (!LINK.test(node.getAttribute('href') ?? '')) node.removeAttribute('href');
        node.setAttribute('target', '_blank');
        node.setAttribute('rel', 'noopener noreferrer nofollow');
      }
      if (node.tagName === 'IMG' && !IMAGE.test(node.getAttribute('src') ?? '')) node.remove();
    });
    hooked = true;
  }
  return DOMPurify;
}

export function sanitizeForView(html: string): string {
  return purifier().sanitize(html, { ALLOWED_TAGS, ALLOWED_ATTR, ALLOW_DATA_ATTR: false });
}

/** Rich text (agreements, system messages) as HTML, sanitised; text written before the editor keeps its line breaks. */
export function RichTextView({ html, style, testId }: { html: string; style?: CSSProperties; testId?: string }) {
  const clean = useMemo(() => sanitizeForView(html), [html]);
  return (
    <div
      className="csms-rich-text"
      data-testid={testId}
      style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', ...style }}
      // Sanitised just above by DOMPurify with the server's allow-list.
      dangerouslySetInnerHTML={{ __html: clean }}
    />
  );
}
