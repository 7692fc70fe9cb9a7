// Issue 44 item 25: the watch page is readable at a phone's 390 px — the page itself never
// overflows, the table scrolls sideways inside its own box (every column, the report link
// included, reachable), and the text keeps a readable size. Measured in headless Chromium,
// in a 390 px iframe (headless windows are at least 500 px wide), as tests/report/html-phone
// does for report.html.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { WatchReport } from '../../src/watch/delta.js';
import { renderWatchHtml } from '../../src/watch/render.js';
import { chromiumMissing, chromiumPath } from '../support/chromium.js';
import { measureAtPhoneWidth, writePhoneFrame } from '../support/phone-frame.js';

const summary = {
  runId: '20261207T165820Z-ACME-bee5fd',
  day: '2026-11-27',
  status: 'flagged' as const,
  action: 'BUY' as const,
  conviction: 64,
  positionSizePct: 4,
  entry: 139.57,
  stopLoss: 130.43,
  takeProfit: 155.57,
  flags: ['stop-too-tight'],
};

const report: WatchReport = {
  cycle: 'c',
  asOf: '2026-11-27T18:00:00.000Z',
  historical: false,
  demo: true,
  analysed: [
    {
      ticker: 'ACME',
      triggers: [{ name: 'no-call', detail: 'never analysed' }],
      runId: summary.runId,
      previous: null,
      current: summary,
      changes: ['first call: BUY (conviction 64)'],
      price: 141.85,
    },
  ],
  carried: [
    {
      ticker: 'GLBX',
      ageSessions: 3,
      runId: '20261201T220000Z-GLBX-0a1b2c',
      action: 'HOLD',
      status: 'ok',
      conviction: 55,
      entry: 1234.5,
      stopLoss: 1180.25,
      takeProfit: 1320.75,
      price: 1250.1,
    },
  ],
  skipped: [],
  unavailable: [],
  spend: { monthUsd: 0, budgetUsd: 5, worstCasePerRunUsd: 0.25 },
};

const measure = `<script>
const box = (element) => element.getBoundingClientRect();
const wrap = document.querySelector('.scroll');
const links = [...document.querySelectorAll('td a')];
const cells = [...document.querySelectorAll('td')];
parent.postMessage(JSON.stringify({
  viewport: innerWidth,
  page: document.documentElement.scrollWidth,
  wrapRight: box(wrap).right,
  overflow: getComputedStyle(wrap).overflowX,
  reach: wrap.scrollWidth,
  linkRight: Math.max(...links.map((link) => box(link).right - box(wrap).left)),
  links: links.length,
  smallestFontPx: Math.min(...cells.map((cell) => parseFloat(getComputedStyle(cell).fontSize))),
}), '*');
</script>`;

let out: string;

beforeAll(async () => {
  out = await mkdtemp(join(tmpdir(), 'autohedge-watch-phone-'));
  await writePhoneFrame(out, renderWatchHtml(report), measure);
});

afterAll(async () => {
  await rm(out, { recursive: true, force: true });
});

describe.skipIf(!chromiumPath())('the watch page at 390 px', () => {
  test('the page does not overflow; the table scrolls in its box with every column reachable; text stays readable', async () => {
    const { posted, stderr } = await measureAtPhoneWidth(out);
    expect(posted, stderr).not.toBe('');
    const layout = JSON.parse(posted);
    expect(layout.viewport).toBe(390);
    expect(layout.page).toBeLessThanOrEqual(390);
    expect(layout.wrapRight).toBeLessThanOrEqual(390);
    expect(layout.overflow).toBe('auto');
    expect(layout.links).toBe(2);
    // The last column (the report link) lies within what the box scrolls to.
    expect(layout.linkRight).toBeLessThanOrEqual(layout.reach + 0.5);
    expect(layout.smallestFontPx).toBeGreaterThanOrEqual(11);
  });
});

test.skipIf(chromiumPath() !== null)('the watch page at 390 px: skipped', () => {
  console.warn(chromiumMissing);
});
