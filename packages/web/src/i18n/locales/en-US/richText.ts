import type { UiCatalogue } from '../zh-CN';

const richText: UiCatalogue['richText'] = {
  placeholder: 'Please enter content',
  imageFailed: 'Image insert failed',
  bold: 'Bold',
  italic: 'Italic',
  underline: 'Underline',
  strike: 'Strikethrough',
  heading: 'Heading',
  paragraph: 'Body text',
  bulletList: 'Bulleted list',
  orderedList: 'Numbered list',
  blockquote: 'Quote',
  link: 'Link',
  linkPlaceholder: 'An address starting with https://, mailto: or tel:',
  linkInvalid: 'A link must start with http://, https://, mailto: or tel:',
  unlink: 'Remove link',
  image: 'Insert an image (at most {n} MB)',
  undo: 'Undo',
  redo: 'Redo',
  clear: 'Clear formatting',
};
export default richText;
