import { describe, expect, it } from 'vitest';
import { maskLocation } from './secret-location.js';

describe('maskLocation', () => {
  it("hides a URL user's password and the token of the server's file paths, nothing else", () => {
    const token = 'ab'.repeat(32);
    expect(maskLocation('ftp://diag12:s3cr3t@10.0.0.5:2121/')).toBe('ftp://diag12:***@10.0.0.5:2121/');
    // The last @ ends the user part, as URL parsers read it.
    expect(maskLocation('https://me:p@ss@example.com/fw.bin')).toBe('https://me:***@example.com/fw.bin');
    expect(maskLocation(`http://csms.example:8080/files/diagnostics/${token}`)).toBe('http://csms.example:8080/files/diagnostics/***');
    expect(maskLocation(`https://csms.example/files/firmware/${token}/fw-2.1.bin`)).toBe(
      'https://csms.example/files/firmware/***/fw-2.1.bin',
    );
    expect(maskLocation('ftp://anonymous@example.com/fw.bin')).toBe('ftp://anonymous@example.com/fw.bin');
    expect(maskLocation('https://example.com/files/firmware/short/fw.bin')).toBe('https://example.com/files/firmware/short/fw.bin');
  });
});
