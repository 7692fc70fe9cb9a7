// Issue 44 items 5 and 25 through the built CLI: `watch --demo` runs one cycle over the demo
// with no key, says DEMO on every surface (terminal, delta.md, delta.html, delta.json),
// writes its cycle under watch/demo/ and nothing a live watch would read as its own state,
// and exits 0 (a clean cycle). The demo cassette holds one quote request per ticker: the
// cycle's snapshot is handed to the analysis, so the strict replay answers both.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { WatchReport } from '../../src/watch/delta.js';
import { ensureBuilt, runBuilt, smokeCassette, type ChildRun } from './support.js';

beforeAll(async () => {
  await ensureBuilt();
}, 240_000);

/** The one cycle folder a run wrote under watch/demo/. */
function demoCycles(home: string): string[] {
  const folder = path.join(home, 'watch', 'demo');
  return existsSync(folder) ? readdirSync(folder).map((name) => path.join(folder, name)) : [];
}

function read(folder: string, file: string): string {
  return readFileSync(path.join(folder, file), 'utf8');
}

describe('autohedge watch --demo (built CLI, no key)', () => {
  let first: ChildRun;
  let cycle: string;

  beforeAll(async () => {
    first = await runBuilt(['watch', '--demo']);
    [cycle] = demoCycles(first.home) as [string];
  }, 120_000);

  it('runs one cycle over the demo, exit 0, and says DEMO on the terminal', () => {
    expect(first.code, first.stderr).toBe(0);
    const lines = first.stdout.split('\n');
    expect(lines[0]).toMatch(/^DEMO — synthetic data, not advice · autohedge watch — as of 2026-11-27/);
    expect(first.stdout).toMatch(/ACME \[no-call\]: BUY, conviction 64: first call: BUY \(conviction 64\) \(run \S+\)/);
    expect(first.stderr).not.toMatch(/ReplayMissError|no recorded response/);
  });

  it('saves delta.json, delta.md and delta.html under watch/demo/, each labelled DEMO', () => {
    expect(demoCycles(first.home)).toHaveLength(1);
    const report = JSON.parse(read(cycle, 'delta.json')) as WatchReport;
    expect(report.demo).toBe(true);
    expect(report.analysed).toHaveLength(1);
    expect(report.analysed[0]).toMatchObject({ ticker: 'ACME', current: { action: 'BUY', conviction: 64 } });
    expect(report.analysed[0]!.price).toBeGreaterThan(0);
    expect(report.spend.monthUsd).toBe(0);
    expect(read(cycle, 'delta.md')).toMatch(/^# DEMO/);
    const html = read(cycle, 'delta.html');
    expect(html).toMatch(/<title>DEMO/);
    expect(html).toContain('<p class="banner" data-demo="">DEMO');
  });

  it("the page's ACME row: the call, conviction, levels, price, and a link that reaches the run's report", () => {
    const report = JSON.parse(read(cycle, 'delta.json')) as WatchReport;
    const [acme] = report.analysed;
    const html = read(cycle, 'delta.html');
    const row = /<tr data-ticker="ACME"[^]*?<\/tr>/.exec(html)?.[0] ?? '';
    expect(row).toContain('<strong class="action-BUY">BUY</strong>');
    expect(row).toContain('<td class="number">64</td>');
    const { entry, stopLoss, takeProfit } = acme!.current!;
    const numbers = [entry, stopLoss, takeProfit, acme!.price].map(
      (value) => `<td class="number">${value!.toFixed(2)}</td>`,
    );
    expect(row).toContain(numbers.join(''));
    const href = /<a href="([^"]+)"/.exec(row)?.[1] ?? '';
    expect(href).toBe(`../../../runs/${acme!.runId}/report.html`);
    expect(existsSync(path.resolve(cycle, href))).toBe(true);
  });

  it('writes nothing a live watch would read as its own: a demo run, the demo ledger, no spend reservation', () => {
    const home = first.home;
    expect(readdirSync(path.join(home, 'watch'))).toEqual(['demo']);
    expect(existsSync(path.join(home, 'spend-reservations.json'))).toBe(false);
    expect(existsSync(path.join(home, 'cache'))).toBe(false);
    const runs = readdirSync(path.join(home, 'runs'));
    expect(runs).toHaveLength(1);
    const saved = JSON.parse(read(path.join(home, 'runs', runs[0]!), 'result.json')) as { demo: boolean };
    expect(saved.demo).toBe(true);
    expect(existsSync(path.join(home, 'ledger', 'demo', 'ledger.jsonl'))).toBe(true);
    expect(existsSync(path.join(home, 'ledger', 'ledger.jsonl'))).toBe(false);
  });

  it('the next demo cycle carries the call "from today\'s session"; --json says demo', async () => {
    const next = await runBuilt(['watch', '--demo', '--json', '--quiet'], { home: first.home });
    expect(next.code, next.stderr).toBe(0);
    const report = JSON.parse(next.stdout) as WatchReport;
    expect(report.demo).toBe(true);
    expect(report.analysed).toEqual([]);
    expect(report.carried).toMatchObject([{ ticker: 'ACME', ageSessions: 0, action: 'BUY', conviction: 64 }]);
    const latest = demoCycles(first.home).sort().at(-1)!;
    expect(read(latest, 'delta.html')).toContain('carried, from today&#39;s session');
  }, 60_000);
});

describe('autohedge watch --demo refusals', () => {
  it('watch --help offers --demo as what it is', async () => {
    const run = await runBuilt(['watch', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout.replace(/\s+/g, ' ')).toContain(
      "--demo one cycle over the bundled demo's tickers (ACME; synthetic data, no key), saved under $AUTOHEDGE_HOME/watch/demo/",
    );
  }, 60_000);

  it('a ticker the demo does not cover: exit 2, naming the demo command and what to do instead', async () => {
    const run = await runBuilt(['watch', 'NVDA', '--demo']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'the demo covers ACME only (synthetic data); run `autohedge watch ACME --demo`, or set OPENAI_API_KEY to watch NVDA',
    );
  }, 60_000);

  it('--every: the demo is one recorded session (exit 2)', async () => {
    const run = await runBuilt(['watch', '--demo', '--every', '1d']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--demo replays one recorded session: it runs one cycle');
  }, 60_000);

  it('--notify: the demo sends nothing off the machine, so it says so instead of failing to deliver (exit 2)', async () => {
    const run = await runBuilt(['watch', '--demo', '--notify', 'http://127.0.0.1:9/hook']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'autohedge: --demo sends nothing off this machine: it cannot be combined with --notify (--notify-file writes the same payload to a file)\n',
    );
  }, 60_000);
});

describe('autohedge watch --replay: one quote request per ticker is enough', () => {
  it('two tickers of the smoke cassette are analysed in one cycle: ACME BUY 64, GLBX HOLD 55', async () => {
    const run = await runBuilt(['watch', 'ACME', 'GLBX', '--once', '--json', '--quiet', '--replay', smokeCassette]);
    const report = JSON.parse(run.stdout) as WatchReport;
    expect(report.analysed.map((item) => [item.ticker, item.current?.action, item.current?.conviction])).toEqual([
      ['ACME', 'BUY', 64],
      ['GLBX', 'HOLD', 55],
    ]);
    expect(report.analysed.every((item) => item.problem === undefined)).toBe(true);
    // GLBX's HOLD with levels is flagged (hold-levels): a flagged call is not a failed cycle.
    expect(run.code, run.stderr).toBe(0);
  }, 120_000);
});
