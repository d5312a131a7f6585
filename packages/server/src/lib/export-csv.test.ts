import { describe, expect, it } from 'vitest';
import { csvField } from './export.js';

describe('CSV cells', () => {
  it('neutralise what a spreadsheet would run as a formula, including after a leading tab or carriage return', () => {
    for (const text of ['=1+2', '+1', '-1', '@SUM(A1)', '\t=1+2', '\r=1+2'])
      expect(csvField(text).replace(/^"|"$/g, ''), JSON.stringify(text)).toBe(`'${text}`);
    // Numbers stay numbers (a negative adjustment), plain text stays as it is, and quotes are doubled.
    expect(csvField(-12.5)).toBe('-12.5');
    expect(csvField('Depot 1')).toBe('Depot 1');
    expect(csvField('say "hi", then')).toBe('"say ""hi"", then"');
  });
});
