// Issue 44 item 7 and issue 47 items 11, 17, 18: brokers' position exports read as they are
// (title and footer lines, total and pending rows skipped and listed, the cash line read as
// cash, BRK/B mapped, IBKR's Open Positions section), and hostile holdings files refused in one
// line that names the file.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import {
  describeSkipped,
  maxHoldingsBytes,
  parseHoldings,
  readHoldingsFile,
  resolveCash,
} from '../../src/portfolio/holdings.js';

const fixture = (name: string) =>
  readFileSync(fileURLToPath(new URL(`../fixtures/portfolio/${name}`, import.meta.url)), 'utf8');

async function refusal(run: () => unknown): Promise<string> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
}

describe("brokers' position exports", () => {
  it('Fidelity: SPAXX** is cash, BRK/B is BRK-B, Pending Activity and the footer are skipped and listed', () => {
    const parsed = parseHoldings(fixture('fidelity-positions.csv'), 'fidelity.csv');
    expect(parsed.cash).toBe(4321.09);
    expect(parsed.positions).toEqual([
      { symbol: 'NVDA', quantity: 120, costBasis: 9800.5, currency: null },
      { symbol: 'BRK-B', quantity: 10, costBasis: 3500, currency: null },
      { symbol: 'MSFT', quantity: 19, costBasis: 6840, currency: null },
    ]);
    expect(parsed.skipped?.map((entry) => entry.line)).toEqual([6, 8, 10, 12]);
    expect(parsed.skipped?.[0]!.reason).toMatch(/Pending Activity/);
    expect(describeSkipped(parsed, 'fidelity.csv')).toMatch(
      /^fidelity\.csv: read as a broker's export; skipped .*6 \(Pending Activity/,
    );
  });

  it('Schwab: the title line, Qty (Quantity), Cash & Cash Investments as cash, Account Total skipped', () => {
    const parsed = parseHoldings(fixture('schwab-positions.csv'), 'schwab.csv');
    expect(parsed.cash).toBe(5610);
    expect(parsed.positions.map((position) => [position.symbol, position.quantity, position.costBasis])).toEqual([
      ['NVDA', 120, 9800.5],
      ['MSFT', 10, 3600],
      ['BRK-B', 8, 2800],
    ]);
    expect(parsed.skipped).toEqual([
      { line: 1, reason: 'above the header row' },
      { line: 8, reason: 'Account Total (a summary row)' },
    ]);
  });

  it('IBKR: the Open Positions section, Summary rows only, and the ending cash of the base currency', () => {
    const parsed = parseHoldings(fixture('ibkr-activity.csv'), 'ibkr.csv');
    expect(parsed.cash).toBe(12345.67);
    expect(parsed.positions).toEqual([
      { symbol: 'AAPL', quantity: 100, costBasis: 15025, currency: 'USD' },
      { symbol: 'NVDA', quantity: 50, costBasis: 4900, currency: 'USD' },
    ]);
  });

  it('a plain file is read exactly as before, with nothing listed as skipped', () => {
    const parsed = parseHoldings('symbol,quantity\nACME,3\nCASH,10\n', 'h.csv');
    expect(parsed).toEqual({ cash: 10, positions: [{ symbol: 'ACME', quantity: 3, costBasis: null, currency: null }] });
  });

  it('a row of the table that is not a position is still an error, before any blank line', async () => {
    expect(await refusal(() => parseHoldings('symbol,quantity\nACME,ten\n', 'h.csv'))).toBe(
      "h.csv:2: quantity 'ten' is not a number",
    );
  });
});

describe('hostile holdings files (issue 47)', () => {
  it('a row with more cells than the header is refused, naming file and line', async () => {
    expect(await refusal(() => parseHoldings('symbol,quantity\nACME,1,5\n', 'h.csv'))).toBe(
      'h.csv:2: this row has 3 cells, the header row names 2',
    );
  });

  it('a 400-digit cash amount is refused, in the CSV and as --cash', async () => {
    const huge = '9'.repeat(400);
    expect(await refusal(() => parseHoldings(`symbol,quantity\nACME,1\nCASH,${huge}\n`, 'h.csv'))).toBe(
      'h.csv:3: the cash amount is out of range (at most 10,000,000,000,000 either way)',
    );
    expect(await refusal(() => parseHoldings('symbol,quantity\nACME,1\nCASH,20000000000000\n', 'h.csv'))).toBe(
      'h.csv:3: the cash amount is out of range (at most 10,000,000,000,000 either way)',
    );
    const parsed = parseHoldings('symbol,quantity\nACME,1\n', 'h.csv');
    expect(await refusal(() => resolveCash(parsed, Number(huge), 'h.csv'))).toMatch(/^h\.csv: the cash /);
  });

  it('JSON nested 100,000 deep is one line naming the file, under "positions" or bare', async () => {
    const deep = `{"positions":[${'['.repeat(100_000)}${']'.repeat(100_000)}]}`;
    expect(await refusal(() => parseHoldings(deep, 'deep.json'))).toMatch(/^deep\.json: nests too deeply/);
    const bare = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(await refusal(() => parseHoldings(bare, 'bare.json'))).toMatch(/^bare\.json: nests too deeply/);
  });

  it('a hostile header or cell is quoted cut short, so the error stays one short line', async () => {
    const wide = `${'x'.repeat(100_000)},${Array.from({ length: 50 }, (_, index) => `c${index}`).join(',')}\nACME,1\n`;
    const header = await refusal(() => parseHoldings(wide, 'wide.csv'));
    expect(header).toMatch(/^wide\.csv:1: the header row needs a symbol column .*'x{40}…', 'c0'.* and 43 more\)$/);
    expect(header.length).toBeLessThan(400);
    const cell = await refusal(() => parseHoldings(`symbol,quantity\nACME,${'9x'.repeat(50_000)}\n`, 'cell.csv'));
    expect(cell).toBe(`cell.csv:2: quantity '${'9x'.repeat(20)}…' is not a number`);
  });

  it('refuses /dev/zero and a file over the size cap without reading it whole', async () => {
    expect(await refusal(() => readHoldingsFile('/dev/zero'))).toBe(
      'cannot read --holdings /dev/zero: not a regular file (give a CSV or JSON file)',
    );
    const big = join(mkdtempSync(join(tmpdir(), 'ah-holdings-')), 'big.csv');
    writeFileSync(big, `symbol,quantity\n${'ACME,1\n'.repeat(Math.ceil(maxHoldingsBytes / 7) + 10)}`);
    expect(await refusal(() => readHoldingsFile(big))).toMatch(/over the \d+-byte limit$/);
  });

  it('an Excel file is named as one', async () => {
    expect(await refusal(() => parseHoldings('PK\u0003\u0004\u0014\u0000junk', 'book.xlsx'))).toBe(
      'book.xlsx: this is an Excel (or other zip) file; export the positions as CSV and give that file',
    );
  });

  it('a 1,500-position JSON book is read with each line found once (no re-scan per position)', () => {
    const positions = Array.from({ length: 1_500 }, (_, index) => ({ symbol: `T${index}`, quantity: index + 1 }));
    const text = JSON.stringify({ cash: 1, positions: [...positions, { symbol: 'T7', quantity: 1 }] }, null, 1);
    expect(() => parseHoldings(text, 'book.json')).toThrow(/T7 is listed again/);
  });
});
