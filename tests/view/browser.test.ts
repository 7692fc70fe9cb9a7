import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import type { EvaluationDocument } from '../../src/report/evaluation-page.js';
import { Site } from '../../src/view/site.js';
import { Browser, type OpenedPage } from '../support/cdp.js';
import { chromiumMissing, chromiumPath } from '../support/chromium.js';
import { makeViewHome, type ViewHome } from './fixture.js';
import { serve, type Served } from './serve.js';

/**
 * Every page of `autohedge view` and of its bundle in real headless Chromium at 1280 and
 * 390 px: no console error, no CSP report, no failed request, no sideways overflow; the
 * track record's charts hold the numbers of the evaluation's JSON; the bundle opens from
 * file:// with every link leading to a file it holds.
 */

const widths = [1280, 390] as const;
let fixture: ViewHome;
let browser: Browser;
const servers: Array<{ name: string; served: Served; paths: string[] }> = [];
const bundles: Array<{ name: string; dir: string }> = [];

async function sitePaths(home: string, demo: boolean): Promise<string[]> {
  const site = new Site({ home, demo, live: true, computeEvaluation: () => Promise.reject(new Error('unused')) });
  return site.paths();
}

beforeAll(async () => {
  if (!chromiumPath()) return;
  fixture = await makeViewHome();
  for (const demo of [false, true]) {
    const flags = demo ? ['--demo'] : [];
    servers.push({
      name: demo ? 'demo server' : 'server',
      served: await serve(fixture.io(), flags),
      paths: await sitePaths(fixture.home, demo),
    });
    const dir = join(await mkdtemp(join(tmpdir(), 'autohedge-bundle-')), 'site');
    const io = fixture.io();
    expect(await runCli(['view', '--bundle', dir, ...flags], io), io.err()).toBe(0);
    bundles.push({ name: demo ? 'demo bundle' : 'bundle', dir });
  }
  browser = Browser.launch();
}, 180_000);

afterAll(async () => {
  browser?.close();
  for (const { served } of servers) await served.stop();
});

interface Layout {
  page: number;
  viewport: number;
  main: number;
  mainClient: number;
  charts: number;
}

const layout = `(() => {
  const main = document.querySelector('main') ?? document.body;
  return { page: document.documentElement.scrollWidth, viewport: innerWidth, main: main.scrollWidth,
    mainClient: main.clientWidth, charts: document.querySelectorAll('svg').length };
})()`;

async function checkPage(url: string, width: number): Promise<OpenedPage> {
  const page = await browser.open(url, width);
  expect(page.errors, `${url} at ${width}`).toEqual([]);
  expect(page.failed, `${url} at ${width}`).toEqual([]);
  const measured = await page.evaluate<Layout>(layout);
  expect(measured.page, `${url} at ${width}: page wider than the window`).toBeLessThanOrEqual(measured.viewport + 1);
  expect(measured.main, `${url} at ${width}: main overflows`).toBeLessThanOrEqual(measured.mainClient + 1);
  return page;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

describe.skipIf(!chromiumPath())('autohedge view in Chromium', () => {
  test('every page of the server renders cleanly at 1280 and 390 px', async () => {
    for (const { served, paths } of servers) {
      expect(paths.length).toBeGreaterThan(8);
      for (const path of paths.filter((item) => item.endsWith('.html')))
        for (const width of widths) await (await checkPage(new URL(path, served.url).href, width)).close();
    }
  }, 300_000);

  test('the bundle opens from file:// and every link leads to a file it holds', async () => {
    for (const { dir, name } of bundles) {
      const pages = filesUnder(dir).filter((file) => file.endsWith('.html'));
      expect(pages.length, name).toBeGreaterThan(8);
      for (const file of pages)
        for (const width of widths) {
          const page = await checkPage(pathToFileURL(file).href, width);
          const links = await page.evaluate<string[]>(`[...document.querySelectorAll('a[href]')].map((a) => a.href)`);
          for (const link of links) {
            if (/^https?:/.test(link)) continue;
            expect(link, `${file}: ${link}`).toMatch(/^file:/);
            const target = fileURLToPath(link.replace(/[?#].*$/, ''));
            expect(existsSync(target), `${file} links to ${target}, which the bundle lacks`).toBe(true);
          }
          await page.close();
        }
    }
  }, 300_000);

  test('the harness sees what it checks for: a CSP report, a failed request, an overflow', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'autohedge-harness-'));
    const file = join(dir, 'bad.html');
    writeFileSync(
      file,
      `<!doctype html><meta http-equiv="Content-Security-Policy" content="default-src 'none'"><main><img src="missing.png"><div style="width:3000px">wide</div></main>`,
    );
    const page = await browser.open(pathToFileURL(file).href, 390);
    expect(page.errors.join('\n')).toMatch(/Content Security Policy/);
    await page.close();
    writeFileSync(
      file,
      `<!doctype html><meta name="viewport" content="width=device-width"><main><img src="missing.png"><div style="width:3000px">wide</div></main>`,
    );
    const second = await browser.open(pathToFileURL(file).href, 390);
    expect(second.failed.join('\n')).toMatch(/ERR_FILE_NOT_FOUND/);
    const measured = await second.evaluate<Layout>(layout);
    expect(measured.main).toBeGreaterThan(measured.mainClient + 1);
    expect(measured.page).toBeGreaterThan(measured.viewport + 1);
    await second.close();
  });

  test('the bundle carries the ledger export; files in anchors/ that are no valid token are neither counted nor published', () => {
    const demo = bundles.find((bundle) => bundle.name === 'demo bundle')!;
    const exported = readFileSync(join(demo.dir, 'ledger', 'ledger-export.jsonl'), 'utf8').split('\n');
    expect(JSON.parse(exported[0]!)).toMatchObject({ autohedgeLedgerExport: 1, records: 2 });
    // The fixture's anchors/ holds a JSON naming seq 0 and bytes that are no token: nothing is anchored.
    expect(existsSync(join(demo.dir, 'ledger', 'anchors', '000000.tsr'))).toBe(false);
    const page = readFileSync(join(demo.dir, 'ledger', 'index.html'), 'utf8');
    expect(page).not.toContain('last anchored seq 0');
    expect(page).toContain('No anchors: no time-stamp token');
  });

  test("the track record's charts hold the evaluation JSON's numbers", async () => {
    const evaluations = join(fixture.home, 'evaluations');
    const id = readdirSync(evaluations)[0]!;
    const document = JSON.parse(readFileSync(join(evaluations, id, 'evaluation.json'), 'utf8')) as EvaluationDocument;
    const demo = servers.find((server) => server.name === 'demo server')!;
    const page = await checkPage(new URL(`evaluations/${id}/evaluation.html`, demo.served.url).href, 1280);
    const drawn = await page.evaluate<Record<string, string | null>>(`Object.fromEntries(
      [...document.querySelectorAll('.chart-wide [data-series], .chart-wide [data-bar]')].map((element) => [
        element.closest('figure').dataset.figure + ' ' + (element.dataset.series ?? element.dataset.bar),
        (element.dataset.final ?? element.dataset.value) + ' ' + (element.dataset.points ?? element.dataset.n),
      ]))`);
    expect(document.summary.groups.length).toBeGreaterThan(0);
    for (const group of document.summary.groups) {
      const key = `${group.contamination}-${group.horizon}`;
      const rows = document.decisions.flatMap((row) => {
        const outcome = row.horizons.find((item) => item.horizon === group.horizon);
        return row.contamination === group.contamination &&
          row.action !== 'HOLD' &&
          outcome?.buyAndHold &&
          ['target', 'stop', 'horizon'].includes(outcome.outcome)
          ? [outcome]
          : [];
      });
      const [final, points] = drawn[`${key} desks`]!.split(' ');
      const desks = group.strategies.find((item) => item.strategy === 'desks')!;
      expect(Number(points)).toBe(desks.count);
      expect(Number(final)).toBeCloseTo(
        rows.reduce((sum, item) => sum + item.signedReturn!, 0),
        10,
      );
      expect(Number(final)).toBeCloseTo(desks.meanReturn! * desks.count, 10);
      for (const strategy of ['always-buy', 'momentum-12-1', 'random'] as const) {
        const stats = group.strategies.find((item) => item.strategy === strategy)!;
        const [value, count] = drawn[`${key} ${strategy}`]!.split(' ');
        expect(Number(count)).toBe(stats.count);
        expect(Number(value)).toBeCloseTo(stats.meanReturn! * stats.count, 10);
      }
      const [bench] = drawn[`${key} benchmark`]!.split(' ');
      expect(Number(bench)).toBeCloseTo(
        rows.reduce((sum, item) => sum + item.benchmarkReturn!, 0),
        10,
      );
      expect(drawn[`horizons-${group.contamination} ${group.horizon}`]).toBe(`${desks.hitRate} ${desks.count}`);
      for (const bucket of group.calibration.buckets)
        expect(drawn[`calibration-${key} ${bucket.from}-${bucket.to}`]).toBe(
          `${bucket.n > 0 ? bucket.hitRate : ''} ${bucket.n}`,
        );
    }
    writeFileSync(join(tmpdir(), 'autohedge-view-evaluation.png'), await page.screenshot());
    await page.close();
  }, 60_000);

  test('at 390 px the narrow charts are shown, with labels of 9 px or more', async () => {
    const demo = servers.find((server) => server.name === 'demo server')!;
    const page = await checkPage(new URL('track-record.html', demo.served.url).href, 390);
    const sizes = await page.evaluate<number[]>(`[...document.querySelectorAll('figure.chart svg')]
      .filter((svg) => svg.getBoundingClientRect().width > 0)
      .map((svg) => 11 * svg.getBoundingClientRect().width / svg.viewBox.baseVal.width)`);
    expect(sizes.length).toBeGreaterThan(2);
    for (const size of sizes) expect(size).toBeGreaterThanOrEqual(9);
    await page.close();
  }, 60_000);
});

if (!chromiumPath()) test.skip(chromiumMissing, () => undefined);
