import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { captureIo } from '../support/cli.js';
import { chromiumMissing, chromiumPath, runChromium } from '../support/chromium.js';

/**
 * report.html as a reader gets it: written by `analyze ACME --demo --out <dir>`,
 * then opened in real headless Chromium — a screenshot at desktop and phone width
 * that is not blank, the DOM holding the chart and the decision, a PDF for print.
 */

let out: string;
let htmlPath: string;

beforeAll(async () => {
  out = await mkdtemp(join(tmpdir(), 'autohedge-html-'));
  const io = captureIo();
  const code = await runCli(['analyze', 'ACME', '--demo', '--quiet', '--no-save', '--out', out], io);
  expect(io.err()).toBe('');
  expect(code).toBe(0);
  htmlPath = join(out, 'report.html');
});

afterAll(async () => {
  await rm(out, { recursive: true, force: true });
});

/** Share of pixels that are not (near) white, and the spread of their brightness. */
function inkOf(png: Buffer): { width: number; height: number; inked: number; variance: number } {
  const image = PNG.sync.read(png);
  let count = 0;
  let inked = 0;
  let sum = 0;
  let squares = 0;
  for (let index = 0; index < image.data.length; index += 4) {
    const brightness = (image.data[index]! + image.data[index + 1]! + image.data[index + 2]!) / 3;
    count += 1;
    sum += brightness;
    squares += brightness * brightness;
    if (brightness < 235) inked += 1;
  }
  const mean = sum / count;
  return { width: image.width, height: image.height, inked: inked / count, variance: squares / count - mean * mean };
}

describe('report.html on disk', () => {
  test('--out holds report.html, chart.svg and a report.md that links the chart', async () => {
    for (const name of ['report.html', 'chart.svg', 'report.md', 'result.json', 'transcript.jsonl'])
      expect(existsSync(join(out, name)), name).toBe(true);
    expect(await readFile(join(out, 'report.md'), 'utf8')).toContain('](chart.svg)');
    const svg = await readFile(join(out, 'chart.svg'), 'utf8');
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
  });

  test('references nothing outside itself: no script, stylesheet, font, image or frame; links only to cited sources', async () => {
    const html = await readFile(htmlPath, 'utf8');
    expect(html).not.toMatch(/<script|<link|<img|<iframe|<object|<embed|@import|url\(|@font-face/i);
    expect(html).not.toMatch(/\son\w+=/i);
    const sources = JSON.parse(readFileSync(join(out, 'result.json'), 'utf8')).reports.find(
      (report: { agent: string }) => report.agent === 'sentiment',
    );
    const hrefs = [...html.matchAll(/\b(?:href|src|xlink:href|action|poster)="([^"]*)"/g)].map((match) => match[1]!);
    expect(hrefs.length).toBeGreaterThan(0);
    for (const href of hrefs) {
      // A figure's note is a link inside the page, to an element it holds.
      if (href.startsWith('#')) {
        expect(html).toContain(`id="${href.slice(1)}"`);
        continue;
      }
      expect(href).toMatch(/^https?:\/\//);
      expect(sources.text).toContain(href);
    }
    // The only http(s) text outside links is the SVG namespace, which is a name, not a fetch.
    const bare = html.replace(/<a href="[^"]*"/g, '').replace(/xmlns="http:\/\/www\.w3\.org\/2000\/svg"/g, '');
    const outsideText = bare.replace(/>[^<]*</g, '><');
    expect(outsideText).not.toMatch(/https?:\/\//);
  });
});

describe.skipIf(!chromiumPath())('report.html in headless Chromium', () => {
  test('a desktop screenshot is not blank', async () => {
    const shot = join(out, 'desktop.png');
    const run = await runChromium(pathToFileURL(htmlPath).href, [`--screenshot=${shot}`, '--window-size=1000,1600']);
    expect(existsSync(shot), run.stderr).toBe(true);
    const ink = inkOf(readFileSync(shot));
    expect(ink.width).toBe(1000);
    expect(ink.inked).toBeGreaterThan(0.03);
    expect(ink.variance).toBeGreaterThan(200);
  });

  test('at phone width the page still draws (no blank or cut-off render)', async () => {
    const shot = join(out, 'phone.png');
    await runChromium(pathToFileURL(htmlPath).href, [`--screenshot=${shot}`, '--window-size=390,844']);
    const ink = inkOf(readFileSync(shot));
    expect(ink.width).toBe(390);
    expect(ink.inked).toBeGreaterThan(0.03);
  });

  test('the DOM holds the chart (closes, both averages, the levels, the as-of day) and the decision', async () => {
    const run = await runChromium(pathToFileURL(htmlPath).href, ['--dump-dom']);
    const dom = run.stdout;
    expect(dom).toContain('data-chart="price"');
    for (const series of ['close', 'sma50', 'sma200']) expect(dom).toContain(`data-series="${series}"`);
    for (const level of ['entry', 'stopLoss', 'takeProfit']) expect(dom).toContain(`data-level="${level}"`);
    expect(dom).toMatch(/data-as-of="2026-11-27"/);
    expect(dom).toContain('data-decision="BUY"');
    expect(dom).toMatch(/class="action action-BUY">BUY</);
    expect(dom).toContain('DEMO — synthetic data');
  });

  test('prints to a PDF', async () => {
    const pdf = join(out, 'report.pdf');
    await runChromium(pathToFileURL(htmlPath).href, [`--print-to-pdf=${pdf}`, '--no-pdf-header-footer']);
    const bytes = readFileSync(pdf);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(bytes.length).toBeGreaterThan(10_000);
  });
});

test.runIf(!chromiumPath())('browser tests of report.html', () => {
  console.warn(chromiumMissing);
});
