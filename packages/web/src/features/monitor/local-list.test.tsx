import { screen } from '@testing-library/react';
import i18n from 'i18next';
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { rawKeys, renderWithProviders } from '../../shared/resource/test-kit';
import { fullOffered, LocalListRecord } from './local-list';

const outOfStep = {
  serverVersion: 4,
  chargerVersion: 7,
  inStep: false,
  lastStatus: 'VersionMismatch',
  entries: 12,
  suggested: 'Full' as const,
};

afterEach(async () => {
  await act(() => i18n.changeLanguage('en-US'));
});

describe('the local list record', () => {
  it('shows both versions, out of step and the last answer in the spec’s words, in both languages', async () => {
    for (const [lang, mismatch, outOfStepWord] of [
      ['en-US', 'Version mismatch', 'Out of step'],
      ['zh-CN', '版本不匹配', '不一致'],
    ] as const) {
      await act(() => i18n.changeLanguage(lang));
      const view = renderWithProviders(<LocalListRecord state={outOfStep} />);
      const record = await screen.findByTestId('local-list-record');
      expect(screen.getByTestId('server-version').textContent).toBe('4');
      expect(record.textContent).toContain('7');
      expect(record.textContent).toContain(mismatch);
      expect(screen.getByTestId('in-step').textContent).toBe(outOfStepWord);
      expect(rawKeys(record.textContent ?? '')).toEqual([]);
      view.unmount();
    }
  });

  it('says when nothing was sent yet, and that a charger without lists does not support them', async () => {
    renderWithProviders(
      <LocalListRecord
        state={{ serverVersion: null, chargerVersion: -1, inStep: false, lastStatus: null, entries: 0, suggested: 'Full' }}
      />,
    );
    const record = await screen.findByTestId('local-list-record');
    expect(screen.getByTestId('server-version').textContent).toBe('None sent yet');
    expect(record.textContent).toContain('Not supported');
  });

  it('offers Full only to a point out of step that answered', () => {
    expect(fullOffered(outOfStep, 'versionMismatch')).toBe(true);
    expect(fullOffered(outOfStep, 'failed')).toBe(true);
    expect(fullOffered(outOfStep, 'offline')).toBe(false);
    expect(fullOffered(outOfStep, 'notSupported')).toBe(false);
    expect(fullOffered({ ...outOfStep, inStep: true }, 'accepted')).toBe(false);
    expect(fullOffered(undefined, 'failed')).toBe(false);
  });
});
