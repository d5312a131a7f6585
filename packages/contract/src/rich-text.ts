/**
 * The allow-list of rich text (provider agreements, system messages), shared by the server's
 * sanitiser before storing and the console's before showing: formatting tags only; attributes per tag.
 */
export const richTextTags = [
  'p',
  'br',
  'strong',
  'em',
  'u',
  's',
  'h1',
  'h2',
  'h3',
  'h4',
  'blockquote',
  'ul',
  'ol',
  'li',
  'a',
  'img',
  'code',
  'pre',
  'hr',
] as const;

export const richTextAttributes = { a: ['href', 'target', 'rel'], img: ['src', 'alt'], ol: ['start'] } as const;
