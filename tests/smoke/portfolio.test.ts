/**
 * `autohedge portfolio` as a user runs it: the built CLI, the demo's ACME run saved by
 * `analyze ACME --demo`, then the book built offline from the demo's market data.
 */
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runBuilt } from './support.js';

beforeAll(ensureBuilt, 180_000);

const files = mkdtempSync(path.join(tmpdir(), 'autohedge-smoke-holdings-'));
const holdingsFile = (name: string, text: string) => {
  const file = path.join(files, name);
  writeFileSync(file, text);
  return file;
};

describe('autohedge portfolio --demo (built CLI, no keys, no network)', () => {
  it('sizes the demo ACME decision against the book: JSON, the same bytes twice, a saved report', async () => {
    const analyzed = await runBuilt(['analyze', 'ACME', '--demo', '--quiet']);
    expect(analyzed.code).toBe(0);
    const holdings = holdingsFile('book.csv', 'Symbol,Qty,Cost Basis\n# the demo book\nACME,10,1300\nCASH,98000\n');
    const args = ['portfolio', '--holdings', holdings, '--demo', '--json'];
    const first = await runBuilt(args, { home: analyzed.home });
    expect(first.stderr).not.toContain('Error');
    expect(first.code).toBe(0);
    const plan = JSON.parse(first.stdout) as {
      status: string;
      nav: number;
      targets: Array<{ ticker: string; shares: number; decisionRunId: string | null }>;
      orders: Array<{ ticker: string; side: string; quantity: number; limitPrice?: number }>;
    };
    expect(plan.status).toBe('proposed');
    // NAV 98,000 + 10 × 141.85 = 99,418.50; the demo BUY asks 4 %: 3,976.74 ÷ 141.85 = 28.03 → 28 shares.
    expect(plan.nav).toBe(99418.5);
    expect(plan.targets).toEqual([expect.objectContaining({ ticker: 'ACME', shares: 28 })]);
    expect(plan.orders).toEqual([
      expect.objectContaining({ ticker: 'ACME', side: 'BUY', quantity: 18, limitPrice: 139.57 }),
    ]);
    const second = await runBuilt(args, { home: analyzed.home });
    expect(second.stdout).toBe(first.stdout);
    expect(readdirSync(path.join(analyzed.home, 'portfolios'))).toHaveLength(1);
  });

  it('a malformed holdings file is exit 2 naming its line; an infeasible limit is exit 2 naming it', async () => {
    const malformed = await runBuilt([
      'portfolio',
      '--holdings',
      holdingsFile('bad.csv', 'symbol,quantity\nACME,lots\n'),
      '--demo',
    ]);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain("bad.csv:2: quantity 'lots' is not a number");
    // ACME held and not analysed (this home has no runs) leaves 1 % cash: below the 5 % floor.
    const tight = await runBuilt([
      'portfolio',
      '--holdings',
      holdingsFile('full.csv', 'symbol,quantity\nACME,700\nCASH,1000\n'),
      '--demo',
      '--max-weight-pct',
      '100',
      '--max-sector-pct',
      '100',
    ]);
    expect(tight.stdout).toBe('');
    expect(tight.stderr).toMatch(/^autohedge: .*cash at 1\.00 % is below --min-cash-pct 5\n$/);
    expect(tight.code, tight.stderr).toBe(2);
  });

  it('--demo without --holdings sizes the demo decision against a book of cash, and says so', async () => {
    const analyzed = await runBuilt(['analyze', 'ACME', '--demo', '--quiet']);
    const run = await runBuilt(['portfolio', '--demo', '--json', '--no-save'], { home: analyzed.home });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe(
      'autohedge: demo book: no positions, 100,000.00 USD in cash (--holdings <file> for yours)\n',
    );
    const plan = JSON.parse(run.stdout) as { nav: number; orders: Array<{ ticker: string; quantity: number }> };
    // 4 % of 100,000 at the demo close 141.85: 28.2 → 28 shares, the same as a file holding only that cash.
    expect(plan.nav).toBe(100000);
    expect(plan.orders).toEqual([expect.objectContaining({ ticker: 'ACME', side: 'BUY', quantity: 28 })]);
    const cashOnly = holdingsFile('cash.csv', 'symbol,quantity\nCASH,100000\n');
    const fromFile = await runBuilt(['portfolio', '--demo', '--json', '--no-save', '--holdings', cashOnly, 'ACME'], {
      home: analyzed.home,
    });
    expect(fromFile.stdout).toBe(run.stdout);
  });

  it('outside the demo: no --holdings, or a book of cash with nothing named, is one line, exit 2', async () => {
    const missing = await runBuilt(['portfolio', 'ACME']);
    expect(missing.stderr).toBe('autohedge: missing required option --holdings <file>\n');
    expect(missing.code).toBe(2);
    const nothing = await runBuilt([
      'portfolio',
      '--holdings',
      holdingsFile('only-cash.csv', 'symbol,quantity\nCASH,5000\n'),
    ]);
    expect(nothing.stderr).toBe(
      'autohedge: nothing to size: the book holds no positions and no decisions were named (name tickers, or --universe, --latest, --runs)\n',
    );
    expect(nothing.code).toBe(2);
  });
});
