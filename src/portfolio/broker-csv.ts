/**
 * What brokers' position exports put around the table of positions, so that such a file
 * reads as it is: title lines above the header row, total, pending and footer rows below
 * it, the cash line under the broker's own name, `BRK/B`-style symbols, and IBKR's
 * sectioned activity statement. Pure text rules; holdings.ts applies them.
 */
import { splitCsvLine } from './csv-cells.js';

/** Header names as brokers' position exports spell them, compared lower-case without spaces, dots, dashes, underscores or brackets. */
export const columnAliases = {
  symbol: ['symbol', 'ticker', 'tickersymbol', 'instrument'],
  quantity: ['quantity', 'qty', 'qtyquantity', 'shares', 'position', 'units'],
  costBasis: ['costbasis', 'costbasistotal', 'totalcost', 'cost'],
  currency: ['currency', 'ccy'],
  value: ['currentvalue', 'marketvalue', 'mktval', 'mktvalmarketvalue', 'value'],
  description: ['description', 'securitydescription', 'name'],
} as const;

export type Column = keyof typeof columnAliases;

export function normalizeColumnName(name: string): string {
  return name.toLowerCase().replace(/[\s._\-()]/g, '');
}

/** The column each known name stands in; the first of each wins. */
export function columnsOf(header: readonly string[]): Partial<Record<Column, number>> {
  const columns: Partial<Record<Column, number>> = {};
  header.forEach((name, index) => {
    const normalized = normalizeColumnName(name);
    for (const [column, aliases] of Object.entries(columnAliases) as Array<[Column, readonly string[]]>) {
      if ((aliases as readonly string[]).includes(normalized) && columns[column] === undefined) columns[column] = index;
    }
  });
  return columns;
}

/** The index of the first line that names both a symbol and a quantity column; -1 when none does. */
export function headerLineIndex(lines: readonly string[]): number {
  return lines.findIndex((line) => {
    const columns = columnsOf(splitCsvLine(line));
    return columns.symbol !== undefined && columns.quantity !== undefined;
  });
}

/** A row that is the broker's summary rather than a position: totals, pending activity. */
const summarySymbol = /^(account total|total|totals|grand total|pending activity|pending)\b/i;
/** The broker's name for cash: Fidelity's core money-market positions end in `**`; Schwab's line. */
const cashSymbol = /^(cash|cash & cash investments|cash and cash investments|cash & money market|[a-z0-9]+\*\*)$/i;

export type RowKind = 'position' | 'cash' | 'summary';

export function rowKindOf(symbol: string, description: string): RowKind {
  if (summarySymbol.test(symbol)) return 'summary';
  if (cashSymbol.test(symbol) || /^held in money market$/i.test(description)) return 'cash';
  return 'position';
}

/** `BRK/B` and `BRK B` as brokers print class shares, in the `BRK-B` form market data uses. */
export function mapBrokerSymbol(symbol: string): string {
  return symbol.replace(/^([A-Za-z]{1,6})[/ ]([A-Za-z])$/, '$1-$2');
}

/**
 * An IBKR activity statement: every line starts with its section and a row type
 * (`Open Positions,Header,…` / `Open Positions,Data,…`). Returns the Open Positions table
 * as a plain CSV (its header, then its Summary data rows) with each row's line number in
 * the file, and the ending cash of the base-currency summary; null for any other file.
 */
export function ibkrStatement(
  lines: readonly string[],
): { lines: Array<{ text: string; line: number }>; cash: { amount: string; line: number } | null } | null {
  const headerAt = lines.findIndex((line) => /^"?Open Positions"?,"?Header"?,/.test(line));
  if (headerAt < 0) return null;
  const table: Array<{ text: string; line: number }> = [];
  const strip = (line: string) => splitCsvLine(line).slice(2);
  const header = strip(lines[headerAt]!);
  const discriminator = header.findIndex((name) => normalizeColumnName(name) === 'datadiscriminator');
  table.push({ text: toCsv(header), line: headerAt + 1 });
  lines.forEach((line, index) => {
    if (!/^"?Open Positions"?,"?Data"?,/.test(line)) return;
    const cells = strip(line);
    // Lot rows repeat their Summary row's position.
    if (discriminator >= 0 && !/^summary$/i.test(cells[discriminator] ?? '')) return;
    table.push({ text: toCsv(cells), line: index + 1 });
  });
  return { lines: table, cash: ibkrEndingCash(lines) };
}

function ibkrEndingCash(lines: readonly string[]): { amount: string; line: number } | null {
  const headerAt = lines.findIndex((line) => /^"?Cash Report"?,"?Header"?,/.test(line));
  if (headerAt < 0) return null;
  const header = splitCsvLine(lines[headerAt]!).map(normalizeColumnName);
  const total = header.indexOf('total');
  for (let index = headerAt + 1; index < lines.length; index += 1) {
    const cells = splitCsvLine(lines[index]!);
    if (!/^cash report$/i.test(cells[0] ?? '')) continue;
    if (/^ending cash$/i.test(cells[2] ?? '') && /base currency summary/i.test(cells[3] ?? '') && total >= 0)
      return { amount: cells[total] ?? '', line: index + 1 };
  }
  return null;
}

function toCsv(cells: readonly string[]): string {
  return cells.map((cell) => (/[",]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell)).join(',');
}
