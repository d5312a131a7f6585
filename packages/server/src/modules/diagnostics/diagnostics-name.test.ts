import { describe, expect, it } from 'vitest';
import { diagnosticsFileName } from './diagnostics.routes.js';

describe('the name a diagnostics upload is stored under', () => {
  it('keeps a plain name, in safe characters', () => {
    expect(diagnosticsFileName('diag-2026.tar.gz', null)).toBe('diag-2026.tar.gz');
    expect(diagnosticsFileName('my log (1).txt', null)).toBe('my_log__1_.txt');
    expect(diagnosticsFileName(undefined, 'from-the-charger.log')).toBe('from-the-charger.log');
  });

  it('never leaves the request’s directory, nor names it or its parent', () => {
    // The multipart parser turns a name of ".." into "": the charger's own name is used then.
    expect(diagnosticsFileName('', '..')).toBe('diagnostics.log');
    expect(diagnosticsFileName('', '.')).toBe('diagnostics.log');
    expect(diagnosticsFileName(undefined, '../../etc/passwd')).toBe('passwd');
    expect(diagnosticsFileName('..\\..\\x.log', null)).toBe('_.._x.log');
    expect(diagnosticsFileName('.hidden', null)).toBe('hidden');
    expect(diagnosticsFileName(undefined, null)).toBe('diagnostics.log');
  });
});
