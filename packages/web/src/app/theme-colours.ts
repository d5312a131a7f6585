import { generate } from '@ant-design/colors';
import type { CSSProperties } from 'react';

/**
 * The layout's theme colour as the CSS variables of the pages drawn without antd (sign-in, 404, the
 * agreement pages; plain-base.css): antd's palette of it, 1 for light backgrounds and focus rings,
 * 5 and 7 for hover and press.
 */
export function themeColours(primary: string): CSSProperties {
  const palette = generate(primary);
  return {
    '--csms-primary': primary,
    '--csms-primary-bg': palette[0],
    '--csms-primary-hover': palette[4],
    '--csms-primary-active': palette[6],
  } as CSSProperties;
}
