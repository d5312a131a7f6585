import { theme } from 'antd';
import { useEffect, useMemo, useRef, useState, type MouseEvent } from 'react';
import { compactTick, niceTicks, scaleLinear } from './scale';

export interface ChartPoint {
  /** X value, e.g. a timestamp in ms. */
  x: number;
  y: number;
}

export interface AreaChartProps {
  points: ChartPoint[];
  height?: number;
  /** Axis and tooltip texts: the caller formats (and translates) them. */
  formatX: (x: number) => string;
  /** A value at the unit's full precision, as the tooltip shows it; y ticks drop needless decimals from it. */
  formatY: (y: number) => string;
  /** Accessible name of the chart. */
  label: string;
  /** How many x labels at most. */
  xTicks?: number;
  color?: string;
}

const PAD = { top: 12, right: 16, bottom: 24, left: 56 };
/** Distance from the right end within which an x label is right-aligned. */
const EDGE = 24;

/** Width of the element, following resizes; `fallback` until measured (and in jsdom). */
function useWidth(fallback: number) {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(fallback);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(([entry]) => {
      const w = entry?.contentRect.width;
      if (w && w > 0) setWidth(Math.round(w));
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return { ref, width };
}

/**
 * A small line-and-area chart in plain SVG (no chart dependency): y from zero with nice ticks,
 * a few x labels, and the nearest point under the pointer highlighted with its values.
 */
export function AreaChart({ points, height = 220, formatX, formatY, label, xTicks = 6, color }: AreaChartProps) {
  const { token } = theme.useToken();
  const stroke = color ?? token.colorPrimary;
  const { ref, width } = useWidth(600);
  const [hover, setHover] = useState<number | null>(null);

  const geometry = useMemo(() => {
    const innerW = Math.max(10, width - PAD.left - PAD.right);
    const innerH = Math.max(10, height - PAD.top - PAD.bottom);
    const xs = points.map((p) => p.x);
    const x0 = xs.length ? Math.min(...xs) : 0;
    const x1 = xs.length ? Math.max(...xs) : 1;
    const yTicks = niceTicks(0, Math.max(0, ...points.map((p) => p.y)), 4);
    const yMax = yTicks[yTicks.length - 1] ?? 1;
    const sx = scaleLinear([x0, x1 === x0 ? x0 + 1 : x1], [PAD.left, PAD.left + innerW]);
    const sy = scaleLinear([0, yMax], [PAD.top + innerH, PAD.top]);
    const line = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${sx(p.x).toFixed(1)},${sy(p.y).toFixed(1)}`).join(' ');
    const area = points.length
      ? `${line} L${sx(points[points.length - 1]!.x).toFixed(1)},${sy(0)} L${sx(points[0]!.x).toFixed(1)},${sy(0)} Z`
      : '';
    const step = Math.max(1, Math.ceil(points.length / xTicks));
    const xLabels = points.filter((_, i) => i % step === 0);
    return { innerW, sx, sy, yTicks, line, area, xLabels };
  }, [points, width, height, xTicks]);

  const onMove = (e: MouseEvent<SVGSVGElement>) => {
    if (points.length === 0) return;
    const box = e.currentTarget.getBoundingClientRect();
    const px = ((e.clientX - box.left) / Math.max(1, box.width)) * width;
    let best = 0;
    points.forEach((p, i) => {
      if (Math.abs(geometry.sx(p.x) - px) < Math.abs(geometry.sx(points[best]!.x) - px)) best = i;
    });
    setHover(best);
  };
  const hovered = hover === null ? undefined : points[hover];

  return (
    <div ref={ref} style={{ width: '100%', position: 'relative' }}>
      <svg
        role="img"
        aria-label={label}
        width={width}
        height={height}
        viewBox={`0 0 ${width} ${height}`}
        onMouseMove={onMove}
        onMouseLeave={() => setHover(null)}
        style={{ display: 'block', fontSize: 11, fill: token.colorTextSecondary }}
      >
        {geometry.yTicks.map((v) => (
          <g key={v}>
            <line x1={PAD.left} x2={PAD.left + geometry.innerW} y1={geometry.sy(v)} y2={geometry.sy(v)} stroke={token.colorSplit} />
            <text x={PAD.left - 6} y={geometry.sy(v) + 4} textAnchor="end">
              {compactTick(formatY(v))}
            </text>
          </g>
        ))}
        {/* A label at the right edge ends there instead of running out of the chart. */}
        {geometry.xLabels.map((p) => (
          <text
            key={p.x}
            x={geometry.sx(p.x)}
            y={height - 6}
            textAnchor={geometry.sx(p.x) > PAD.left + geometry.innerW - EDGE ? 'end' : 'middle'}
          >
            {formatX(p.x)}
          </text>
        ))}
        <path d={geometry.area} fill={stroke} fillOpacity={0.15} stroke="none" />
        <path d={geometry.line} fill="none" stroke={stroke} strokeWidth={2} data-testid="chart-line" />
        {hovered && (
          <g>
            <line
              x1={geometry.sx(hovered.x)}
              x2={geometry.sx(hovered.x)}
              y1={PAD.top}
              y2={height - PAD.bottom}
              stroke={token.colorTextQuaternary}
              strokeDasharray="3 3"
            />
            <circle cx={geometry.sx(hovered.x)} cy={geometry.sy(hovered.y)} r={4} fill={stroke} />
          </g>
        )}
      </svg>
      {hovered && (
        <div
          data-testid="chart-tooltip"
          style={{
            position: 'absolute',
            top: 0,
            left: Math.min(Math.max(0, geometry.sx(hovered.x) + 8), Math.max(0, width - 140)),
            padding: '2px 8px',
            background: token.colorBgElevated,
            boxShadow: token.boxShadowSecondary,
            borderRadius: token.borderRadiusSM,
            fontSize: 12,
            pointerEvents: 'none',
            whiteSpace: 'nowrap',
          }}
        >
          {formatX(hovered.x)} · {formatY(hovered.y)}
        </div>
      )}
    </div>
  );
}
