import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { captureIo } from '../support/cli.js';

describe('a ticker named twice', () => {
  it('--json keeps the array shape for several names, analyses it once and says so on stderr', async () => {
    const io = captureIo();
    expect(await runCli(['analyze', 'ACME', 'acme', '--demo', '--json', '--no-save'], io), io.err()).toBe(0);
    const printed = JSON.parse(io.out()) as Array<{ ticker: string }>;
    expect(Array.isArray(printed)).toBe(true);
    expect(printed.map((result) => result.ticker)).toEqual(['ACME']);
    expect(io.err()).toContain('autohedge: warning: ACME named more than once: analysed once');
  });

  it('one ticker named once is still the object itself', async () => {
    const io = captureIo();
    expect(await runCli(['analyze', 'ACME', '--demo', '--json', '--no-save', '--quiet'], io), io.err()).toBe(0);
    expect(Array.isArray(JSON.parse(io.out()))).toBe(false);
  });
});
