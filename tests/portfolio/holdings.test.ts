import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { parseHoldings, resolveCash } from '../../src/portfolio/holdings.js';

const fails = (text: string) => {
  try {
    parseHoldings(text, 'h.csv');
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('expected the file to be refused');
};

describe('holdings CSV', () => {
  it('reads a header, comments, a CASH row and optional columns', () => {
    const parsed = parseHoldings(
      [
        '# my book',
        'symbol,quantity,costBasis,currency',
        'acme,100,12000,usd  # core',
        'BRK-B,2.5,,',
        'CASH,"12,500.50"',
        '',
      ].join('\n'),
      'h.csv',
    );
    expect(parsed).toEqual({
      cash: 12500.5,
      positions: [
        { symbol: 'ACME', quantity: 100, costBasis: 12000, currency: 'USD' },
        { symbol: 'BRK-B', quantity: 2.5, costBasis: null, currency: null },
      ],
    });
  });

  it("understands brokers' column names and money formats", () => {
    const parsed = parseHoldings('Ticker,Description,Qty,Cost Basis\nNVDA,"NVIDIA, Inc.",10,"$1,234.00"\n', 'h.csv');
    expect(parsed.positions).toEqual([{ symbol: 'NVDA', quantity: 10, costBasis: 1234, currency: null }]);
    expect(parseHoldings('Symbol,Shares\nAAPL,3\n').positions[0]!.quantity).toBe(3);
  });

  it('names the line of each problem', () => {
    expect(fails('symbol,quantity\nAAPL,ten\n')).toBe("h.csv:2: quantity 'ten' is not a number");
    expect(fails('symbol,quantity\n# c\nAAPL,1\nAAPL,2\n')).toBe(
      'h.csv:4: AAPL is listed again (first on line 3); combine its lots into one row',
    );
    expect(fails('symbol,quantity\nAA PL,1\n')).toBe("h.csv:2: 'AA PL' is not a ticker symbol");
    expect(fails('symbol,quantity\nAAPL,-5\n')).toMatch(/^h\.csv:2: quantity must not be negative/);
    expect(fails('symbol,quantity\nCASH,1\ncash,2\n')).toBe('h.csv:3: a second CASH row (the first is on line 2)');
    expect(fails('symbol,quantity,currency\nSAP,1,euro\n')).toMatch(
      /^h\.csv:2: currency 'euro' must be a three-letter/,
    );
    expect(fails('symbol,quantity\nAAPL\n')).toBe('h.csv:2: no quantity in this row');
  });

  it('requires a header with symbol and quantity columns', () => {
    expect(fails('AAPL,10\n')).toMatch(/^h\.csv:1: the header row needs a symbol column/);
    expect(fails('# only a comment\n')).toMatch(/^h\.csv: empty file/);
  });
});

describe('holdings JSON', () => {
  it('reads cash and positions', () => {
    expect(
      parseHoldings('{ "cash": 1000, "positions": [{ "symbol": "msft", "quantity": 4, "costBasis": 1200 }] }'),
    ).toEqual({
      cash: 1000,
      positions: [{ symbol: 'MSFT', quantity: 4, costBasis: 1200, currency: null }],
    });
  });

  it('names the line of a schema error', () => {
    const text = [
      '{',
      '  "cash": 10,',
      '  "positions": [',
      '    { "symbol": "A", "quantity": 1 },',
      '    { "symbol": "B", "quantity": "x" }',
      '  ]',
      '}',
    ].join('\n');
    expect(() => parseHoldings(text, 'h.json')).toThrow(/^h\.json:5: positions\[1\]\.quantity /);
    expect(() => parseHoldings('{ "cash": 1, "positions": [], "extra": 1 }', 'h.json')).toThrow(/^h\.json:1: /);
    expect(() => parseHoldings('{ "cash": 1, ', 'h.json')).toThrow(/^h\.json: not valid JSON/);
  });
});

describe('cash', () => {
  it('comes from the file or --cash, exactly once', () => {
    expect(resolveCash({ cash: null, positions: [] }, 500, 'h.csv').cash).toBe(500);
    expect(() => resolveCash({ cash: 1, positions: [] }, 500, 'h.csv')).toThrow(/already gives the cash/);
    expect(() => resolveCash({ cash: null, positions: [] }, undefined, 'h.csv')).toThrow(/--cash 0 for none/);
  });
});
