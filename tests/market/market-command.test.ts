import { describe, expect, it } from 'vitest';
import { showSnapshot } from '../../src/cli/commands/market.js';
import { UsageError } from '../../src/errors.js';
import { createYahooMarketData } from '../../src/market/sources/yahoo/index.js';
import type { MarketData, MarketSnapshot } from '../../src/market/types.js';
import { renderPriceChart } from '../../src/report/chart.js';
import { createYahooRouter, own, quoteSummaryFrom } from '../support/yahoo.js';

/** `autohedge market <ticker>` on our own fixtures, through the real client. */

const asOf = new Date('2025-10-10T21:00:00Z');

function setup(overrides: { isTTY?: boolean; color?: boolean; columns?: number } = {}) {
  const router = createYahooRouter({
    getCrumb: () => ({ status: 200, statusText: 'OK', contentType: 'text/plain', body: 'fixture-crumb' }),
    quote: () => own('quote-ACME.json'),
    quoteSummary: (_symbol, modules) => quoteSummaryFrom([own('quoteSummary-ACME.json')], modules),
    chart: () => own('chart-ACME.json'),
  });
  const stdout: string[] = [];
  const stderr: string[] = [];
  const calls: Array<{ ticker: string; refresh: boolean | undefined }> = [];
  const real = createYahooMarketData({ fetch: router.fetch });
  const market: MarketData = {
    snapshot: (ticker, options) => {
      calls.push({ ticker, refresh: options.refresh });
      return real.snapshot(ticker, options);
    },
  };
  const context = {
    market,
    asOf,
    stdout: (text: string) => void stdout.push(text),
    stderr: (text: string) => void stderr.push(text),
    color: overrides.color ?? false,
    isTTY: overrides.isTTY ?? false,
    columns: overrides.columns ?? 80,
  };
  return { context, stdout, stderr, calls, router };
}

describe('showSnapshot', () => {
  it('not a TTY: the text block exactly as the agents see it, then a plain-text chart; nothing on stderr', async () => {
    const { context, stdout, stderr, calls } = setup();
    const snapshot = await showSnapshot('acme', { json: false, refresh: true }, context);
    expect(calls).toEqual([{ ticker: 'ACME', refresh: true }]);
    const output = stdout.join('');
    const chart = renderPriceChart(snapshot.bars, { width: 80, color: false, unicode: false });
    expect(output).toBe(`${snapshot.text}\n\nDaily closes (USD):\n${chart}`);
    expect(output.startsWith('MARKET DATA — ACME (Acme Corporation), as of 2025-10-10\n')).toBe(true);
    expect(output).not.toMatch(/\u001b\[/);
    expect(output).not.toMatch(/[▁▂▃▄▅▆▇█]/);
    expect(stderr).toEqual([]);
  });

  it('a colour terminal gets the block chart in colour, no wider than the terminal', async () => {
    const { context, stdout } = setup({ isTTY: true, color: true, columns: 60 });
    await showSnapshot('ACME', { json: false, refresh: false }, context);
    const output = stdout.join('');
    expect(output).toMatch(/\u001b\[3[12]m/);
    expect(output).toMatch(/[▁▂▃▄▅▆▇█]/);
    const chartLines = output.slice(output.indexOf('Daily closes')).trimEnd().split('\n').slice(1);
    for (const line of chartLines) expect(line.replace(/\u001b\[\d+m/g, '').length).toBeLessThanOrEqual(60);
  });

  it('a TTY with colour off falls back to the plain chart', async () => {
    const { context, stdout } = setup({ isTTY: true, color: false });
    await showSnapshot('ACME', { json: false, refresh: false }, context);
    expect(stdout.join('')).not.toMatch(/[▁▂▃▄▅▆▇█]|\u001b\[/);
  });

  it('--json prints only the snapshot, as pretty JSON', async () => {
    const { context, stdout, stderr } = setup({ isTTY: true, color: true });
    const snapshot = await showSnapshot('ACME', { json: true, refresh: false }, context);
    expect(stdout).toHaveLength(1);
    const output = stdout[0]!;
    expect(output).toBe(`${JSON.stringify(snapshot, null, 2)}\n`);
    expect(output.startsWith('{\n  "symbol": "ACME",\n  "asOf": "2025-10-10T21:00:00.000Z",\n')).toBe(true);
    const parsed = JSON.parse(output) as MarketSnapshot;
    expect(Object.keys(parsed)).toEqual([
      'symbol',
      'asOf',
      'identity',
      'quote',
      'bars',
      'indicators',
      'text',
      'warnings',
      'source',
      'vendors',
    ]);
    expect(parsed.quote.price).toBe(106.25);
    expect(parsed.bars).toHaveLength(262);
    expect(output).not.toMatch(/\u001b\[/);
    expect(stderr).toEqual([]);
  });

  it('a malformed ticker is a usage error before the market is asked', async () => {
    const { context, calls, router, stdout } = setup();
    await expect(showSnapshot('QQQ,', { json: true, refresh: false }, context)).rejects.toThrow(UsageError);
    expect(calls).toEqual([]);
    expect(router.requests).toEqual([]);
    expect(stdout).toEqual([]);
  });
});
