import { describe, expect, it } from 'vitest';
import { dictionaries } from './dicts.js';
import { translate } from './i18n/index.js';
import { allEndpoints } from './index.js';

describe('the operation dictionary', () => {
  const values = new Set(dictionaries.operation.values.map(([v]) => v));

  it('has every operation an endpoint logs, so that the system log never shows a raw name', () => {
    const missing = [...new Set(allEndpoints().map((e) => e.operation))].filter((o) => o && !values.has(o));
    expect(missing).toEqual([]);
  });

  it('labels each of its values in both languages', () => {
    for (const lang of ['zh', 'en'] as const)
      for (const v of values) expect(translate(lang, `enums.operation.${v}`), `${lang} ${v}`).not.toBe(`enums.operation.${v}`);
  });
});
