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
});
