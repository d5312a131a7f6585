import { describe, expect, it } from 'vitest';
import { actionsColumnWidth, buttonWidth, textWidth, type ActionMetrics } from './actions-width';

// jsdom has no canvas: widths come from the estimate (Latin 0.6 em, CJK 1 em).
const m: ActionMetrics = { fontSize: 14, fontFamily: 'sans-serif', fontWeightStrong: 600, marginXS: 8, cellPadding: 16 };

describe('actions column width', () => {
  it('measures a button as padding, icon, gap and label', () => {
    expect(textWidth('Stop', 14, 'sans-serif')).toBeCloseTo(4 * 8.4);
    expect(textWidth('远程停止', 14, 'sans-serif')).toBe(56);
    expect(buttonWidth({ label: 'Stop', icon: true }, m)).toBeCloseTo(16 + 14 + 8 + 33.6);
    expect(buttonWidth({ label: 'Stop', icon: false }, m)).toBeCloseTo(16 + 33.6);
  });

  it('fits the widest row of buttons on one line, in the language shown', () => {
    const stop = actionsColumnWidth([[{ label: 'Stop', icon: true }]], 'Actions', m);
    const remoteStop = actionsColumnWidth([[{ label: 'Remote stop', icon: true }]], 'Actions', m);
    // The old fixed 104 px was too narrow for "Remote stop".
    expect(remoteStop).toBeGreaterThanOrEqual(Math.ceil(buttonWidth({ label: 'Remote stop', icon: true }, m) + 32));
    expect(remoteStop).toBeGreaterThan(104);
    expect(stop).toBeLessThan(remoteStop);
    const rows = [
      [{ label: 'Set price', icon: true }],
      [
        { label: 'Set price', icon: true },
        { label: 'Group price', icon: true },
      ],
    ];
    const both = buttonWidth(rows[1]![0]!, m) + buttonWidth(rows[1]![1]!, m);
    expect(actionsColumnWidth(rows, 'Actions', m)).toBe(Math.ceil(both + 2 * 16 + 4));
  });

  it('is never narrower than its title and follows the cell padding', () => {
    const title = 'A rather long actions title';
    expect(actionsColumnWidth([[{ label: 'X', icon: false }]], title, m)).toBe(Math.ceil(textWidth(title, 14, 'sans-serif', 600) + 36));
    const roomy = actionsColumnWidth([[{ label: 'Edit', icon: true }]], 'Actions', m);
    expect(actionsColumnWidth([[{ label: 'Edit', icon: true }]], 'Actions', { ...m, cellPadding: 8 })).toBe(roomy - 16);
  });
});
