import { writeFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { constructPortfolio } from '../../src/portfolio/construct.js';
import { renderPortfolioHtml } from '../../src/report/portfolio-html.js';
import { Browser } from '../support/cdp.js';
import { captureIo } from '../support/cli.js';
import { chromiumMissing, chromiumPath, runChromium } from '../support/chromium.js';
import { mixedBook } from './weights-book.js';

/**
 * The portfolio's report.html as a reader opens it: the demo ACME run sized against a
 * book (`portfolio --demo --out <dir>`), then loaded in real headless Chromium; and, at a
 * phone's 390 px and a desktop's 1280 px, that page and one of a book with a trim, a sale
 * to zero, a new buy and a short (issue 44 items 23 and 24), measured in the browser.
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
  const plan = constructPortfolio(mixedBook);
  const report = { plan, asOf: '2026-11-27T21:00:00.000Z', lastSession: '2026-11-27', demo: false };
  await writeFile(join(out, 'mixed.html'), renderPortfolioHtml(report));
});

afterAll(async () => {
  await rm(out, { recursive: true, force: true });
});

describe.skipIf(chromiumPath() === null)('portfolio report.html in Chromium', () => {
  test('renders the proposed banner, the weights chart and the orders', async () => {
    const dom = (await runChromium(pathToFileURL(join(out, 'report.html')).href, ['--dump-dom'])).stdout;
    expect(dom).toContain('data-proposed=""');
    expect(dom).toContain('PROPOSED — nothing is placed');
    expect(dom).toMatch(/<svg[^>]*aria-labelledby="weights-title-wide"/);
    expect(dom.match(/<rect /g)?.length).toBeGreaterThanOrEqual(4);
    expect(dom).toContain(
      '<td data-label="ticker">ACME</td><td data-label="side">BUY</td><td class="number" data-label="quantity">18</td>',
    );
  });
});

interface Layout {
  viewport: number;
  page: number;
  /** Elements reaching past the window's edges, outside a scroll container. */
  outside: string[];
  /** Per scroll container, how much of its content is out of sight. */
  hidden: number[];
  /** Cells whose text is wider than the cell. */
  clipped: string[];
  layout: string | null;
  /** Rendered size in CSS px of each text of the chart shown. */
  sizes: number[];
  /** Pairs of the chart's texts that overlap, texts over a bar, texts past the chart's edge. */
  overlaps: string[];
  onBars: string[];
  beyond: string[];
  labels: Array<{ key: string; text: string }>;
}

const measure = `(() => {
  const box = (element) => element.getBoundingClientRect();
  const meets = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const name = (element) => element.tagName.toLowerCase() + (element.getAttribute('class') ? '.' + element.getAttribute('class') : '') + ' ' + (element.textContent ?? '').slice(0, 30);
  const outside = [...document.body.querySelectorAll('*')].filter((element) => {
    const rect = box(element);
    const scroller = element.parentElement?.closest('.scroll');
    return rect.width > 0 && !scroller && (rect.right > innerWidth + 0.5 || rect.left < -0.5);
  }).map(name);
  const svg = [...document.querySelectorAll('#weights svg')].find((element) => box(element).width > 0);
  const texts = [...svg.querySelectorAll('text')];
  const bars = [...svg.querySelectorAll('rect[data-bar]')];
  const overlaps = texts.flatMap((a, i) => texts.slice(i + 1).filter((b) => meets(box(a), box(b))).map((b) => a.textContent + ' / ' + b.textContent));
  const labels = texts.filter((text) => text.dataset.bar);
  const onBars = labels.flatMap((text) => bars.filter((bar) => meets(box(text), box(bar))).map((bar) => text.dataset.ticker + ' ' + text.dataset.bar + ' ' + text.textContent + ' on ' + bar.dataset.ticker + ' ' + bar.dataset.bar));
  const frame = box(svg);
  return {
    viewport: innerWidth,
    page: document.documentElement.scrollWidth,
    outside,
    hidden: [...document.querySelectorAll('.scroll')].map((element) => element.scrollWidth - element.clientWidth),
    clipped: [...document.querySelectorAll('td')].filter((cell) => cell.scrollWidth > cell.clientWidth + 0.5).map(name),
    layout: svg.dataset.layout,
    sizes: texts.map((text) => parseFloat(getComputedStyle(text).fontSize) * text.getScreenCTM().a),
    overlaps,
    onBars,
    beyond: texts.filter((text) => box(text).left < frame.left - 0.5 || box(text).right > frame.right + 0.5).map(name),
    labels: labels.map((text) => ({ key: text.dataset.ticker + ' ' + text.dataset.bar, text: text.textContent })),
  };
})()`;

const pages = [
  { file: 'report.html', width: 390, layout: 'narrow', labels: 2 },
  { file: 'mixed.html', width: 390, layout: 'narrow', labels: 8 },
  { file: 'mixed.html', width: 1280, layout: 'wide', labels: 8 },
] as const;

describe.skipIf(chromiumPath() === null)('the portfolio page at a phone’s and a desktop’s width', () => {
  let browser: Browser;
  beforeAll(() => {
    browser = Browser.launch();
  });
  afterAll(() => browser?.close());

  test.each(pages)(
    '$file at $width px: nothing wider than the window, no clipped cell, legible chart',
    async (spec) => {
      const page = await browser.open(pathToFileURL(join(out, spec.file)).href, spec.width);
      try {
        expect(page.errors).toEqual([]);
        const layout = await page.evaluate<Layout>(measure);
        writeFileSync(join(tmpdir(), `autohedge-portfolio-${spec.width}-${spec.file}.png`), await page.screenshot());
        expect(layout.viewport).toBe(spec.width);
        expect(layout.page).toBeLessThanOrEqual(spec.width);
        expect(layout.outside).toEqual([]);
        expect(layout.hidden.length).toBeGreaterThan(0);
        for (const hidden of layout.hidden) expect(hidden).toBeLessThanOrEqual(0);
        expect(layout.clipped).toEqual([]);
        expect(layout.layout).toBe(spec.layout);
        expect(Math.min(...layout.sizes)).toBeGreaterThanOrEqual(10);
        expect(layout.overlaps).toEqual([]);
        expect(layout.onBars).toEqual([]);
        expect(layout.beyond).toEqual([]);
        expect(layout.labels).toHaveLength(spec.labels);
      } finally {
        await page.close();
      }
    },
    60_000,
  );
});

test.skipIf(chromiumPath() !== null)('portfolio report.html in Chromium: skipped', () => {
  console.warn(chromiumMissing);
});
