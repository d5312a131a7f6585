/** What a row's action button shows: its label in the current language, and whether an icon precedes it. */
export interface ActionLabel {
  label: string;
  icon: boolean;
}

/** The theme values the width depends on (antd's global tokens). */
export interface ActionMetrics {
  fontSize: number;
  fontFamily: string;
  fontWeightStrong: number;
  /** Between a button's icon and label (antd: marginXS). */
  marginXS: number;
  /** The table cell's inline padding at the current component size. */
  cellPadding: number;
}

/** A small button's inline padding including its border: antd fixes it at 8 px, compact theme or not. */
const BUTTON_PADDING = 8;

let context: CanvasRenderingContext2D | undefined;

/**
 * Width in px of a text in a font, as the browser lays it out; without a canvas (jsdom) an
 * estimate: full-width for CJK, 0.6 em for the rest.
 */
export function textWidth(text: string, size: number, family: string, weight = 400): number {
  context ??= (typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d')) ?? undefined;
  if (!context) return [...text].reduce((w, c) => w + (c.charCodeAt(0) >= 0x2e80 ? size : size * 0.6), 0);
  context.font = `${weight} ${size}px ${family}`;
  return context.measureText(text).width;
}

/** A small link button: padding and border on both sides, then icon (one em) and gap, then the label. */
export function buttonWidth(a: ActionLabel, m: ActionMetrics): number {
  return 2 * BUTTON_PADDING + (a.icon ? m.fontSize + m.marginXS : 0) + textWidth(a.label, m.fontSize, m.fontFamily);
}

/**
 * Width of the row-actions column: the widest row's buttons side by side on one line, plus the
 * cell's padding, and never narrower than the column title. Labels differ by language and rows
 * show different actions, so the column is as wide as what it holds rather than a fixed size.
 */
export function actionsColumnWidth(rows: ActionLabel[][], title: string, m: ActionMetrics): number {
  const widest = Math.max(0, ...rows.map((buttons) => buttons.reduce((sum, a) => sum + buttonWidth(a, m), 0)));
  const head = textWidth(title, m.fontSize, m.fontFamily, m.fontWeightStrong);
  // A few pixels for sub-pixel layout.
  return Math.ceil(Math.max(widest, head) + 2 * m.cellPadding + 4);
}
