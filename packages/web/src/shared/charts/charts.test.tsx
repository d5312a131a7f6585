import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AreaChart } from './AreaChart';
import { compactTick, niceTicks, scaleLinear } from './scale';

describe('scales', () => {
  it('maps linearly and finds round ticks', () => {
    const s = scaleLinear([0, 10], [100, 200]);
    expect(s(0)).toBe(100);
    expect(s(5)).toBe(150);
    expect(niceTicks(0, 17, 4)).toEqual([0, 5, 10, 15, 20]);
    expect(niceTicks(0, 0.9, 4)).toEqual([0, 0.5, 1]);
    expect(niceTicks(0, 0, 4)).toEqual([0, 1]);
    expect(niceTicks(0, 40_000, 4)).toEqual([0, 10_000, 20_000, 30_000, 40_000]);
  });

  it('drops needless decimals from tick texts only', () => {
    expect(['300.00', '7.50', '0.25', '0.00', '1.000', '10.050', '100', '1:02:05'].map(compactTick)).toEqual([
      '300',
      '7.5',
      '0.25',
      '0',
      '1',
      '10.05',
      '100',
      '1:02:05',
    ]);
    expect(compactTick('1,200.50 kW')).toBe('1,200.5 kW');
  });
});

describe('AreaChart', () => {
  const points = [0, 1, 2, 3].map((i) => ({ x: i * 3_600_000, y: [0, 2000, 8000, 4000][i]! }));
  it('draws a line through every point and labels the axes with the caller’s texts', () => {
    const { container } = render(
      <AreaChart points={points} label="power" formatX={(x) => `h${x / 3_600_000}`} formatY={(y) => `${y / 1000}kW`} />,
    );
    expect(screen.getByRole('img', { name: 'power' })).toBeTruthy();
    expect(screen.getByTestId('chart-line').getAttribute('d')?.match(/[ML]/g)).toHaveLength(4);
    const texts = [...container.querySelectorAll('text')].map((t) => t.textContent);
    expect(texts).toContain('0kW');
    expect(texts).toContain('8kW');
    expect(texts).toContain('h0');
    // The last x label ends at the right edge instead of being cut off there.
    const xLabels = [...container.querySelectorAll('text')].filter((t) => t.textContent?.startsWith('h'));
    expect(xLabels.map((t) => t.getAttribute('text-anchor'))).toEqual(['middle', 'middle', 'middle', 'end']);
  });

  it('ticks compact, the tooltip at the unit’s full precision', () => {
    const kw = (w: number) => (w / 1000).toFixed(2);
    const power = [0, 1, 2].map((i) => ({ x: i * 3_600_000, y: [0, 7500, 300_000][i]! }));
    const { container } = render(<AreaChart points={power} label="power" formatX={(x) => `h${x / 3_600_000}`} formatY={kw} />);
    const ticks = [...container.querySelectorAll('text')].map((t) => t.textContent).filter((t) => !t?.startsWith('h'));
    expect(ticks).toEqual(['0', '100', '200', '300']);
    const svg = screen.getByRole('img');
    svg.getBoundingClientRect = () => ({
      left: 0,
      top: 0,
      width: 600,
      height: 220,
      right: 600,
      bottom: 220,
      x: 0,
      y: 0,
      toJSON: () => ({}),
    });
    fireEvent.mouseMove(svg, { clientX: 300 });
    expect(screen.getByTestId('chart-tooltip').textContent).toBe('h1 · 7.50');
  });

  it('shows the nearest point under the pointer', () => {
    render(<AreaChart points={points} label="power" formatX={(x) => `h${x / 3_600_000}`} formatY={(y) => `${y}W`} />);
    const svg = screen.getByRole('img');
    svg.getBoundingClientRect = () => ({
      left: 0,
      top: 0,
      width: 600,
      height: 220,
      right: 600,
      bottom: 220,
      x: 0,
      y: 0,
      toJSON: () => ({}),
    });
    fireEvent.mouseMove(svg, { clientX: 600 });
    expect(screen.getByTestId('chart-tooltip').textContent).toBe('h3 · 4000W');
    fireEvent.mouseLeave(svg);
    expect(screen.queryByTestId('chart-tooltip')).toBeNull();
  });
});
