import type { ConnectorType } from '@csms/contract';
import type { ReactNode } from 'react';

/** A pin of the plug face. */
const pin = (cx: number, cy: number, r: number) => <circle key={`${cx}-${cy}`} cx={cx} cy={cy} r={r} fill="currentColor" stroke="none" />;

/** DC pair under a combo (CCS) face. */
const dcPart = (
  <>
    <rect x="7.5" y="21" width="17" height="9" rx="4.5" />
    {pin(12, 25.5, 2.4)}
    {pin(20, 25.5, 2.4)}
  </>
);

/** Schematic plug faces, 32 × 32, drawn in the current colour (spec §1: connector types shown as icons). */
const faces: Record<ConnectorType, ReactNode> = {
  Type2: (
    <>
      <path d="M8.06 7H23.94A12 12 0 1 1 8.06 7Z" />
      {[pin(12.5, 11, 1.3), pin(19.5, 11, 1.3), pin(9.5, 16, 2), pin(16, 16, 2), pin(22.5, 16, 2), pin(12.5, 21.5, 2), pin(19.5, 21.5, 2)]}
    </>
  ),
  SAE_J1772: (
    <>
      <circle cx="16" cy="16" r="12" />
      <rect x="13" y="3" width="6" height="3" fill="currentColor" stroke="none" />
      {[pin(11.5, 13, 2.2), pin(20.5, 13, 2.2), pin(16, 21.5, 2.6), pin(10.5, 19.5, 1.2), pin(21.5, 19.5, 1.2)]}
    </>
  ),
  CCS1: (
    <>
      <circle cx="16" cy="10.5" r="8.5" />
      <rect x="14" y="1" width="4" height="2" fill="currentColor" stroke="none" />
      {[pin(12.5, 9, 1.6), pin(19.5, 9, 1.6), pin(16, 14.5, 1.8)]}
      {dcPart}
    </>
  ),
  CCS2: (
    <>
      <path d="M10.34 3.5H21.66A9 9 0 1 1 10.34 3.5Z" />
      {[pin(13.5, 6.5, 1), pin(18.5, 6.5, 1), pin(11.5, 11.5, 1.6), pin(16, 11.5, 1.6), pin(20.5, 11.5, 1.6)]}
      {dcPart}
    </>
  ),
  CHAdeMO: (
    <>
      <circle cx="16" cy="16" r="13" />
      <circle cx="16" cy="16" r="9.5" strokeDasharray="3 2" />
      {[pin(11, 17, 3), pin(21, 17, 3), pin(16, 9, 1.3), pin(12, 11, 1.2), pin(20, 11, 1.2), pin(16, 23, 1.3)]}
    </>
  ),
  GBT_AC: (
    <>
      <circle cx="16" cy="15" r="12" />
      <rect x="13.5" y="27" width="5" height="3" fill="currentColor" stroke="none" />
      {[
        pin(12.5, 8.5, 1.3),
        pin(19.5, 8.5, 1.3),
        pin(9.5, 14.5, 2),
        pin(16, 14, 2),
        pin(22.5, 14.5, 2),
        pin(12, 20.5, 2),
        pin(20, 20.5, 2),
      ]}
    </>
  ),
  GBT_DC: (
    <>
      <rect x="3.5" y="4.5" width="25" height="23" rx="7" />
      {[pin(10.5, 18, 3), pin(21.5, 18, 3), pin(16, 18, 1.8), pin(10, 10, 1.2), pin(13.5, 10, 1.2), pin(18.5, 10, 1.2), pin(22, 10, 1.2)]}
      {pin(16, 24, 1.3)}
    </>
  ),
  SCHUKO: (
    <>
      <circle cx="16" cy="16" r="13" />
      <rect x="14" y="3.5" width="4" height="2.5" fill="currentColor" stroke="none" />
      <rect x="14" y="26" width="4" height="2.5" fill="currentColor" stroke="none" />
      {[pin(10.5, 16, 2.2), pin(21.5, 16, 2.2)]}
    </>
  ),
};

export interface ConnectorIconProps {
  type: string;
  /** Pixels; default 20. */
  size?: number;
  /** Accessible name and tooltip (the type's label in the UI language). */
  title?: string;
}

/** The face of a connector type; an unknown type draws a plain circle. */
export function ConnectorIcon({ type, size = 20, title }: ConnectorIconProps) {
  const face = faces[type as ConnectorType] ?? <circle cx="16" cy="16" r="12" />;
  return (
    <svg
      viewBox="0 0 32 32"
      width={size}
      height={size}
      fill="none"
      stroke="currentColor"
      strokeWidth={1.6}
      role="img"
      aria-label={title}
      data-connector-type={type}
      style={{ display: 'inline-block', verticalAlign: 'middle', flexShrink: 0 }}
    >
      {title && <title>{title}</title>}
      {face}
    </svg>
  );
}
