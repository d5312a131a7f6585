import type { PriceTier } from '@csms/contract';
import { act, fireEvent, render, screen } from '@testing-library/react';
import i18n from 'i18next';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { fillAll, paintRange } from './slots';
import { TimelineEditor } from './TimelineEditor';

let latest: PriceTier[] = [];
function Harness({ start = fillAll('flat'), current }: { start?: PriceTier[]; current?: PriceTier[] }) {
  const [slots, setSlots] = useState(start);
  latest = slots;
  return <TimelineEditor value={slots} onChange={setSlots} timeZone="Asia/Shanghai" current={current ?? null} />;
}

const cell = (i: number) => document.querySelector<HTMLButtonElement>(`[data-slot="${i}"]`)!;
const tiers = () => Array.from(document.querySelectorAll('[data-slot]')).map((c) => c.getAttribute('data-tier'));

describe('timeline editor', () => {
  it('shows 48 cells, the hours and the zone', () => {
    render(<Harness />);
    expect(document.querySelectorAll('[data-slot]')).toHaveLength(48);
    expect(screen.getByText('00:00')).toBeTruthy();
    expect(screen.getByText('24:00')).toBeTruthy();
    expect(screen.getByRole('group', { name: /Asia\/Shanghai/ })).toBeTruthy();
    expect(cell(16).getAttribute('aria-label')).toBe('08:00–08:30 Flat');
  });

  it('paints the range a drag crosses with the chosen brush, and only that', () => {
    render(<Harness />);
    fireEvent.click(screen.getByText('Peak'));
    fireEvent.pointerDown(cell(16), { button: 0 });
    fireEvent.pointerMove(cell(20));
    fireEvent.pointerMove(cell(23));
    // Dragging back shrinks the range to what the pointer now spans.
    fireEvent.pointerMove(cell(21));
    fireEvent.pointerMove(cell(23));
    fireEvent.pointerUp(window);
    fireEvent.pointerMove(cell(30));
    expect(latest).toEqual(paintRange(fillAll('flat'), 16, 23, 'peak'));
    expect(screen.getByText('08:00–12:00 Peak')).toBeTruthy();
  });

  it('paints one cell with a click', () => {
    render(<Harness />);
    fireEvent.click(screen.getByText('Sharp'));
    fireEvent.pointerDown(cell(47), { button: 0 });
    fireEvent.pointerUp(window);
    expect(tiers()[47]).toBe('sharp');
    expect(tiers().filter((t) => t === 'sharp')).toHaveLength(1);
  });

  it('fills the day from the presets', () => {
    const current = paintRange(fillAll('valley'), 20, 27, 'peak');
    render(<Harness start={paintRange(fillAll('flat'), 0, 5, 'sharp')} current={current} />);
    fireEvent.click(screen.getByTestId('preset-flat'));
    expect(latest).toEqual(fillAll('flat'));
    fireEvent.click(screen.getByTestId('preset-current'));
    expect(latest).toEqual(current);
  });

  it('offers no copy without a current version', () => {
    render(<Harness />);
    expect((screen.getByTestId('preset-current') as HTMLButtonElement).disabled).toBe(true);
  });

  it('works from the keyboard', () => {
    render(<Harness />);
    act(() => cell(0).focus());
    fireEvent.keyDown(cell(0), { key: '4' }); // valley brush
    fireEvent.keyDown(cell(0), { key: ' ' });
    fireEvent.keyDown(cell(0), { key: 'ArrowRight', shiftKey: true });
    fireEvent.keyDown(cell(1), { key: 'ArrowRight', shiftKey: true });
    fireEvent.keyDown(cell(2), { key: 'ArrowRight' });
    fireEvent.keyDown(cell(3), { key: 'End' });
    fireEvent.keyDown(cell(47), { key: '1' });
    fireEvent.keyDown(cell(47), { key: 'Enter' });
    expect(latest).toEqual(paintRange(paintRange(fillAll('flat'), 0, 2, 'valley'), 47, 47, 'sharp'));
    expect(document.activeElement).toBe(cell(47));
  });

  it('speaks Chinese', async () => {
    await act(() => i18n.changeLanguage('zh-CN'));
    render(<Harness />);
    for (const text of ['尖', '峰', '平', '谷', '全天平时', '复制当前版本', '画笔'])
      expect(screen.getAllByText(text).length).toBeGreaterThan(0);
    expect(cell(0).getAttribute('aria-label')).toBe('00:00–00:30 平');
  });
});
