import { writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { captureIo } from '../support/cli.js';
import { chromiumMissing, chromiumPath, runChromium } from '../support/chromium.js';

/**
 * The portfolio's report.html as a reader opens it: the demo ACME run sized against a
 * book (`portfolio --demo --out <dir>`), then loaded in real headless Chromium.
 */

let out: string;

beforeAll(async () => {
  out = await mkdtemp(join(tmpdir(), 'autohedge-portfolio-html-'));
  const io = captureIo();
  expect(await runCli(['analyze', 'ACME', '--demo', '--quiet'], io)).toBe(0);
  writeFileSync(join(io.cwd, 'book.csv'), 'symbol,quantity\nACME,10\nCASH,98000\n');
  const code = await runCli(['portfolio', '--holdings', 'book.csv', '--demo', '--quiet', '--out', out], io);
  expect(io.err()).toBe('');
  expect(code).toBe(0);
});

afterAll(async () => {
  await rm(out, { recursive: true, force: true });
});

describe.skipIf(chromiumPath() === null)('portfolio report.html in Chromium', () => {
  test('renders the proposed banner, the weights chart and the orders', async () => {
    const dom = (await runChromium(pathToFileURL(join(out, 'report.html')).href, ['--dump-dom'])).stdout;
    expect(dom).toContain('data-proposed=""');
    expect(dom).toContain('PROPOSED — nothing is placed');
    expect(dom).toMatch(/<svg[^>]*aria-labelledby="weights-title"/);
    expect(dom.match(/<rect /g)?.length).toBeGreaterThanOrEqual(4);
    expect(dom).toContain('<td>ACME</td><td>BUY</td><td class="number">18</td>');
  });
});

test.skipIf(chromiumPath() !== null)('portfolio report.html in Chromium: skipped', () => {
  console.warn(chromiumMissing);
});
