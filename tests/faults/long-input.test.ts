// Input echoed back in an error is cut to a short prefix with its length: a 2 MB universe
// line, command-line ticker or run id never becomes a 2 MB error line.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { validateTicker } from '../../src/market/ticker.js';
import { quoteInput } from '../../src/text.js';
import { captureIo } from '../support/cli.js';

const huge = `A${'B'.repeat(2 * 1024 * 1024)}`;

describe('long input in error messages', () => {
  it('quoteInput keeps short input whole and cuts long input to a prefix and its length', () => {
    expect(quoteInput('QQQ,')).toBe("'QQQ,'");
    expect(quoteInput('x'.repeat(40))).toBe(`'${'x'.repeat(40)}'`);
    expect(quoteInput('x'.repeat(41))).toBe(`'${'x'.repeat(39)}…' (41 characters)`);
    expect(quoteInput(huge)).toBe(`'A${'B'.repeat(38)}…' (2,097,153 characters)`);
  });

  it('a 2 MB ticker argument: one short usage line', async () => {
    expect(() => validateTicker(huge)).toThrow(/\(2,097,153 characters\): expected 1–15 characters/);
    const io = captureIo();
    const code = await runCli(['analyze', huge, '--demo'], io);
    expect(code).toBe(2);
    expect(io.err().length).toBeLessThan(300);
    expect(io.err()).toContain('(2,097,153 characters)');
  });

  it('a 2 MB line in a universe file: one short usage line naming the line', async () => {
    const io = captureIo();
    writeFileSync(join(io.cwd, 'universe.txt'), `AAPL\n${huge}\n`);
    const code = await runCli(['analyze', '--universe', 'universe.txt', '--demo'], io);
    expect(code).toBe(2);
    expect(io.err()).toMatch(/universe\.txt:2: invalid ticker 'AB+…' \(2,097,153 characters\)/);
    expect(io.err().length).toBeLessThan(300);
  });

  it('a 2 MB run id: one short usage line', async () => {
    const io = captureIo();
    const code = await runCli(['runs', 'show', huge], io);
    expect(code).toBe(2);
    expect(io.err().length).toBeLessThan(300);
  });
});
