import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { captureIo } from '../support/cli.js';
import { chromiumMissing, chromiumPath } from '../support/chromium.js';
import { measureAtPhoneWidth, writePhoneFrame } from '../support/phone-frame.js';

/**
 * report.html laid out at a phone's 390 px (#33 item 18), measured in headless
 * Chromium. Headless windows are at least 500 px wide, so the report is laid out in a
 * 390 px iframe; a copy of it (without its CSP, which forbids scripts) measures itself
 * and posts the numbers to the outer page, which the test reads from the dumped DOM.
 */

let out: string;

const measure = `<script>
const box = (element) => element.getBoundingClientRect();
const table = document.querySelector('#decision table');
const wrap = table.closest('.scroll');
const atr = [...table.querySelectorAll('th')].find((cell) => cell.textContent.trim() === 'In ATR');
const chart = [...document.querySelectorAll('#chart svg')].find((svg) => box(svg).width > 0);
const label = chart.querySelector('text');
parent.postMessage(JSON.stringify({
  viewport: innerWidth,
  page: document.documentElement.scrollWidth,
  wrapRight: box(wrap).right, atrRight: box(atr).right, hidden: wrap.scrollWidth - wrap.clientWidth,
  labelPx: 11 * box(chart).width / chart.viewBox.baseVal.width,
}), '*');
</script>`;

beforeAll(async () => {
  out = await mkdtemp(join(tmpdir(), 'autohedge-phone-'));
  const io = captureIo();
  expect(await runCli(['analyze', 'ACME', '--demo', '--quiet', '--no-save', '--out', out], io)).toBe(0);
  await writePhoneFrame(out, await readFile(join(out, 'report.html'), 'utf8'), measure);
});

afterAll(async () => {
  await rm(out, { recursive: true, force: true });
});

describe.skipIf(!chromiumPath())('report.html at 390 px', () => {
  test('the levels table shows its In ATR column and the chart draws readable labels', async () => {
    const { posted, stderr } = await measureAtPhoneWidth(out);
    expect(posted, stderr).not.toBe('');
    const layout = JSON.parse(posted);
    expect(layout.viewport).toBe(390);
    expect(layout.page).toBeLessThanOrEqual(390);
    expect(layout.hidden).toBeLessThanOrEqual(0);
    expect(layout.atrRight).toBeLessThanOrEqual(layout.wrapRight + 0.5);
    // The wide chart shrunk to a phone drew its 11-unit labels at about 5 px.
    expect(layout.labelPx).toBeGreaterThanOrEqual(9);
  });
});

test.skipIf(chromiumPath() !== null)('report.html at 390 px: skipped', () => {
  console.warn(chromiumMissing);
});
